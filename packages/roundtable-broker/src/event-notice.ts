import { encodeFrame } from "@orphus/framing";
import type { RoundtableEvent } from "@orphus/roundtable-protocol";
import { roleJson, roomJson } from "./json-name.js";

/**
 * One event on its way to every connection that hears it, encoded at most once however many that is: the frame of
 * the event alone, and for a post the start of its entry in a merged posts event (`{"seq":N,"author":"..."`), the
 * JSON `JSON.stringify` gives the listed post up to its closing brace or its count.
 */
export class EventNotice {
  readonly #maxFrameBytes: number;
  #frame: Buffer | undefined;
  #entryStart: string | undefined;
  #postsPrefix: string | undefined;

  constructor(
    readonly event: RoundtableEvent,
    maxFrameBytes: number
  ) {
    this.#maxFrameBytes = maxFrameBytes;
  }

  /** The event's own frame, shared by every connection that gets it alone. */
  get frame(): Buffer {
    this.#frame ??= encodeFrame(this.event, { maxFrameBytes: this.#maxFrameBytes });
    return this.#frame;
  }

  /**
   * A post's entry in the list of a merged posts event, without its closing brace (a run of posts in a row adds its
   * count there); its length is its bytes (role names are ASCII).
   */
  get entryStart(): string {
    if (this.#entryStart === undefined) {
      const event = this.post;
      this.#entryStart = `{"seq":${event.seq},"author":${roleJson(event.author)}`;
    }
    return this.#entryStart;
  }

  /** The start of a merged posts event of this post's room, up to its list; made once for every run it opens. */
  get postsPrefix(): string {
    if (this.#postsPrefix === undefined) {
      this.#postsPrefix = `{"event":"posts","room":${roomJson(this.post.room)},"posts":[`;
    }
    return this.#postsPrefix;
  }

  /** The event, which must be a post to be listed in a posts event. */
  get post(): Extract<RoundtableEvent, { event: "post" }> {
    const event = this.event;
    if (event.event !== "post") throw new TypeError(`a ${event.event} event is not listed in a posts event`);
    return event;
  }
}
