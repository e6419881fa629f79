import { FRAME_HEADER_BYTES, joinFrames } from "@orphus/framing";
import { MAX_POSTS_PER_EVENT } from "@orphus/roundtable-protocol";
import type { EventNotice } from "./event-notice.js";

/**
 * The post events of one room queued for one version-2 connection in one turn of the event loop, leaving as one
 * posts event (`{"event":"posts","room":...,"posts":[...]}`), or as the post event itself when it stays alone. A run
 * is full at MAX_POSTS_PER_EVENT posts or when one more would take its frame past the frame limit; the next post
 * of the room then opens another run.
 */
export class PostRun {
  readonly notices: EventNotice[];
  readonly #prefix: string;
  /** Bytes of the merged frame so far, header included, with the closing `]}`. */
  #bytes: number;

  constructor(
    readonly room: string,
    first: EventNotice
  ) {
    this.notices = [first];
    this.#prefix = first.postsPrefix;
    // Room and role names are ASCII, so the prefix's length is its bytes, as each entry's is.
    this.#bytes = FRAME_HEADER_BYTES + this.#prefix.length + first.entry.length + 2;
  }

  /** Bytes this run adds to its connection's queue when written. */
  get bytes(): number {
    const only = this.notices.length === 1 ? this.notices[0] : undefined;
    return only === undefined ? this.#bytes : only.frame.length;
  }

  /** Lists `notice` too, unless the run is full; returns whether it did. */
  add(notice: EventNotice, maxFrameBytes: number): boolean {
    const bytes = this.#bytes + 1 + notice.entry.length;
    if (this.notices.length >= MAX_POSTS_PER_EVENT || bytes - FRAME_HEADER_BYTES > maxFrameBytes) return false;
    this.notices.push(notice);
    this.#bytes = bytes;
    return true;
  }

  /** True when `other` lists the same posts, so one frame serves both. */
  sameAs(other: PostRun): boolean {
    const { notices } = this;
    if (other.notices.length !== notices.length) return false;
    for (let i = 0; i < notices.length; i++) if (other.notices[i] !== notices[i]) return false;
    return true;
  }

  /** The frame: the post event alone, or one posts event listing every post in order. */
  encode(): Buffer {
    const only = this.notices.length === 1 ? this.notices[0] : undefined;
    if (only !== undefined) return only.frame;
    let text = this.#prefix;
    for (let i = 0; i < this.notices.length; i++) text += (i === 0 ? "" : ",") + (this.notices[i] as EventNotice).entry;
    text += "]}";
    // Within the frame limit by construction (add refuses a post that would pass it).
    return joinFrames([{ text, payloadBytes: Buffer.byteLength(text) }]);
  }
}
