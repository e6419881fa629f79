import { lstatSync, unlinkSync, type BigIntStats } from "node:fs";

/**
 * Which socket file a path held when it was looked at: device, inode and birth time. An inode number alone is not
 * enough for a file nobody holds open: file systems reuse a freed inode number at once, so a successor's socket can
 * carry a stale one's. The birth time tells them apart where the file system records one (0 where it does not).
 * The change time cannot serve: renaming a file changes it.
 */
export interface SocketIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly birthtimeNs: bigint;
}

/** The identity of the file `stats` describes. */
export function identityOf(stats: BigIntStats): SocketIdentity {
  return { dev: stats.dev, ino: stats.ino, birthtimeNs: stats.birthtimeNs };
}

/** lstat with bigint fields, or undefined when nothing is at `file`. */
export function lstatOrUndefined(file: string): BigIntStats | undefined {
  try {
    return lstatSync(file, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Whether `stats` is the socket `identity` names. Device and inode must match; so must the birth time when both
 * sides have one (a file system without birth times reports 0).
 */
export function isSameSocket(stats: BigIntStats | undefined, identity: SocketIdentity): boolean {
  if (stats === undefined || !stats.isSocket()) return false;
  if (stats.dev !== identity.dev || stats.ino !== identity.ino) return false;
  return stats.birthtimeNs === 0n || identity.birthtimeNs === 0n || stats.birthtimeNs === identity.birthtimeNs;
}

/** Names what sits at a path, for errors and logs. */
export function describeEntry(stats: BigIntStats | undefined): string {
  if (stats === undefined) return "nothing";
  if (stats.isSocket()) return `a socket (inode ${stats.ino})`;
  if (stats.isFile()) return "a regular file";
  if (stats.isDirectory()) return "a directory";
  if (stats.isSymbolicLink()) return "a symbolic link";
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  return "a device or other special file";
}

/**
 * Removes the socket file at `socketPath` only when it is still this broker's own socket; returns whether it did.
 * Called while the broker's server still holds its socket, so the inode cannot have been freed and reused.
 */
export function releaseSocket(socketPath: string, identity: SocketIdentity | undefined): boolean {
  if (identity === undefined || !isSameSocket(lstatOrUndefined(socketPath), identity)) return false;
  try {
    unlinkSync(socketPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}
