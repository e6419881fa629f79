import { chmodSync, lstatSync, mkdirSync } from "node:fs";
import * as path from "node:path";

/**
 * Makes one directory; false when something is there already (another process may have made it a moment ago, and
 * what it is gets checked by the caller). ENOENT and the rest are thrown.
 */
function makeDirectory(dir: string, mode: number): boolean {
  try {
    mkdirSync(dir, { mode });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/**
 * Creates `dir` and any missing parents one level at a time, so a failure carries its true cause: Node's recursive
 * mkdir reports ENOENT where the file system is read-only (EROFS). Every level tolerates EEXIST, the parents'
 * retry included: sessions starting together make the same fresh directories at once, and whichever makes a level
 * first, the others go on (a parent that is not a directory then fails the next level with ENOTDIR).
 */
function makeDirectories(dir: string, mode: number): void {
  try {
    makeDirectory(dir, mode);
  } catch (error) {
    const parent = path.dirname(dir);
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" || parent === dir) throw error;
    makeDirectories(parent, mode);
    makeDirectory(dir, mode);
  }
}

/**
 * Creates `dir` private to the user (0700), tightening an existing one that is open to others. Idempotent under
 * races: many processes may make the same directory at once, and each then checks what is there. `fail`
 * makes the error thrown when it cannot be created, is not a directory, or belongs to another user (whose directory
 * this user must not take over).
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
