import type { EnvLike } from "./dirs.js";

/**
 * The variable a session's role name comes from when none is given in code or on the command line. The roundtable
 * client speaks as it; the memory store lets it write when it is `librarian`.
 */
export const ROLE_ENV = "ORPHUS_ROUNDTABLE_ROLE";

/** The role name configured in `env` ({@link ROLE_ENV}, trimmed), or undefined when it is unset or blank. */
export function roleFromEnv(env: EnvLike = process.env): string | undefined {
  const configured = env[ROLE_ENV]?.trim();
  return configured === undefined || configured === "" ? undefined : configured;
}
