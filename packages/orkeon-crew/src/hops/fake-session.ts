import type { SessionContextPort, SessionContextRead } from "./context.js";

/**
 * An in-memory session for tests: every read answers the current context, or rejects with the failure set by
 * {@link FakeSessionContext.failWith}. Switch the mode mid-run with {@link FakeSessionContext.set}.
 */
export class FakeSessionContext implements SessionContextPort {
  #current: SessionContextRead;
  #failure: { readonly error: unknown } | undefined;
  /** How many reads were made. */
  reads = 0;

  constructor(initial: SessionContextRead) {
    this.#current = initial;
  }

  /** Later reads answer `context` (and stop failing). */
  set(context: SessionContextRead): this {
    this.#current = context;
    this.#failure = undefined;
    return this;
  }

  /** Later reads reject with `error`, until {@link FakeSessionContext.set}. */
  failWith(error: unknown): this {
    this.#failure = { error };
    return this;
  }

  async readPullRequestContext(): Promise<SessionContextRead> {
    this.reads++;
    if (this.#failure !== undefined) throw this.#failure.error;
    return this.#current;
  }
}
