import { randomBytes } from "node:crypto";
import { linkSync, renameSync, unlinkSync } from "node:fs";
import * as path from "node:path";
import { isSameSocket, lstatOrUndefined, type SocketIdentity } from "./socket-file.js";

/**
 * Points in a claim where another broker may act, for tests that force an interleaving. A hook may wait (a
 * promise) while the test starts or runs a rival; no hook runs unless given, and without hooks the reclaim runs
 * synchronously from the move to the decision.
 */
export interface ClaimHooks {
  /** After a probe found the socket file stale, before it is moved aside. */
  readonly beforeReclaim?: () => Promise<void> | void;
  /** After the file at the path was moved aside, before it is compared with what the probe found. */
  readonly afterMoveAside?: () => Promise<void> | void;
}

/** What {@link reclaimStaleSocket} did. */
export type ReclaimOutcome =
  /** The stale file was removed. */
  | "reclaimed"
  /** Something else had taken the path since the probe; it was put back. */
  | "changed"
  /** Nothing was there any more (another broker removed it). */
  | "gone";

/**
 * Removes the stale socket file a probe found at `socketPath`, safely against any interleaving of brokers doing the
 * same. Checking the path and then unlinking it is not safe: between the two a rival can reclaim the file and link
 * its own live socket, and the unlink then takes the rival's path away (a live broker nobody can reach). So the
 * file is first moved aside, atomically, to a private name; what was moved is then compared with what the probe
 * found, and only that is removed. Anything else (a rival's live socket) is put back at once.
 *
 * Putting back can meet a third broker that found the path empty in the moment it was aside and linked its own
 * socket there. The moved socket was there first and may have sessions, so it gets the path back, replacing the
 * newcomer's link; the newcomer's path watch then finds it no longer owns the path and it exits within seconds,
 * having been reachable for microseconds at most.
 */
export async function reclaimStaleSocket(
  socketPath: string,
  probed: SocketIdentity,
  hooks: ClaimHooks = {},
): Promise<ReclaimOutcome> {
  const aside = path.join(path.dirname(socketPath), `.stale-${randomBytes(4).toString("hex")}.sk`);
  try {
    renameSync(socketPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    throw error;
  }
  if (hooks.afterMoveAside !== undefined) await hooks.afterMoveAside();
  if (isSameSocket(lstatOrUndefined(aside), probed)) {
    unlinkSync(aside);
    return "reclaimed";
  }
  putBack(aside, socketPath);
  return "changed";
}

/** Returns a moved-aside socket to its path; see {@link reclaimStaleSocket} for a path taken in the meantime. */
function putBack(aside: string, socketPath: string): void {
  try {
    linkSync(aside, socketPath);
    unlinkSync(aside);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  // Only a socket (a newcomer's) is replaced; anything else that appeared is left, and the moved socket's broker,
  // now without a path, exits by its path watch.
  const now = lstatOrUndefined(socketPath);
  if (now === undefined || now.isSocket()) renameSync(aside, socketPath);
  else unlinkSync(aside);
}
