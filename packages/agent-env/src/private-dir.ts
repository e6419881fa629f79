import { chmodSync, lstatSync, mkdirSync } from "node:fs";

/**
 * Creates `dir` private to the user (0700), tightening an existing one that is open to others. `fail` makes the
 * error thrown when it cannot be created, is not a directory, or belongs to another user (whose directory this
 * user must not take over).
 */
export function ensurePrivateDir(dir: string, fail: (problem: string, cause?: unknown) => Error): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (cause) {
    // EEXIST: something that is not a directory is there, which the check below names.
    if ((cause as NodeJS.ErrnoException).code !== "EEXIST") throw fail((cause as Error).message, cause);
  }
  const stats = lstatSync(dir);
  if (!stats.isDirectory()) throw fail("it is not a directory");
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) {
    throw fail(`it belongs to uid ${stats.uid}, not to this user (uid ${uid})`);
  }
  if ((stats.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}
