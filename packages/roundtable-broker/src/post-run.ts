import { FRAME_HEADER_BYTES, joinFrames } from "@orphus/framing";
import { MAX_POSTS_PER_EVENT } from "@orphus/roundtable-protocol";
import type { EventNotice } from "./event-notice.js";

/** `,"count":2`: what an entry gains when it first stands for two posts. */
const FIRST_COUNT_BYTES = ',"count":2'.length;

/**
 * The post events of one room queued for one version-2 connection in one turn of the event loop, leaving as one
 * posts event (`{"event":"posts","room":...,"posts":[...]}`), or as the post event itself when it stays alone.
 * Posts in a row by one author share one entry with a count (`{"seq":N,"author":"...","count":K}`), so a burst
 * costs each listener a few bytes, not a few bytes a post. A run is full at MAX_POSTS_PER_EVENT posts or when one
 * more would take its frame past the frame limit; the next post of the room then opens another run.
 */
export class PostRun {
  readonly notices: EventNotice[];
  readonly #prefix: string;
  /** Bytes of the merged frame so far, header included, with the closing `]}`. */
  #bytes: number;
  /** The last entry: the seq and author of its first post, and how many posts in a row it stands for. */
  #tailSeq: number;
  #tailAuthor: string;
  #tailCount = 1;

  constructor(
    readonly room: string,
    first: EventNotice
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

  /** Lists `notice` too, unless the run is full; returns whether it did. */
  add(notice: EventNotice, maxFrameBytes: number): boolean {
    if (this.notices.length >= MAX_POSTS_PER_EVENT) return false;
    const { seq, author } = notice.post;
    const count = this.#tailCount;
    const inRow = author === this.#tailAuthor && seq === this.#tailSeq + count;
    const bytes =
      this.#bytes +
      (inRow ? (count === 1 ? FIRST_COUNT_BYTES : digits(count + 1) - digits(count)) : 1 + notice.entryStart.length + 1);
    if (bytes - FRAME_HEADER_BYTES > maxFrameBytes) return false;
    this.notices.push(notice);
    this.#bytes = bytes;
    if (inRow) {
      this.#tailCount = count + 1;
    } else {
      this.#tailSeq = seq;
      this.#tailAuthor = author;
      this.#tailCount = 1;
    }
    return true;
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
      const head = notices[i] as EventNotice;
      const { seq, author } = head.post;
      let count = 1;
      while (i + count < notices.length) {
        const next = (notices[i + count] as EventNotice).post;
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

/** Decimal digits of a positive integer. */
function digits(value: number): number {
  return String(value).length;
}
