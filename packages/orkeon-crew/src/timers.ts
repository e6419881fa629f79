import { globalTimers, type TimerHandle, type Timers } from "@orphus/internal";

// The timers the session read's timeout is scheduled on, injected so tests decide when time passes: the one interface
// every package shares.
export type { TimerHandle, Timers };

/**
 * The real timers, looked up on every call rather than captured at import, so vitest's fake timers (which replace
 * the globals) drive them too.
 */
export const crewSystemTimers: Timers = globalTimers;

/** Longest delay a Node timer holds; a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** How a bounded wait ended: with the promise's outcome, or at its deadline. */
export type Within<T> =
  | { readonly kind: "fulfilled"; readonly value: T }
  | { readonly kind: "rejected"; readonly error: unknown }
  | { readonly kind: "timed-out" };

/**
 * Waits for `start()` at most `ms` on `timers`, never rejecting. A promise that settles after its deadline changes
 * nothing, and its rejection is handled here, so it is never reported as unhandled.
 */
export function within<T>(start: () => PromiseLike<T>, ms: number, timers: Timers): Promise<Within<T>> {
  return new Promise((resolve) => {
    let handle: TimerHandle;
    const finish = (outcome: Within<T>): void => {
      timers.clearTimeout(handle);
      resolve(outcome);
    };
    handle = timers.setTimeout(() => resolve({ kind: "timed-out" }), ms);
    try {
      Promise.resolve(start()).then(
        (value) => finish({ kind: "fulfilled", value }),
        (error: unknown) => finish({ kind: "rejected", error }),
      );
    } catch (error) {
      finish({ kind: "rejected", error });
    }
  });
}
