import {
  PING_WINDOW_MS,
  renderActivityNotice,
  systemTimers,
  type ActivityNotice,
  type TimerHandle,
  type ClientTimers,
} from "@orphus/roundtable-client";
import { MAX_PENDING_NOTES, PING_RECHECK_MS } from "../limits.js";
import { mergeActivityNotices, withoutReported } from "./merge.js";

/** What the `details` of a message this extension adds say about it (kept in the session file, never sent to a model). */
export type RoundtableMessageDetails = { readonly kind: "ping"; readonly total: number } | { readonly kind: "warning" };

/** The session an outlet writes into. */
export interface SessionOutletHost {
  /**
   * Adds one line to the session (pi's sendMessage): appended at once while the session is idle; during a run, queued
   * for the run's next model call (pi's "steer" delivery).
   */
  send(text: string, details: RoundtableMessageDetails): void;
  /** True while no run is going on. */
  isIdle(): boolean;
}

/** Options of {@link SessionOutlet}. */
export interface SessionOutletOptions {
  readonly host: SessionOutletHost;
  /** Least time between two ping lines: the client's coalescing window; default PING_WINDOW_MS. */
  readonly windowMs?: number;
  /** How often a waiting line looks again for a safe point while the session is busy; default PING_RECHECK_MS. */
  readonly recheckMs?: number;
  /**
   * The newest seq of a room reported to the model another way (the client's `reportedThrough`: a wait's answer):
   * a held ping leaves out the rooms it covered, so no line repeats what a wait said. Default: nothing reported.
   */
  readonly reportedThrough?: (room: string) => number | undefined;
  readonly timers?: ClientTimers;
}

/**
 * Puts the extension's lines (coalesced activity pings, the one-time role warning) into a pi session at points where
 * they interrupt nothing, and never more than one ping line per coalescing window.
 *
 * A line enters when the session is idle (appended to the transcript), or right after a tool call of a run finished
 * (a run that called tools goes on to another model call, and the line is queued for it). A line arriving while a
 * model streams its last answer, or while a tool call runs, waits: a line queued then would make pi start one more
 * model call just for it, or would land in the middle of a batch. Pings that wait are folded into one line, and the
 * rooms a wait of the session reported meanwhile are left out of it.
 */
export class SessionOutlet {
  readonly #host: SessionOutletHost;
  readonly #windowMs: number;
  readonly #recheckMs: number;
  readonly #reportedThrough: (room: string) => number | undefined;
  readonly #timers: ClientTimers;
  #parked: ActivityNotice | undefined;
  #notes: string[] = [];
  #lastPingAt = Number.NEGATIVE_INFINITY;
  #timer: TimerHandle | undefined;
  #pings = 0;
  #disposed = false;

  constructor(options: SessionOutletOptions) {
    this.#host = options.host;
    this.#windowMs = options.windowMs ?? PING_WINDOW_MS;
    this.#recheckMs = options.recheckMs ?? PING_RECHECK_MS;
    this.#reportedThrough = options.reportedThrough ?? (() => undefined);
    this.#timers = options.timers ?? systemTimers;
  }

  /** Ping lines delivered so far. */
  get pingsDelivered(): number {
    return this.#pings;
  }

  /** True while a ping or a note waits for a safe point. */
  get pending(): boolean {
    return this.#parked !== undefined || this.#notes.length > 0;
  }

  /** Takes a coalesced notice; it enters the session at the next safe point, folded with any still waiting. */
  ping(notice: ActivityNotice): void {
    if (this.#disposed) return;
    this.#parked = this.#parked === undefined ? notice : mergeActivityNotices(this.#parked, notice);
    this.#attempt(false);
  }

  /** Takes a one-off line (not a ping, so no window applies); it enters at the next safe point. */
  note(text: string): void {
    if (this.#disposed || this.#notes.length >= MAX_PENDING_NOTES) return;
    this.#notes.push(text);
    this.#attempt(false);
  }

  /** Says a tool call of the running turn just finished: a safe point, since the run calls the model again. */
  toolFinished(): void {
    this.#attempt(true);
  }

  /** Drops whatever waits and stops; later calls do nothing. */
  dispose(): void {
    this.#disposed = true;
    this.#clearTimer();
    this.#parked = undefined;
    this.#notes = [];
  }

  #attempt(afterTool: boolean): void {
    if (this.#disposed) return;
    this.#clearTimer();
    if (!this.pending) return;
    try {
      if (!afterTool && !this.#host.isIdle()) return this.#arm(this.#recheckMs);
      for (const note of this.#notes.splice(0)) this.#host.send(note, { kind: "warning" });
      // Rooms a wait reported while the ping was held are no news any more.
      const parked = this.#parked === undefined ? undefined : withoutReported(this.#parked, this.#reportedThrough);
      this.#parked = parked;
      if (parked === undefined) return;
      const wait = this.#lastPingAt + this.#windowMs - this.#timers.now();
      if (wait > 0) return this.#arm(wait);
      this.#parked = undefined;
      this.#lastPingAt = this.#timers.now();
      this.#pings++;
      this.#host.send(renderActivityNotice(parked), { kind: "ping", total: parked.total });
    } catch {
      // The session is gone (pi refuses a stale context): nothing left to write into.
      this.dispose();
    }
  }

  #arm(ms: number): void {
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = undefined;
      this.#attempt(false);
    }, ms);
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
