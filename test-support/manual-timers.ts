// Timers a test drives by hand, for code that takes injected timers: the client's, the coalescer's and the ping
// outlet's `timers`, the broker's, the crew's session read. Nothing fires until the test says so, so no test waits
// on the clock and a loaded machine changes nothing. They are the one `Timers` of @orphus/internal, which every
// package's timers option names (the broker's BrokerTimers, the client's and the crew's Timers), plus the clock the
// client's ClientTimers adds (`now`) and the test's own controls.
import type { Timers } from "@orphus/internal";

/** A timer scheduled and not yet fired or cleared. */
export interface PendingTimer {
  /** The delay it was scheduled with. */
  readonly ms: number;
  /** When it falls due on the manual clock. */
  readonly due: number;
}

/** Timers and a clock that move only when the test moves them. */
export interface ManualTimers extends Timers {
  /** The manual clock: where it started, plus every {@link ManualTimers.advance} since. */
  now(): number;
  /** The timers waiting, in the order they fall due. */
  pending(): PendingTimer[];
  /** Every delay asked for so far, in order, whether its timer fired, waits or was cleared. */
  asked(): number[];
  /**
   * Moves the clock on by `ms`, firing on the way every timer that falls due, in order, each with the clock at its due
   * time (and those they schedule, when they fall due in the same stretch). Returns how many fired.
   */
  advance(ms: number): number;
  /**
   * Fires now every waiting timer scheduled with a delay of `ms` (every waiting timer when `ms` is left out), whatever
   * its due time, without moving the clock: for a test that names the timer it means. Returns how many fired.
   */
  fire(ms?: number): number;
}

/** Options of {@link manualTimers}. */
export interface ManualTimersOptions {
  /** Where the clock starts. Default 0. */
  readonly start?: number;
  /**
   * Each timer runs in the next turn of the event loop, the clock jumping to its due time: for code that waits in a
   * loop (a backoff), which then runs through without a real wait while the test reads the delays from `asked`.
   * Default false: nothing runs until the test advances or fires.
   */
  readonly runAtOnce?: boolean;
}

/** Timers that move only when the test moves them (or, with `runAtOnce`, in the next turn). */
export function manualTimers(options: ManualTimersOptions = {}): ManualTimers {
  const waiting = new Map<number, { callback: () => void; ms: number; due: number }>();
  const asked: number[] = [];
  let clock = options.start ?? 0;
  let nextHandle = 1;
  /** The handles waiting, in the order they fall due (scheduling order among equals). */
  const inOrder = (): number[] =>
    [...waiting].sort(([a, x], [b, y]) => x.due - y.due || a - b).map(([handle]) => handle);
  const run = (handle: number): void => {
    const timer = waiting.get(handle);
    if (timer === undefined) return; // cleared by a timer that fired before it
    waiting.delete(handle);
    timer.callback();
  };
  const timers: ManualTimers = {
    setTimeout: (callback, ms) => {
      const handle = nextHandle++;
      const due = clock + ms;
      waiting.set(handle, { callback, ms, due });
      asked.push(ms);
      if (options.runAtOnce === true) {
        setImmediate(() => {
          if (waiting.has(handle)) timers.advance(Math.max(0, due - clock));
        });
      }
      return handle;
    },
    clearTimeout: (handle) => void waiting.delete(handle as number),
    now: () => clock,
    pending: () =>
      inOrder().map((handle) => {
        const { ms, due } = waiting.get(handle) as { ms: number; due: number };
        return { ms, due };
      }),
    asked: () => [...asked],
    advance: (ms) => {
      const until = clock + ms;
      let fired = 0;
      for (;;) {
        const [next] = inOrder();
        const timer = next === undefined ? undefined : waiting.get(next);
        if (next === undefined || timer === undefined || timer.due > until) break;
        clock = Math.max(clock, timer.due);
        run(next);
        fired++;
      }
      clock = until;
      return fired;
    },
    fire: (ms) => {
      const chosen = inOrder().filter((handle) => ms === undefined || waiting.get(handle)?.ms === ms);
      let fired = 0;
      for (const handle of chosen) {
        if (!waiting.has(handle)) continue;
        run(handle);
        fired++;
      }
      return fired;
    },
  };
  return timers;
}
