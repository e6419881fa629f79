import { encodeFrame } from "@orphus/framing";
import type { PostEvent, RoundtableEvent } from "@orphus/roundtable-protocol";

/**
 * One event on its way to every connection that hears it, encoded at most once however many that is: the frame of
 * the event alone, and for a post the start of its entry in a merged posts event (`{"seq":N,"author":"..."`, the
 * JSON `JSON.stringify` gives the listed post up to its closing brace or its count) and the start of a posts event of
 * its room, each with its length in UTF-8 bytes. Both are plain `JSON.stringify` output: a hand-built template
 * counted by `.length` (which assumed ASCII names) measured no gain beyond the benchmarks' spread (BENCHMARKS.md,
 * the notes on fan-out.bench.ts).
 */
export class EventNotice {
  /** The event when it is a post, which a version-2 connection may list in a posts event; undefined otherwise. */
  readonly post: PostEvent | undefined;
  readonly #maxFrameBytes: number;
  #frame: Buffer | undefined;
  #entryStart: string | undefined;
  #entryBytes: number | undefined;
  #postsPrefix: string | undefined;
  #postsPrefixBytes: number | undefined;

  constructor(
    readonly event: RoundtableEvent,
    maxFrameBytes: number,
  ) {
    this.post = event.event === "post" ? event : undefined;
    this.#maxFrameBytes = maxFrameBytes;
  }

  /** The event's own frame, shared by every connection that gets it alone. */
  get frame(): Buffer {
    this.#frame ??= encodeFrame(this.event, { maxFrameBytes: this.#maxFrameBytes });
    return this.#frame;
  }

  /**
   * A post's entry in the list of a merged posts event, without its closing brace (a run of posts in a row adds its
   * count there).
   */
  get entryStart(): string {
    if (this.#entryStart === undefined) {
      const { seq, author } = this.#listedPost();
      this.#entryStart = JSON.stringify({ seq, author }).slice(0, -1);
    }
    return this.#entryStart;
  }

  /** UTF-8 bytes of {@link entryStart}. */
  get entryBytes(): number {
    this.#entryBytes ??= Buffer.byteLength(this.entryStart);
    return this.#entryBytes;
  }

  /** The start of a merged posts event of this post's room, up to its list; made once for every run it opens. */
  get postsPrefix(): string {
    if (this.#postsPrefix === undefined) {
      const { room } = this.#listedPost();
      this.#postsPrefix = `${JSON.stringify({ event: "posts", room }).slice(0, -1)},"posts":[`;
    }
    return this.#postsPrefix;
  }

  /** UTF-8 bytes of {@link postsPrefix}. */
  get postsPrefixBytes(): number {
    this.#postsPrefixBytes ??= Buffer.byteLength(this.postsPrefix);
    return this.#postsPrefixBytes;
  }

  /** The event, which must be a post to be listed in a posts event. */
  #listedPost(): PostEvent {
    const { post } = this;
    if (post === undefined) throw new TypeError(`a ${this.event.event} event is not listed in a posts event`);
    return post;
  }
}

/** A notice of a post: what a posts event lists. */
export type PostNotice = EventNotice & { readonly post: PostEvent };

/** True when `notice` is of a post. */
export function isPostNotice(notice: EventNotice): notice is PostNotice {
  return notice.post !== undefined;
}
