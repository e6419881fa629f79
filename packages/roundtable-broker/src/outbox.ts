import type { PostRun } from "./post-run.js";

/** A connection with frames waiting for the end of the turn. */
export interface Flushable {
  flush(outbox: Outbox): void;
}

/**
 * Writes what each connection was sent in one turn of the event loop as one write, when the turn's work is done:
 * connections queue their frames and ask to be flushed, and one `process.nextTick` flushes them all. A tick runs
 * before the event loop moves on, so a reply leaves within the turn that produced it, never a turn later. (A
 * connection whose earlier write is still in flight may hold its events instead, until that write completes.)
 *
 * It also encodes each merged posts event once per turn: a post fanned out to N members queues the same run of
 * posts on each of their connections, so the frame the first one encoded serves the next that lists the same posts.
 */
export class Outbox {
  /**
   * Set while the broker serves a request that ends its socket's read: an event for a connection with nothing
   * queued or unsent is then written at once instead of at the end of the turn, since nothing else of that read can
   * join it. A post fanned out to many members reaches the first of them without waiting for the rest.
   */
  writesAtOnce = false;
  #waiting: Flushable[] = [];
  #scheduled = false;
  #lastRun: PostRun | undefined;
  #lastFrame: Buffer | undefined;

  /** Flushes `connection` at the end of this turn; call once per turn, when its first frame is queued. */
  schedule(connection: Flushable): void {
    this.#waiting.push(connection);
    if (this.#scheduled) return;
    this.#scheduled = true;
    process.nextTick(this.#flush);
  }

  /** The frame of `run`, reusing the one encoded last when it lists the same posts. */
  frameOf(run: PostRun): Buffer {
    if (this.#lastRun !== undefined && this.#lastFrame !== undefined && run.sameAs(this.#lastRun))
      return this.#lastFrame;
    const frame = run.encode();
    this.#lastRun = run;
    this.#lastFrame = frame;
    return frame;
  }

  readonly #flush = (): void => {
    this.#scheduled = false;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const connection of waiting) connection.flush(this);
    this.#lastRun = undefined;
    this.#lastFrame = undefined;
  };
}
