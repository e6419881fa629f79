// Waiting on what a test cannot hear of directly: a real process that exits, a socket file that appears, a store
// that answers again. The wait ends when the condition holds; the deadline is a hang guard that names what never
// happened, never a pass condition. Where the code under test runs on injected timers, a test drives them instead
// (manual-timers.ts), and where an event says a thing happened, a test waits for that event.

/** Options of {@link eventually} and {@link until}. */
export interface PollOptions {
  /** The hang guard: give up after this long. Default {@link POLL_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** Pause between two looks. Default 10 ms. */
  readonly everyMs?: number;
  /** What is waited for, for the message of a wait that gives up. */
  readonly what?: string;
}

/** The default hang guard: under the suites' 30 s test timeout, so a wait that gives up says what it waited for. */
export const POLL_TIMEOUT_MS = 20_000;

/** One look: done with a value, or not yet, with why not. What a look throws ends the wait at once. */
type Look<T> = { readonly done: true; readonly value: T } | { readonly done: false; readonly why: unknown };

/** The one wait loop: looks every `everyMs` until a look is done, and throws why not once `timeoutMs` has passed. */
async function poll<T>(look: () => Promise<Look<T>>, options: PollOptions): Promise<T> {
  const { timeoutMs = POLL_TIMEOUT_MS, everyMs = 10, what } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = await look();
    if (seen.done) return seen.value;
    if (Date.now() > deadline) {
      const why = seen.why instanceof Error ? seen.why.message : String(seen.why);
      throw new Error(`${what ?? "waiting"}: still not so after ${timeoutMs} ms (${why})`, { cause: seen.why });
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Runs `attempt` until it returns without throwing, and resolves with what it returned; after `timeoutMs` it throws,
 * naming `what` and the attempt's last error.
 */
export function eventually<T>(attempt: () => T | Promise<T>, options: PollOptions = {}): Promise<T> {
  return poll(async () => {
    try {
      return { done: true, value: await attempt() };
    } catch (error) {
      return { done: false, why: error };
    }
  }, options);
}

/**
 * Resolves once `condition` holds, looking again every `everyMs`; throws after `timeoutMs`. What the condition
 * throws fails the wait at once.
 */
export function until(condition: () => boolean | Promise<boolean>, options: PollOptions = {}): Promise<void> {
  const why = `still false: ${condition.toString().slice(0, 200)}`;
  return poll(async () => ((await condition()) ? { done: true, value: undefined } : { done: false, why }), options);
}
