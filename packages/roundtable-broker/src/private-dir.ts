import { chmodSync, lstatSync, mkdirSync } from "node:fs";
import * as path from "node:path";
import { agentDirError } from "./agent-dir.js";
import { BrokerDirectoryError, type BrokerError } from "./errors.js";
import { brokerDir } from "./paths.js";

/**
 * Creates `dir` and any missing parents one level at a time, so a failure carries its true cause: Node's recursive
 * mkdir reports ENOENT where the file system is read-only (EROFS).
 */
function makeDirectories(dir: string, mode: number): void {
  try {
    mkdirSync(dir, { mode });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    const parent = path.dirname(dir);
    if (code !== "ENOENT" || parent === dir) throw error;
    makeDirectories(parent, mode);
    mkdirSync(dir, { mode });
  }
}

/**
 * Creates `dir` private to the user (0700), tightening an existing one that is open to others. `fail` makes the
 * error thrown when it cannot be created, is not a directory, or belongs to another user (whose directory this
 * user must not take over).
 */
export function ensurePrivateDir(dir: string, fail: (problem: string, cause?: unknown) => Error): void {
  try {
    makeDirectories(dir, 0o700);
  } catch (cause) {
    // EEXIST on a parent: something that is not a directory is there, which mkdir reports as ENOTDIR.
    throw fail((cause as Error).message, cause);
  }
  let stats;
  try {
    stats = lstatSync(dir);
  } catch (cause) {
    throw fail((cause as Error).message, cause);
  }
  if (!stats.isDirectory()) throw fail("it is not a directory");
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) {
    throw fail(`it belongs to uid ${stats.uid}, not to this user (uid ${uid})`);
  }
  if ((stats.mode & 0o077) === 0) return;
  try {
    chmodSync(dir, 0o700);
  } catch (cause) {
    throw fail((cause as Error).message, cause);
  }
}

/**
 * Creates the broker folder of `agentDir` (`<agentDir>/roundtable`) private to the user, as a broker needs it for
 * its socket, pid file and log, and as a client does before it starts one. Throws AgentDirReadOnlyError,
 * AgentDirPermissionError or AgentDirNotDirectoryError when the agent directory's file system says no, naming the
 * directory and what to do; BrokerDirectoryError when the folder is not a directory or belongs to another user.
 */
export function ensureBrokerDir(agentDir: string, platform: NodeJS.Platform = process.platform): void {
  const dir = brokerDir(agentDir, platform);
  ensurePrivateDir(
    dir,
    (problem, cause): BrokerError => agentDirError(agentDir, cause) ?? new BrokerDirectoryError(dir, problem, { cause })
  );
}
