import * as os from "node:os";
import * as path from "node:path";

/** The variable naming the agent directory; one value across a fleet means one broker and one memory store for it. */
export const AGENT_DIR_ENV = "ORPHUS_CODING_AGENT_DIR";

/** The variable naming the memory directory; without it the memory store lives under the agent directory. */
export const MEMORY_DIR_ENV = "ORPHUS_MEMORY_DIR";

/** Folder under the agent directory holding the memory store when {@link MEMORY_DIR_ENV} is not set. */
export const MEMORY_DIR_NAME = "memory";

/** An environment as these functions read it. */
export type EnvLike = Readonly<Record<string, string | undefined>>;

function pathFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === "win32" ? path.win32 : path.posix;
}

/**
 * A directory named in a variable, made absolute: a leading `~` is the home directory, a relative path is taken from
 * the working directory. Undefined when the variable is unset or blank.
 */
function configuredDir(
  value: string | undefined,
  homedir: string,
  platform: NodeJS.Platform,
  cwd: string,
): string | undefined {
  const configured = value?.trim();
  if (configured === undefined || configured === "") return undefined;
  const p = pathFor(platform);
  const expanded =
    configured === "~" || configured.startsWith("~/") || (platform === "win32" && configured.startsWith("~\\"))
      ? p.join(homedir, configured.slice(1))
      : configured;
  return p.resolve(cwd, expanded);
}

/**
 * The agent directory: `ORPHUS_CODING_AGENT_DIR` when set and non-empty (a leading `~` is the home directory,
 * a relative path is taken from the working directory), else `~/.orphus/agent`. Always absolute.
 */
export function resolveAgentDir(
  env: EnvLike = process.env,
  homedir: string = os.homedir(),
  platform: NodeJS.Platform = process.platform,
  cwd: string = process.cwd(),
): string {
  return (
    configuredDir(env[AGENT_DIR_ENV], homedir, platform, cwd) ?? pathFor(platform).join(homedir, ".orphus", "agent")
  );
}

/** A memory directory and where it came from. */
export interface ResolvedMemoryDir {
  /** Absolute path of the directory holding the store. */
  readonly dir: string;
  /** `ORPHUS_MEMORY_DIR`, `ORPHUS_CODING_AGENT_DIR` (its `memory` folder) or `default` (`~/.orphus/agent/memory`). */
  readonly source: typeof MEMORY_DIR_ENV | typeof AGENT_DIR_ENV | "default";
}

/**
 * The memory directory: `ORPHUS_MEMORY_DIR` when set and non-empty (expanded like the agent directory), else
 * `<agent dir>/memory` with the agent directory resolved by {@link resolveAgentDir}, so that a worktree and its main
 * checkout reach one store without configuration.
 */
export function resolveMemoryDir(
  env: EnvLike = process.env,
  homedir: string = os.homedir(),
  platform: NodeJS.Platform = process.platform,
  cwd: string = process.cwd(),
): ResolvedMemoryDir {
  const configured = configuredDir(env[MEMORY_DIR_ENV], homedir, platform, cwd);
  if (configured !== undefined) return { dir: configured, source: MEMORY_DIR_ENV };
  const agentDir = resolveAgentDir(env, homedir, platform, cwd);
  const source = (env[AGENT_DIR_ENV]?.trim() ?? "") === "" ? "default" : AGENT_DIR_ENV;
  return { dir: pathFor(platform).join(agentDir, MEMORY_DIR_NAME), source };
}
