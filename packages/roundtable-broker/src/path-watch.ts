import type { BrokerTimers, TimerHandle } from "./options.js";
import { describeEntry, isSameSocket, lstatOrUndefined, type SocketIdentity } from "./socket-file.js";

/** Pause before the check that confirms a miss: far longer than a reclaim's move aside, far shorter than a check. */
const CONFIRM_AFTER_MS = 100;

/** Options of {@link watchSocketPath}. */
export interface SocketPathWatchOptions {
  readonly socketPath: string;
  /** The broker's own socket, as claimed. */
  readonly identity: SocketIdentity;
  readonly timers: BrokerTimers;
  /** Pause between checks. */
  readonly everyMs: number;
  /** Called once, when two checks in a row found the path naming something else; `found` says what. */
  readonly onLost: (found: string) => void;
}

/**
 * Checks every `everyMs` that `socketPath` still names this broker's own socket. A broker whose path was taken (a
 * reclaim race, a hand that removed the file) serves nobody new and holds rooms nobody can reach; once told, it
 * closes, so its clients see their connection end rather than talk on, cut off from the fleet. A miss is confirmed
 * by a second check shortly after, because a reclaiming rival moves a live socket aside for a few microseconds
 * before putting it back. Returns the function that stops the watch.
 */
export function watchSocketPath(options: SocketPathWatchOptions): () => void {
  const { socketPath, identity, timers, everyMs, onLost } = options;
  let timer: TimerHandle | undefined;
  let misses = 0;
  let stopped = false;
  const check = (): void => {
    timer = undefined;
    if (stopped) return;
    let found: string | undefined;
    try {
      const stats = lstatOrUndefined(socketPath);
      found = isSameSocket(stats, identity) ? undefined : describeEntry(stats);
    } catch (error) {
      // The directory itself became unreadable: the path no longer reaches this broker either.
      found = `an unreadable path (${(error as Error).message})`;
    }
    misses = found === undefined ? 0 : misses + 1;
    if (found !== undefined && misses >= 2) {
      stopped = true;
      onLost(found);
      return;
    }
    timer = timers.setTimeout(check, misses === 0 ? everyMs : Math.min(everyMs, CONFIRM_AFTER_MS));
  };
  timer = timers.setTimeout(check, everyMs);
  return () => {
    stopped = true;
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
  };
}
