// Processes a test started or met (brokers, drivers, bins): whether one still runs, and waiting for it to end.
import { readFileSync } from "node:fs";
import { until, type PollOptions } from "./poll.js";

/** The state letter of /proc/<pid>/stat (R, S, Z, ...), or undefined where it cannot be read (no /proc, no process). */
function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return undefined;
  }
}

/**
 * True while process `pid` runs: it exists, and is no zombie that nobody reaped yet (a detached broker's parent may
 * be gone, and pid 1 in a container may not reap).
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const state = processState(pid);
  return state !== "Z" && state !== "X";
}

/** Resolves once process `pid` has ended (see {@link alive}); the deadline is a hang guard. */
export function gone(pid: number, options: PollOptions = {}): Promise<void> {
  return until(() => !alive(pid), { everyMs: 20, what: `process ${pid} ends`, ...options });
}
