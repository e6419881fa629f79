// The timers a package schedules on, injected so that tests decide when time passes. The broker, the client and the
// Orkeon crew adapter each declared the same two methods; this is the one declaration. A public option type names it,
// so each package's build inlines it into its .d.ts (tsup.base.ts), which therefore stays free of this package.

/** Opaque handle of a scheduled timer, as the injected timers return it. */
export type TimerHandle = unknown;

/** Timers injected where a package waits, so tests decide when time passes. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/**
 * The global setTimeout and clearTimeout, looked up on every call rather than captured at import, so vitest's fake
 * timers (which replace the globals) drive them too.
 */
export const globalTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};
