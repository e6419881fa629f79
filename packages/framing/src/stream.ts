import type { Duplex } from "node:stream";
import { FrameDecoder, type FrameSink } from "./decoder.js";
import type { FramingError } from "./errors.js";
import type { FramingOptions } from "./options.js";

/** Callbacks of {@link attachFrameDecoder}. */
export interface FrameStreamHandlers {
  /** Called with each decoded value, in order. */
  readonly onFrame: FrameSink;
  /** Called once when framing fails (before the stream is destroyed) or the stream ends mid-frame. */
  readonly onError?: (error: FramingError | unknown) => void;
}

/**
 * Decodes every frame arriving on a socket or any Duplex. A malformed or oversize frame destroys the stream:
 * the frames before it were delivered, nothing behind it is. Returns a function that detaches the decoder.
 */
export function attachFrameDecoder(
  stream: Duplex,
  handlers: FrameStreamHandlers,
  options?: FramingOptions,
): () => void {
  const decoder = new FrameDecoder(options);
  const fail = (error: unknown): void => {
    detach();
    handlers.onError?.(error);
    // Destroy without an error argument: the failure was reported above, and an 'error' event
    // with no listener would crash the host process.
    stream.destroy();
  };
  const onData = (chunk: Buffer | string): void => {
    try {
      decoder.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk, handlers.onFrame);
    } catch (error) {
      fail(error);
    }
  };
  const onEnd = (): void => {
    try {
      decoder.end();
    } catch (error) {
      fail(error);
    }
  };
  const detach = (): void => {
    stream.off("data", onData);
    stream.off("end", onEnd);
  };
  stream.on("data", onData);
  stream.on("end", onEnd);
  return detach;
}
