import { SessionContextInvalidError } from "../errors.js";
import { MAX_MODE_NAME_LENGTH, MAX_RULE_LENGTH, MAX_SESSION_RULES } from "../limits.js";
import type { OrkeonSession } from "../runtime.js";
import { NO_RULES, type PermissionRules } from "../rules.js";
import { isRecord, ownField } from "../text.js";

/** What a session context read answers: the mode (when it answers one), the rules and whether github is offered. */
export interface SessionContextRead {
  readonly mode?: string | undefined;
  readonly rules: PermissionRules;
  readonly githubTool: boolean;
}

/** The fresh context a writing hop carries in its launch input; the crews prefer it to their record's. */
export interface PullRequestContext {
  /** The mode as the session read answered it (any mode but a refusing one). */
  readonly mode: string;
  readonly rules: PermissionRules;
  readonly githubTool: boolean;
}

/** The port of the session read each writing hop makes again (`readPullRequestContext`). */
export interface SessionContextPort {
  readPullRequestContext(): Promise<SessionContextRead>;
}

/** The session context adapter over the runtime's session read: github is offered when the session lists the tool. */
export function createSessionContextAdapter(session: OrkeonSession): SessionContextPort {
  return {
    async readPullRequestContext(): Promise<SessionContextRead> {
      const snapshot: unknown = await session.read();
      if (!isRecord(snapshot)) throw new SessionContextInvalidError("the snapshot", "an object", snapshot);
      const tools = ownField(snapshot, "tools") ?? [];
      if (!Array.isArray(tools)) throw new SessionContextInvalidError("tools", "an array of tool names", tools);
      return parseSessionContextRead({
        mode: ownField(snapshot, "mode"),
        rules: ownField(snapshot, "rules") ?? NO_RULES,
        githubTool: tools.includes("github"),
      });
    },
  };
}

/**
 * Validates a session context read at the runtime boundary. A missing or empty mode reads as no mode; missing rules
 * as none; a missing github flag as not offered. Throws SessionContextInvalidError on any other shape or size.
 */
export function parseSessionContextRead(value: unknown): SessionContextRead {
  if (!isRecord(value)) throw new SessionContextInvalidError("the read", "an object", value);
  const mode = ownField(value, "mode");
  if (mode !== undefined && (typeof mode !== "string" || mode.length > MAX_MODE_NAME_LENGTH)) {
    throw new SessionContextInvalidError("mode", `a string of at most ${MAX_MODE_NAME_LENGTH} chars`, mode);
  }
  const githubTool = ownField(value, "githubTool") ?? false;
  if (typeof githubTool !== "boolean") throw new SessionContextInvalidError("githubTool", "a boolean", githubTool);
  const rules = ownField(value, "rules") ?? NO_RULES;
  if (!isRecord(rules)) throw new SessionContextInvalidError("rules", "an object of allow and deny lists", rules);
  return {
    mode: mode === "" ? undefined : mode,
    rules: { allow: ruleList(rules, "allow"), deny: ruleList(rules, "deny") },
    githubTool,
  };
}

function ruleList(rules: Readonly<Record<string, unknown>>, key: "allow" | "deny"): readonly string[] {
  const list = ownField(rules, key) ?? [];
  const expected = `an array of at most ${MAX_SESSION_RULES} rules of at most ${MAX_RULE_LENGTH} chars`;
  if (!Array.isArray(list) || list.length > MAX_SESSION_RULES) {
    throw new SessionContextInvalidError(`rules.${key}`, expected, list);
  }
  for (const rule of list as unknown[]) {
    if (typeof rule !== "string" || rule.length > MAX_RULE_LENGTH) {
      throw new SessionContextInvalidError(`rules.${key}`, expected, rule);
    }
  }
  return Object.freeze([...(list as string[])]);
}
