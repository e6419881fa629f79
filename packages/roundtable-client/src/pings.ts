import { MAX_PING_AUTHORS, MAX_PING_ROOMS, PING_MAX_DELAY_MS, PING_WINDOW_MS } from "./limits.js";
import { ClientOptionError } from "./errors.js";
import { sanitizeText } from "@orphus/digest";
import { MAX_POSTS_PER_EVENT } from "@orphus/roundtable-protocol";
import { shownName } from "./shown.js";
import { systemTimers, type TimerHandle, type Timers } from "./timers.js";

/**
 * What the coalescer reads of a broker event: a post event carries an author and a sequence number above 0; a posts
 * event (several posts of one room merged into one frame) lists them, posts in a row by one author as one entry
 * with a count.
 */
export interface ActivityEventLike {
  readonly event: string;
  readonly room: string;
  readonly seq?: number;
  readonly author?: string;
  readonly posts?: readonly { readonly seq: number; readonly author: string; readonly count?: number | undefined }[];
}

/** Activity in one room during one quiet period: a count and who wrote, never a body. */
export interface RoomActivity {
  readonly room: string;
  /** Messages posted to the room during the period. */
  readonly count: number;
  /** Authors named, most active first (ties by name), at most {@link MAX_PING_AUTHORS}. */
  readonly authors: readonly string[];
  /** Further distinct authors, counted rather than named. */
  readonly otherAuthors: number;
  /**
   * The newest seq the notice counts in the room, so a host that holds a notice back can tell whether something
   * reported it meanwhile (`RoundtableClient.reportedThrough`). Absent in a notice built elsewhere.
   */
  readonly throughSeq?: number;
}

/** One coalesced activity notice: what arrives unasked, per quiet period. */
export interface ActivityNotice {
  /** Rooms named, by name, at most {@link MAX_PING_ROOMS}. */
  readonly rooms: readonly RoomActivity[];
  /** Messages in rooms past the named ones, counted only. */
  readonly otherMessages: number;
  /** Every message the notice counts. */
  readonly total: number;
}

/** Options of {@link ActivityCoalescer}. */
export interface ActivityCoalescerOptions {
  /** Receives one notice per quiet period. */
  readonly onNotice: (notice: ActivityNotice) => void;
  /** Quiet period closing a notice; default {@link PING_WINDOW_MS}. */
  readonly windowMs?: number;
  /** Longest a notice is held while events keep coming; default {@link PING_MAX_DELAY_MS}. */
  readonly maxDelayMs?: number;
  /** Posts by this role are not counted: nobody needs a ping about their own message. */
  readonly ignoreAuthor?: string;
  readonly timers?: Timers;
}

/** Authors tracked per room; the broker's member limit keeps real rooms far below it. */
const MAX_TRACKED_AUTHORS = 64;

/**
 * Runs of posts kept one by one per room, so that a report (a wait's answer) can take exactly the posts it covered
 * out of a pending notice; older runs past it are folded into one tally, which a report takes out only whole.
 */
const MAX_TRACKED_RUNS = 256;

/** Rooms whose reported high-water mark is kept; the broker's room limit keeps real fleets far below it. */
const MAX_REPORTED_ROOMS = 256;

/** Posts in a row by one author: seq, seq + 1, ..., seq + count - 1. */
interface Run {
  seq: number;
  readonly author: string;
  count: number;
}

/** Posts folded out of the runs: counted and attributed, their seqs known only as a whole (through `throughSeq`). */
interface Folded {
  count: number;
  readonly authors: Map<string, number>;
  throughSeq: number;
}

/** What one room's pending notice counts: its runs, newest last, and what was folded out of them. */
interface RoomTally {
  runs: Run[];
  folded: Folded | undefined;
}

/** Adds `posts` posts by `author` to an author tally of at most MAX_TRACKED_AUTHORS authors. */
function tallyAuthor(authors: Map<string, number>, author: string, posts: number): void {
  const seen = authors.get(author);
  if (seen !== undefined) authors.set(author, seen + posts);
  else if (authors.size < MAX_TRACKED_AUTHORS) authors.set(author, posts);
}

/** The last seq of a run. */
function runEnd(run: Run): number {
  return run.seq + run.count - 1;
}

function checkDelay(option: string, value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 3_600_000) {
    throw new ClientOptionError(option, "an integer number of milliseconds from 1 to 3600000", value);
  }
  return value;
}

/**
 * Coalesces broker events into activity notices: one per quiet period of `windowMs`, per room a count and the
 * authors, never a body. Sequence-0 events (membership churn) are dropped before counting, so they can never pass
 * for content. A notice is also closed after `maxDelayMs` of continuous activity, so a busy room still pings.
 */
export class ActivityCoalescer {
  readonly #onNotice: (notice: ActivityNotice) => void;
  readonly #windowMs: number;
  readonly #maxDelayMs: number;
  readonly #ignoreAuthor: string | undefined;
  readonly #timers: Timers;
  #tallies = new Map<string, RoomTally>();
  /** Per room, the newest seq reported another way (a wait's answer): posts up to it are never counted. */
  readonly #reported = new Map<string, number>();
  #otherMessages = 0;
  #quietTimer: TimerHandle | undefined;
  #maxTimer: TimerHandle | undefined;
  #disposed = false;

  constructor(options: ActivityCoalescerOptions) {
    this.#onNotice = options.onNotice;
    this.#windowMs = checkDelay("windowMs", options.windowMs ?? PING_WINDOW_MS);
    this.#maxDelayMs = checkDelay("maxDelayMs", options.maxDelayMs ?? PING_MAX_DELAY_MS);
    this.#ignoreAuthor = options.ignoreAuthor;
    this.#timers = options.timers ?? systemTimers;
  }

  /** Messages counted and not yet delivered in a notice. */
  get pending(): number {
    let total = this.#otherMessages;
    for (const tally of this.#tallies.values()) total += tallyCount(tally);
    return total;
  }

  /**
   * Says that the posts of `room` up to `throughSeq` reached the reader another way (a wait's answer names the
   * room's unread posts): a pending notice leaves them out, and their events are not counted if they come later.
   * Only a higher seq moves the mark. Posts of rooms past the {@link MAX_PING_ROOMS} named ones are counted only,
   * and stay in the notice.
   */
  markReported(room: string, throughSeq: number): void {
    if (this.#disposed || !Number.isSafeInteger(throughSeq) || throughSeq < 1) return;
    const mark = Math.max(this.#reported.get(room) ?? 0, throughSeq);
    // Newest last, so the mark that goes when the map is full is the one set longest ago.
    this.#reported.delete(room);
    this.#reported.set(room, mark);
    if (this.#reported.size > MAX_REPORTED_ROOMS) this.#reported.delete(this.#reported.keys().next().value as string);
    const tally = this.#tallies.get(room);
    if (tally === undefined) return;
    if (tally.folded !== undefined && tally.folded.throughSeq <= mark) tally.folded = undefined;
    tally.runs = tally.runs.flatMap((run) => {
      if (runEnd(run) <= mark) return [];
      if (run.seq > mark) return [run];
      return [{ seq: mark + 1, author: run.author, count: runEnd(run) - mark }];
    });
    if (tallyCount(tally) > 0) return;
    this.#tallies.delete(room);
    if (this.#tallies.size === 0 && this.#otherMessages === 0) this.#clearTimers();
  }

  /** The newest seq of `room` reported another way ({@link ActivityCoalescer.markReported}), if any. */
  reportedThrough(room: string): number | undefined {
    return this.#reported.get(room);
  }

  /** Forgets every reported mark: the seqs they name belong to a broker that is gone (a new one numbers from 1). */
  forgetReported(): void {
    this.#reported.clear();
  }

  /**
   * Counts the posts an event announces, one for a post event and each listed one for a posts event; returns
   * whether any counted (false for churn, own posts, other events, after dispose).
   */
  push(event: ActivityEventLike): boolean {
    if (this.#disposed) return false;
    let counted = false;
    if (event.event === "post") {
      if (event.seq !== undefined && event.author !== undefined)
        counted = this.#count(event.room, event.seq, event.author);
    } else if (event.event === "posts") {
      for (const post of event.posts ?? []) {
        counted = this.#count(event.room, post.seq, post.author, listedCount(post.count)) || counted;
      }
    }
    if (!counted) return false;
    if (this.#maxTimer === undefined) this.#maxTimer = this.#timers.setTimeout(() => this.flush(), this.#maxDelayMs);
    if (this.#quietTimer !== undefined) this.#timers.clearTimeout(this.#quietTimer);
    this.#quietTimer = this.#timers.setTimeout(() => this.flush(), this.#windowMs);
    return true;
  }

  /**
   * Counts `posts` posts in a row by `author` from `seq`; false when they are no content (seq 0), the ignored
   * author's own, or reported already (up to the room's mark).
   */
  #count(room: string, seq: number, author: string, posts = 1): boolean {
    if (seq === 0 || author === this.#ignoreAuthor) return false;
    const mark = this.#reported.get(room) ?? 0;
    const end = seq + posts - 1;
    if (end <= mark) return false;
    const first = Math.max(seq, mark + 1);
    const counted = end - first + 1;
    let tally = this.#tallies.get(room);
    if (tally === undefined && this.#tallies.size >= MAX_PING_ROOMS) {
      this.#otherMessages += counted;
      return true;
    }
    if (tally === undefined) {
      tally = { runs: [], folded: undefined };
      this.#tallies.set(room, tally);
    }
    const last = tally.runs.at(-1);
    if (last !== undefined && last.author === author && runEnd(last) + 1 === first) {
      last.count += counted;
      return true;
    }
    tally.runs.push({ seq: first, author, count: counted });
    if (tally.runs.length > MAX_TRACKED_RUNS) fold(tally, tally.runs.shift() as Run);
    return true;
  }

  /** Delivers what is pending now, without waiting for the quiet period; returns the notice, if there was one. */
  flush(): ActivityNotice | undefined {
    this.#clearTimers();
    if (this.#tallies.size === 0 && this.#otherMessages === 0) return undefined;
    const rooms = [...this.#tallies]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([room, tally]): RoomActivity => {
        const ranked = [...tallyAuthors(tally)].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
        const authors = ranked.slice(0, MAX_PING_AUTHORS).map(([author]) => author);
        return {
          room,
          count: tallyCount(tally),
          authors,
          otherAuthors: ranked.length - authors.length,
          throughSeq: tallyThroughSeq(tally),
        };
      });
    const notice: ActivityNotice = {
      rooms,
      otherMessages: this.#otherMessages,
      total: rooms.reduce((sum, room) => sum + room.count, this.#otherMessages),
    };
    this.#tallies = new Map();
    this.#otherMessages = 0;
    this.#onNotice(notice);
    return notice;
  }

  /** Drops whatever is pending and stops counting; pending timers are cleared. */
  dispose(): void {
    this.#disposed = true;
    this.#clearTimers();
    this.#tallies = new Map();
    this.#otherMessages = 0;
  }

  #clearTimers(): void {
    if (this.#quietTimer !== undefined) this.#timers.clearTimeout(this.#quietTimer);
    if (this.#maxTimer !== undefined) this.#timers.clearTimeout(this.#maxTimer);
    this.#quietTimer = undefined;
    this.#maxTimer = undefined;
  }
}

/** Moves the oldest run into the folded tally of its room. */
function fold(tally: RoomTally, run: Run): void {
  tally.folded ??= { count: 0, authors: new Map(), throughSeq: 0 };
  tally.folded.count += run.count;
  tally.folded.throughSeq = Math.max(tally.folded.throughSeq, runEnd(run));
  tallyAuthor(tally.folded.authors, run.author, run.count);
}

/** Posts a room's tally counts. */
function tallyCount(tally: RoomTally): number {
  return tally.runs.reduce((sum, run) => sum + run.count, tally.folded?.count ?? 0);
}

/** Posts per author in a room's tally, at most MAX_TRACKED_AUTHORS authors. */
function tallyAuthors(tally: RoomTally): Map<string, number> {
  const authors = new Map(tally.folded?.authors);
  for (const run of tally.runs) tallyAuthor(authors, run.author, run.count);
  return authors;
}

/** The newest seq a room's tally counts. */
function tallyThroughSeq(tally: RoomTally): number {
  return tally.runs.reduce((newest, run) => Math.max(newest, runEnd(run)), tally.folded?.throughSeq ?? 0);
}

/** `3 new` / `1 new`. */
function countText(count: number): string {
  return `${count} new`;
}

/**
 * Renders a notice as one line, e.g.
 * `[roundtable] design: 3 new from critic, reviewer · ops: 1 new from planner — digest to read`. Room and author
 * names are escaped (escapeIdentity: one token each, at most 64 characters, nothing invisible dropped) and the line
 * passes sanitizeText, so it is at most {@link MAX_PING_LINE_CHARS} characters and one line whatever peers are named.
 */
export function renderActivityNotice(notice: ActivityNotice): string {
  const parts = notice.rooms.slice(0, MAX_PING_ROOMS).map((room) => {
    const named = room.authors.slice(0, MAX_PING_AUTHORS);
    const otherAuthors = room.otherAuthors + room.authors.length - named.length;
    const others = otherAuthors > 0 ? ` and ${otherAuthors} other${otherAuthors === 1 ? "" : "s"}` : "";
    return `${shownName(room.room)}: ${countText(room.count)} from ${named.map(shownName).join(", ")}${others}`;
  });
  const otherMessages = notice.rooms
    .slice(MAX_PING_ROOMS)
    .reduce((sum, room) => sum + room.count, notice.otherMessages);
  if (otherMessages > 0) parts.push(`${countText(otherMessages)} in other rooms`);
  return sanitizeText(`[roundtable] ${parts.join(" · ")} — digest to read`);
}

/** Posts a listed entry stands for: its count, read as one unless a whole number from 2 to MAX_POSTS_PER_EVENT. */
function listedCount(count: number | undefined): number {
  return count !== undefined && Number.isInteger(count) && count > 1 ? Math.min(count, MAX_POSTS_PER_EVENT) : 1;
}
