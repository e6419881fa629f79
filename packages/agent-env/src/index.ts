/**
 * @orphus/agent-env — where an Orphus agent keeps its files and who it is, resolved one way for every package: the
 * agent directory (the broker's socket lives under it), the memory directory (the memory store), the role name,
 * and private directories (0700) for all of them. A leaf: it imports nothing of ours.
 *
 * ```ts
 * import { resolveAgentDir, resolveMemoryDir, roleFromEnv } from "@orphus/agent-env";
 *
 * resolveAgentDir(); // $ORPHUS_CODING_AGENT_DIR, else ~/.orphus/agent
 * resolveMemoryDir().dir; // $ORPHUS_MEMORY_DIR, else <agent dir>/memory
 * roleFromEnv(); // $ORPHUS_ROUNDTABLE_ROLE, trimmed, or undefined
 * ```
 *
 * One function per answer, so that a worktree and its main checkout, or the broker and the memory store, can never
 * resolve the same variables to different places.
 */
export { AGENT_DIR_ENV, MEMORY_DIR_ENV, MEMORY_DIR_NAME, resolveAgentDir, resolveMemoryDir } from "./dirs.js";
export { ROLE_ENV, roleFromEnv } from "./role.js";
export { ensurePrivateDir } from "./private-dir.js";
export type { EnvLike, ResolvedMemoryDir } from "./dirs.js";
