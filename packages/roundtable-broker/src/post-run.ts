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
 * The post events of one room queued for one version-2 connection in one turn of the event loop, leaving as one
 * posts event (`{"event":"posts","room":...,"posts":[...]}`), or as the post event itself when it stays alone.
 * Posts in a row by one author share one entry with a count (`{"seq":N,"author":"...","count":K}`), so a burst
 * costs each listener a few bytes, not a few bytes a post. A run is full at MAX_POSTS_PER_EVENT posts or when one
 * more would take its frame past the frame limit; the next post of the room then opens another run.
 */
export class PostRun {
  readonly notices: PostNotice[];
  readonly #prefix: string;
  /** Bytes of the merged frame so far, header included, with the closing `]}`. */
  #bytes: number;
  /** The entries as the merged frame lists them, the last one growing its count while posts come in a row. */
  readonly #entries: Entry[];

  constructor(
    readonly room: string,
    first: PostNotice
  ) {
    this.notices = [first];
    this.#prefix = first.postsPrefix;
    const start = first.entryStart;
    this.#entries = [{ post: first.post, start, count: 1 }];
    // Room and role names are ASCII, so the prefix's length is its bytes, as each entry's is.
    this.#bytes = FRAME_HEADER_BYTES + this.#prefix.length + start.length + 1 + 2;
  }

  /** Bytes this run adds to its connection's queue when written. */
  get bytes(): number {
    const only = this.notices.length === 1 ? this.notices[0] : undefined;
    return only === undefined ? this.#bytes : only.frame.length;
  }

  /**
   * Lists `notice` too, unless the run is full; returns the bytes the run grew by (from its lone post event's frame
   * to the merged frame, for the second post), or RUN_FULL.
   */
  add(notice: PostNotice, maxFrameBytes: number): number {
    const { notices } = this;
    if (notices.length >= MAX_POSTS_PER_EVENT) return RUN_FULL;
    const { post } = notice;
    const tail = this.#entries[this.#entries.length - 1] as Entry;
    const { count } = tail;
    const inRow = post.author === tail.post.author && post.seq === tail.post.seq + count;
    const bytes =
      this.#bytes +
      (inRow ? (count === 1 ? FIRST_COUNT_BYTES : countGrowth(count)) : 1 + notice.entryStart.length + 1);
    if (bytes - FRAME_HEADER_BYTES > maxFrameBytes) return RUN_FULL;
    const before = notices.length === 1 ? (notices[0] as PostNotice).frame.length : this.#bytes;
    notices.push(notice);
    this.#bytes = bytes;
    if (inRow) tail.count = count + 1;
    else this.#entries.push({ post, start: notice.entryStart, count: 1 });
    return bytes - before;
  }

  /** True when `other` lists the same posts, so one frame serves both. */
  sameAs(other: PostRun): boolean {
    const { notices } = this;
    if (other.notices.length !== notices.length) return false;
    for (let i = 0; i < notices.length; i++) if (other.notices[i] !== notices[i]) return false;
    return true;
  }

  /** The frame: the post event alone, or one posts event listing every post in order, posts in a row counted. */
  encode(): Buffer {
    const { notices } = this;
    const only = notices.length === 1 ? notices[0] : undefined;
    if (only !== undefined) return only.frame;
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
