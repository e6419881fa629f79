import { roleNameSchema } from "@orphus/roundtable-protocol";
import { ROLE_ENV } from "@orphus/agent-env";
import { ClientOptionError } from "./errors.js";

// The role variable is read by @orphus/agent-env, one rule for the client and the memory store.
export { ROLE_ENV, roleFromEnv } from "@orphus/agent-env";

/** A role name as the client will use it, and whether it survives a restart. */
export interface ResolvedRole {
  readonly role: string;
  /** True for the `session-<pid>` fallback: read positions key on it and are lost when the process restarts. */
  readonly ephemeral: boolean;
  /** Present when ephemeral: the warning to show once. */
  readonly warning?: string;
}

/** The fallback role name of a process that gives none. */
export function sessionRoleName(pid: number): string {
  return `session-${pid}`;
}

/**
 * The role a client speaks as: the given name when there is one (validated against the wire's role syntax), else
 * `session-<pid>` with a warning, because cursors key on the role name and a pid changes on every restart.
 */
export function resolveRoleName(name: string | undefined, pid: number = process.pid): ResolvedRole {
  if (name === undefined || name === "") {
    const role = sessionRoleName(pid);
    return {
      role,
      ephemeral: true,
      warning:
        `roundtable: no role name given, speaking as "${role}"; read positions key on the role name and will not ` +
        `survive a restart of this session (give a stable name, e.g. --as planner or ${ROLE_ENV}=planner)`,
    };
  }
  const parsed = roleNameSchema.safeParse(name);
  if (!parsed.success) {
    throw new ClientOptionError(
      "role",
      "1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
      name,
      { cause: parsed.error },
    );
  }
  return { role: parsed.data, ephemeral: false };
}
