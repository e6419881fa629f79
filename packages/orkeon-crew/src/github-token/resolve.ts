import { GitHubTokenSettingInvalidError, UnmaskableTokenError } from "../errors.js";
import {
  DEFAULT_GITHUB_TOKEN_VARIABLE,
  GH_TOKEN_VARIABLE,
  GITHUB_TOKEN_SETTING,
  GITHUB_TOKEN_VARIABLE_SETTING,
} from "../limits.js";
import { createTokenMasker, type TokenMasker } from "./mask.js";
import { envValue, isSet, type Environment, type SettingsReader } from "./settings.js";
import { GitHubToken, type GitHubTokenSource } from "./token.js";

/** Where the github tool's token is looked for. */
export interface GitHubTokenSources {
  readonly settings: SettingsReader;
  readonly env: Environment;
}

/** What {@link resolveGitHubToken} found. */
export interface GitHubTokenResolution {
  /** The token, or undefined when no source holds one. */
  readonly token: GitHubToken | undefined;
  /** Masks every value any source holds, the unused ones too, so no line shows a token. */
  readonly masker: TokenMasker;
  /** The variable consulted second: the one `Orkeon:Tools:GitHub:TokenVariable` names, or GITHUB_TOKEN. */
  readonly variable: string;
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * GitHub's token shapes: the prefixed tokens (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_) and the classic 40 hex
 * digits. Some of them are valid variable names, so a token pasted into the variable-name setting would otherwise be
 * read as a name, handed to Docker as `-e <token>` and shown wherever the name is.
 */
const GITHUB_TOKEN_SHAPE = /^(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|[0-9A-Fa-f]{40})$/;

/** True for a name an environment variable can have. */
export function isVariableName(name: string): boolean {
  return VARIABLE_NAME.test(name);
}

/** What keeps a value from naming the token's variable, or undefined when it names one. */
function variableNameProblem(name: string): string | undefined {
  if (GITHUB_TOKEN_SHAPE.test(name)) return "that looks like a GitHub token";
  if (isVariableName(name)) return undefined;
  return /^[0-9]/.test(name) ? "starting with a digit" : "holding another character";
}

/** Throws GitHubTokenSettingInvalidError, without quoting the value, when `named` cannot name the token's variable. */
export function checkTokenVariableName(setting: string, named: string): void {
  const problem = variableNameProblem(named);
  if (problem !== undefined) throw new GitHubTokenSettingInvalidError(setting, named.length, problem);
}

/** The variable `Orkeon:Tools:GitHub:TokenVariable` names (GITHUB_TOKEN when unset or blank); throws when not a name. */
export function tokenVariableOf(settings: SettingsReader): string {
  const named = settings(GITHUB_TOKEN_VARIABLE_SETTING);
  if (named === undefined || named.trim() === "") return DEFAULT_GITHUB_TOKEN_VARIABLE;
  checkTokenVariableName(GITHUB_TOKEN_VARIABLE_SETTING, named);
  return named;
}

/**
 * Resolves the github tool's token as the runtime does since #222: `Orkeon:Tools:GitHub:Token`, else the variable
 * `Orkeon:Tools:GitHub:TokenVariable` names (GITHUB_TOKEN by default), else GH_TOKEN. A blank value counts as unset.
 * Throws UnmaskableTokenError when the value found is asterisks alone (a masked placeholder copied back).
 */
export function resolveGitHubToken(sources: GitHubTokenSources): GitHubTokenResolution {
  const variable = tokenVariableOf(sources.settings);
  const candidates: Array<[string | undefined, GitHubTokenSource]> = [
    [sources.settings(GITHUB_TOKEN_SETTING), { kind: "setting", key: GITHUB_TOKEN_SETTING }],
    [envValue(sources.env, variable), { kind: "variable", name: variable }],
    [envValue(sources.env, GH_TOKEN_VARIABLE), { kind: "variable", name: GH_TOKEN_VARIABLE }],
  ];
  const found = candidates.find(([value]) => isSet(value));
  let token: GitHubToken | undefined;
  if (found !== undefined) {
    const [value, source] = found as [string, GitHubTokenSource];
    if (/^\*+$/.test(value.trim())) {
      throw new UnmaskableTokenError(source.kind === "setting" ? source.key : source.name);
    }
    token = new GitHubToken(value, source);
  }
  const others = [envValue(sources.env, DEFAULT_GITHUB_TOKEN_VARIABLE), ...candidates.map(([value]) => value)];
  const masked = others.filter(isSet).flatMap((value) => [value, value.trim()]);
  return { token, masker: createTokenMasker(masked.filter((value) => !/^\*+$/.test(value))), variable };
}
