import { FRAME_HEADER_BYTES, joinFrames } from "@orphus/framing";
import { MAX_POSTS_PER_EVENT } from "@orphus/roundtable-protocol";
import type { PostNotice } from "./event-notice.js";

/** `,"count":2`: what an entry gains when it first stands for two posts. */
const FIRST_COUNT_BYTES = ',"count":2'.length;

/** What {@link PostRun.add} answers when the run is full: the post opens the next run. */
export const RUN_FULL = -1;

/** One entry of a merged posts event: a post, and how many posts in a row by its author it stands for. */
interface Entry {
  readonly post: PostNotice["post"];
  /** The entry's JSON up to its closing brace or its count (EventNotice.entryStart). */
  readonly start: string;
  count: number;
}

/**
 * The post events of one room queued for one version-2 connection since its last other frame (in one turn of the
 * event loop, or held while an earlier write is in flight), leaving as one posts event
 * (`{"event":"posts","room":...,"posts":[...]}`), or as the post event itself when it stays alone. Posts in a row by
 * one author share one entry with a count (`{"seq":N,"author":"...","count":K}`), so a burst costs each listener a
 * few bytes, not a few bytes a post. A run is full at MAX_POSTS_PER_EVENT posts or when one more would take its
 * frame past the frame limit; the next post of the room then opens another run.
 *
 * A run keeps its entries, not its posts: a post in a row adds no byte to the queue, so what a held run keeps must
 * not grow with it either, and the queue's byte bound then bounds its memory too.
 */
export class PostRun {
  /** The first post: the frame of a run that stays alone. */
  readonly #first: PostNotice;
  /** Posts listed. */
  #posts = 1;
  readonly #prefix: string;
  /** Bytes of the merged frame so far, header included, with the closing `]}`. */
  #bytes: number;
  /** The entries as the merged frame lists them, the last one growing its count while posts come in a row. */
  readonly #entries: Entry[];

  constructor(
    readonly room: string,
    first: PostNotice,
  ) {
    this.#first = first;
    this.#prefix = first.postsPrefix;
    const start = first.entryStart;
    this.#entries = [{ post: first.post, start, count: 1 }];
    this.#bytes = FRAME_HEADER_BYTES + first.postsPrefixBytes + first.entryBytes + 1 + 2;
  }

  /** Bytes this run adds to its connection's queue when written. */
  get bytes(): number {
    return this.#posts === 1 ? this.#first.frame.length : this.#bytes;
  }

  /** Posts the run lists. */
  get posts(): number {
    return this.#posts;
  }

  /**
   * Lists `notice` too, unless the run is full; returns the bytes the run grew by (from its lone post event's frame
   * to the merged frame, for the second post), or RUN_FULL.
   */
  add(notice: PostNotice, maxFrameBytes: number): number {
    const posts = this.#posts;
    if (posts >= MAX_POSTS_PER_EVENT) return RUN_FULL;
    const { post } = notice;
    const tail = this.#entries[this.#entries.length - 1] as Entry;
    const { count } = tail;
    const inRow = post.author === tail.post.author && post.seq === tail.post.seq + count;
    const bytes =
      this.#bytes + (inRow ? (count === 1 ? FIRST_COUNT_BYTES : countGrowth(count)) : 1 + notice.entryBytes + 1);
    if (bytes - FRAME_HEADER_BYTES > maxFrameBytes) return RUN_FULL;
    const before = posts === 1 ? this.#first.frame.length : this.#bytes;
    this.#posts = posts + 1;
    this.#bytes = bytes;
    if (inRow) tail.count = count + 1;
    else this.#entries.push({ post, start: notice.entryStart, count: 1 });
    return bytes - before;
  }

  /** True when `other` lists the same posts (the same room and entries, so the same bytes): one frame serves both. */
  sameAs(other: PostRun): boolean {
    const entries = this.#entries;
    const others = other.#entries;
    if (other.room !== this.room || others.length !== entries.length) return false;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as Entry;
      const twin = others[i] as Entry;
      if (entry.start !== twin.start || entry.count !== twin.count) return false;
    }
    return true;
  }

  /** The frame: the post event alone, or one posts event listing every post in order, posts in a row counted. */
  encode(): Buffer {
    if (this.#posts === 1) return this.#first.frame;
    let text = this.#prefix;
    const entries = this.#entries;
    for (let i = 0; i < entries.length; i++) {
      const { start, count } = entries[i] as Entry;
      text += (i === 0 ? "" : ",") + start + (count === 1 ? "}" : `,"count":${count}}`);
    }
    text += "]}";
    // Within the frame limit by construction (add refuses a post that would pass it).
    return joinFrames([{ text, payloadBytes: Buffer.byteLength(text) }]);
  }
}

/** Bytes a count of `count` grows by as it becomes `count + 1`: one more digit when that is a power of ten. */
function countGrowth(count: number): number {
  let power = 10;
  while (power <= count) power *= 10;
  return count + 1 === power ? 1 : 0;
}
