import { DEFAULT_GITHUB_TOKEN_VARIABLE, GH_TOKEN_VARIABLE, GITHUB_TOKEN_VARIABLE_SETTING } from "../limits.js";
import { checkTokenVariableName } from "./resolve.js";
import {
  createSettingsReader,
  envValue,
  isSet,
  settingVariableName,
  settingVariables,
  type Environment,
} from "./settings.js";

/** The variable that carries `Orkeon:Tools:GitHub:TokenVariable`: `Orkeon__Tools__GitHub__TokenVariable`. */
export const TOKEN_VARIABLE_SETTING_VARIABLE = settingVariableName(GITHUB_TOKEN_VARIABLE_SETTING);

/**
 * The `docker run` arguments that hand the container the token's variables: GITHUB_TOKEN, GH_TOKEN and the variable
 * `Orkeon__Tools__GitHub__TokenVariable` names, each only when set (not blank), plus that setting itself in every
 * spelling that is set (the runtime matches it without regard to letter case). Each is `-e NAME` without a value,
 * so docker copies it from the launcher's environment and no token enters the argument list. Throws
 * GitHubTokenSettingInvalidError when the setting is not a variable name, SettingsInvalidError when its spellings
 * disagree.
 */
export function dockerTokenArgs(env: Environment): string[] {
  const named = createSettingsReader({ env })(GITHUB_TOKEN_VARIABLE_SETTING);
  if (isSet(named)) checkTokenVariableName(TOKEN_VARIABLE_SETTING_VARIABLE, named);
  const names = [DEFAULT_GITHUB_TOKEN_VARIABLE, GH_TOKEN_VARIABLE];
  if (isSet(named)) names.push(named);
  names.push(...settingVariables(env, GITHUB_TOKEN_VARIABLE_SETTING));
  return [...new Set(names)].filter((name) => isSet(envValue(env, name))).flatMap((name) => ["-e", name]);
}
