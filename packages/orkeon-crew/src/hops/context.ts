import * as z from "zod";
import { boundedArray, ownObject, parseAtBoundary } from "../boundary.js";
import { SessionContextInvalidError } from "../errors.js";
import {
  MAX_MODE_NAME_LENGTH,
  MAX_RULE_LENGTH,
  MAX_SESSION_RULES,
  MAX_SESSION_TOOLS,
  MAX_TOOL_NAME_LENGTH,
} from "../limits.js";
import type { OrkeonSession, OrkeonSessionSnapshot } from "../runtime.js";
import { NO_RULES, type PermissionRules } from "../rules.js";

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

const MODE = `a string of at most ${MAX_MODE_NAME_LENGTH} chars`;
const RULES = `an array of at most ${MAX_SESSION_RULES} rules of at most ${MAX_RULE_LENGTH} chars`;
const TOOLS = `an array of at most ${MAX_SESSION_TOOLS} tool names of at most ${MAX_TOOL_NAME_LENGTH} chars`;

const modeSchema = z.string({ error: MODE }).max(MAX_MODE_NAME_LENGTH, { error: MODE });
const ruleListSchema = boundedArray(
  z.string({ error: RULES }).max(MAX_RULE_LENGTH, { error: RULES }),
  MAX_SESSION_RULES,
  RULES,
);

/** The gate's rules as a read answers them, `{ allow?, deny? }` (a missing or null list is empty). */
export const permissionRulesSchema: z.ZodType<PermissionRules> = ownObject(
  { allow: ruleListSchema.nullish(), deny: ruleListSchema.nullish() },
  "an object of allow and deny lists",
).transform((rules) =>
  Object.freeze({ allow: Object.freeze(rules.allow ?? []), deny: Object.freeze(rules.deny ?? []) }),
);

/**
 * What the runtime's session read answers, `{ mode?, rules?, tools? }`, read off own properties; a missing or null
 * field is absent. Every list and name is bounded. This is the shape a runtime team must confirm.
 */
export const orkeonSessionSnapshotSchema: z.ZodType<OrkeonSessionSnapshot> = ownObject(
  {
    mode: modeSchema.nullish().transform((mode) => mode ?? undefined),
    rules: permissionRulesSchema.nullish().transform((rules) => rules ?? undefined),
    tools: boundedArray(
      z.string({ error: TOOLS }).max(MAX_TOOL_NAME_LENGTH, { error: TOOLS }),
      MAX_SESSION_TOOLS,
      TOOLS,
    )
      .nullish()
      .transform((tools) => tools ?? undefined),
  },
  "an object",
);

/**
 * A session context read, `{ mode?, rules?, githubTool? }`: a missing, null or empty mode reads as no mode, missing
 * rules as none, a missing github flag as not offered.
 */
export const sessionContextReadSchema: z.ZodType<SessionContextRead> = ownObject(
  {
    mode: modeSchema.nullish(),
    rules: permissionRulesSchema.nullish(),
    githubTool: z.boolean({ error: "a boolean" }).nullish(),
  },
  "an object",
).transform((read) => ({
  mode: read.mode === "" || read.mode === null ? undefined : read.mode,
  rules: read.rules ?? NO_RULES,
  githubTool: read.githubTool ?? false,
}));

/** The fresh context a writing hop's input carries: `{ mode, rules, githubTool }`, every field present. */
export const pullRequestContextSchema: z.ZodType<PullRequestContext> = ownObject(
  {
    mode: modeSchema.min(1, { error: MODE }),
    rules: permissionRulesSchema,
    githubTool: z.boolean({ error: "a boolean" }),
  },
  "an object { mode, rules, githubTool }",
);

/** The session context adapter over the runtime's session read: github is offered when the session lists the tool. */
export function createSessionContextAdapter(session: OrkeonSession): SessionContextPort {
  return {
    async readPullRequestContext(): Promise<SessionContextRead> {
      const snapshot = parseContext(orkeonSessionSnapshotSchema, await session.read(), "the snapshot");
      return {
        mode: snapshot.mode === "" ? undefined : snapshot.mode,
        rules: {
          allow: snapshot.rules?.allow ?? NO_RULES.allow,
          deny: snapshot.rules?.deny ?? NO_RULES.deny,
        },
        githubTool: snapshot.tools?.includes("github") ?? false,
      };
    },
  };
}

/** Validates a session context read at the port's boundary; throws SessionContextInvalidError on any other shape or size. */
export function parseSessionContextRead(value: unknown): SessionContextRead {
  return parseContext(sessionContextReadSchema, value, "the read");
}

function parseContext<T>(schema: z.ZodType<T>, value: unknown, whole: string): T {
  const parsed = parseAtBoundary(schema, value, whole);
  if (parsed.ok) return parsed.data;
  const { field, expected, got, cause } = parsed.failure;
  throw new SessionContextInvalidError(field, expected, got, { cause });
}
