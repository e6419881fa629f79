/** Opaque handle of a scheduled timer. */
export type TimerHandle = unknown;

/** The clock and timers the client, the coalescer and the spawner use; injected so tests drive time. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  now(): number;
}

/**
 * The real timers, looked up on every call rather than captured at import, so vitest's fake timers (which replace
 * the globals) drive them too.
 */
export const systemTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
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
