import { escapeIdentity } from "@orphus/digest";
import { ROLE_ENV, resolveRoleName, roleFromEnv, sessionRoleName } from "@orphus/roundtable-client";
import { ROLE_FLAG } from "./names.js";

/** Where a session's role came from, in the order they are tried. */
export type RoleSource = "flag" | "session-name" | "env" | "fallback";

/** A session's role as the extension speaks it, and where it came from. */
export interface SessionRole {
  readonly role: string;
  readonly source: RoleSource;
  /** True for the `session-<pid>` fallback, whose read positions die with the process. */
  readonly ephemeral: boolean;
}

/** What a session's role is resolved from. */
export interface RoleInputs {
  /** The value of `--roundtable-role`, as pi's getFlag returns it. */
  readonly flag: boolean | string | undefined;
  /** pi's session name (`/name planner`), if the session has one. */
  readonly sessionName: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly pid: number;
}

/** How the status line and the warning name each source. */
export const ROLE_SOURCE_LABELS: Readonly<Record<RoleSource, string>> = {
  flag: `--${ROLE_FLAG}`,
  "session-name": "the session name",
  env: ROLE_ENV,
  fallback: "no role configured",
};

function isRoleName(name: string): boolean {
  try {
    resolveRoleName(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * The role a pi session speaks as: `--roundtable-role`, else the session's name (`/name planner`) when it is a valid
 * role name, else `ORPHUS_ROUNDTABLE_ROLE`, else `session-<pid>`. A flag or variable that is set but invalid throws
 * the client's ClientOptionError, since the user asked for that name; a session name that is not a role name (pi's
 * names are free text) is passed over, because it was not chosen as one.
 */
export function resolveSessionRole(inputs: RoleInputs): SessionRole {
  const flag = typeof inputs.flag === "string" ? inputs.flag.trim() : "";
  if (flag !== "") return { role: resolveRoleName(flag).role, source: "flag", ephemeral: false };
  const sessionName = inputs.sessionName?.trim() ?? "";
  if (sessionName !== "" && isRoleName(sessionName))
    return { role: sessionName, source: "session-name", ephemeral: false };
  const fromEnv = roleFromEnv(inputs.env);
  if (fromEnv !== undefined) return { role: resolveRoleName(fromEnv).role, source: "env", ephemeral: false };
  return { role: sessionRoleName(inputs.pid), source: "fallback", ephemeral: true };
}

/** The one-line warning a session gets once when it speaks as `session-<pid>`. */
export function ephemeralRoleWarning(role: string, sessionName: string | undefined): string {
  const named = sessionName?.trim() ?? "";
  const why =
    named === ""
      ? "this session has no role name"
      : // Quoted and escaped, never stripped: a name holding an invisible character shows it (pi's names are free text).
        `this session's name "${escapeIdentity(named, { also: '"', maxLength: 40 })}" is not a role name ` +
        "(letters, digits, '.', '_', '-')";
  return (
    `[roundtable] speaking as ${role}: ${why}, so its read positions will not survive a restart. Name it ` +
    `(/name planner), start pi with --${ROLE_FLAG} planner, or set ${ROLE_ENV}=planner.`
  );
}
