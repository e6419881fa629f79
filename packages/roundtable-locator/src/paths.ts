import { createHash } from "node:crypto";
import * as path from "node:path";
import { AGENT_DIR_ENV } from "@orphus/agent-env";
import { SocketPathTooLongError } from "./errors.js";
import { BSD_SOCKET_PATH_LIMIT, LINUX_SOCKET_PATH_LIMIT } from "./limits.js";

// The agent directory itself is resolved by @orphus/agent-env (resolveAgentDir), the one function the broker, its
// clients and the memory store share; everything here is a path under it.

/** Folder under the agent directory holding the socket, the pid file and the log. */
export const BROKER_DIR_NAME = "roundtable";

/** File name of the socket inside the broker folder (not used on Windows, which has named pipes). */
export const SOCKET_FILE_NAME = "broker.sock";

/** File name of the diagnostic pid file; never read as a lock. */
export const PID_FILE_NAME = "broker.pid";

/** File name of the bin's log. */
export const LOG_FILE_NAME = "broker.log";

/** Prefix of the Windows named pipe; the rest is a hash of the agent directory. */
export const WINDOWS_PIPE_PREFIX = "\\\\.\\pipe\\orphus-roundtable-";

function pathFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === "win32" ? path.win32 : path.posix;
}

/** The folder holding the socket (not on Windows), the pid file and the log: `<agentDir>/roundtable`. */
export function brokerDir(agentDir: string, platform: NodeJS.Platform = process.platform): string {
  return pathFor(platform).join(agentDir, BROKER_DIR_NAME);
}

/**
 * Where the broker of `agentDir` listens: `<agentDir>/roundtable/broker.sock`, or on Windows the named pipe
 * `\\.\pipe\orphus-roundtable-<hash>`, the hash taken over the normalised, case-folded directory (Windows paths
 * are case-insensitive, so two spellings of one directory reach one broker).
 */
export function brokerSocketPath(agentDir: string, platform: NodeJS.Platform = process.platform): string {
  if (platform !== "win32") return path.posix.join(agentDir, BROKER_DIR_NAME, SOCKET_FILE_NAME);
  const normalised = path.win32
    .resolve(agentDir)
    .replace(/[\\/]+$/, "")
    .toLowerCase();
  const hash = createHash("sha256").update(normalised, "utf8").digest("hex").slice(0, 16);
  return `${WINDOWS_PIPE_PREFIX}${hash}`;
}

/** The diagnostic pid file: `<agentDir>/roundtable/broker.pid`. */
export function brokerPidPath(agentDir: string, platform: NodeJS.Platform = process.platform): string {
  return pathFor(platform).join(brokerDir(agentDir, platform), PID_FILE_NAME);
}

/** The bin's log file, beside the socket: `<agentDir>/roundtable/broker.log`. */
export function brokerLogPath(agentDir: string, platform: NodeJS.Platform = process.platform): string {
  return pathFor(platform).join(brokerDir(agentDir, platform), LOG_FILE_NAME);
}

/**
 * The platform's Unix socket path limit in bytes, counting the terminating NUL (`sizeof sun_path`); undefined on
 * Windows, whose pipe names here are short and fixed in length.
 */
export function socketPathLimit(platform: NodeJS.Platform = process.platform): number | undefined {
  if (platform === "win32") return undefined;
  return platform === "linux" || platform === "android" ? LINUX_SOCKET_PATH_LIMIT : BSD_SOCKET_PATH_LIMIT;
}

/**
 * Throws SocketPathTooLongError when `socketPath` does not fit the platform's `sun_path`. Node would otherwise
 * truncate it silently or fail with a cryptic EINVAL or EADDRINUSE. `setting` is what the user set the agent
 * directory with (`--agent-dir`, a variable, or "default"), so the advice names what they can change; default
 * `AGENT_DIR_ENV` (of @orphus/agent-env).
 */
export function checkSocketPath(
  socketPath: string,
  platform: NodeJS.Platform = process.platform,
  setting: string = AGENT_DIR_ENV,
): void {
  const limit = socketPathLimit(platform);
  if (limit === undefined) return;
  const bytes = Buffer.byteLength(socketPath, "utf8");
  if (bytes >= limit) throw new SocketPathTooLongError(socketPath, bytes, limit, platform, setting);
}
