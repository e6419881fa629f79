import { globalTimers, type Timers } from "@orphus/internal";

// The timers every package shares (setTimeout, clearTimeout), which the connection, the coalescer and the tool's wait
// schedule on; the client's own start-up also reads a clock, so its object carries `now()` beside them.
export type { TimerHandle, Timers } from "@orphus/internal";

/** The shared timers plus the clock the client's start-up measures its deadlines with; injected so tests drive time. */
export interface ClientTimers extends Timers {
  now(): number;
}

/**
 * The real timers and clock, looked up on every call rather than captured at import, so vitest's fake timers (which
 * replace the globals) drive them too.
 */
export const systemTimers: ClientTimers = {
  setTimeout: globalTimers.setTimeout,
  clearTimeout: globalTimers.clearTimeout,
  now: () => Date.now(),
};

/** Resolves after `ms` on the given timers. */
export function sleep(timers: Timers, ms: number): Promise<void> {
  return new Promise((resolve) => timers.setTimeout(resolve, ms));
}

/**
 * A pause with jitter: `delayMs` scaled by a factor from one half to one, drawn from `random` (in [0, 1)), so a
 * crowd that failed together does not retry in step.
 */
export function jittered(delayMs: number, random: () => number = Math.random): number {
  return Math.max(1, Math.round(delayMs * (0.5 + random() / 2)));
}
