import { FRAME_HEADER_BYTES, joinFrames } from "@orphus/framing";
import { MAX_POSTS_PER_EVENT } from "@orphus/roundtable-protocol";
import type { PostNotice } from "./event-notice.js";

/** `,"count":2`: what an entry gains when it first stands for two posts. */
const FIRST_COUNT_BYTES = ',"count":2'.length;

/** What {@link PostRun.add} answers when the run is full: the post opens the next run. */
export const RUN_FULL = -1;

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
  /** The last entry: the seq and author of its first post, and how many posts in a row it stands for. */
  #tailSeq: number;
  #tailAuthor: string;
  #tailCount = 1;

  constructor(
    readonly room: string,
    first: PostNotice
  ) {
    this.notices = [first];
    this.#prefix = first.postsPrefix;
    const { seq, author } = first.post;
    this.#tailSeq = seq;
    this.#tailAuthor = author;
    // Room and role names are ASCII, so the prefix's length is its bytes, as each entry's is.
    this.#bytes = FRAME_HEADER_BYTES + this.#prefix.length + first.entryStart.length + 1 + 2;
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
    const { seq, author } = notice.post;
    const count = this.#tailCount;
    const inRow = author === this.#tailAuthor && seq === this.#tailSeq + count;
    const bytes =
      this.#bytes +
      (inRow ? (count === 1 ? FIRST_COUNT_BYTES : countGrowth(count)) : 1 + notice.entryStart.length + 1);
    if (bytes - FRAME_HEADER_BYTES > maxFrameBytes) return RUN_FULL;
    const before = notices.length === 1 ? (notices[0] as PostNotice).frame.length : this.#bytes;
    notices.push(notice);
    this.#bytes = bytes;
    if (inRow) {
      this.#tailCount = count + 1;
    } else {
      this.#tailSeq = seq;
      this.#tailAuthor = author;
      this.#tailCount = 1;
    }
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
    for (let i = 0; i < notices.length; ) {
      const head = notices[i] as PostNotice;
      const { seq, author } = head.post;
      let count = 1;
      while (i + count < notices.length) {
        const next = (notices[i + count] as PostNotice).post;
        if (next.author !== author || next.seq !== seq + count) break;
        count++;
      }
      text += (i === 0 ? "" : ",") + head.entryStart + (count === 1 ? "}" : `,"count":${count}}`);
      i += count;
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
