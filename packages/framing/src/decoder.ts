import { isUtf8 } from "node:buffer";
import { FrameDecoderFailedError, FrameMalformedError, FrameTooLargeError, FrameTruncatedError } from "./errors.js";
import { FRAME_HEADER_BYTES } from "./limits.js";
import { resolveMaxFrameBytes, type FramingOptions } from "./options.js";

/**
 * Receives each decoded value, in stream order. `more` is true when the chunk being pushed holds bytes after this
 * frame (another frame, or the start of one): a server that batches its answers to one read can tell its last frame.
 */
export type FrameSink = (value: unknown, more: boolean) => void;

/** First allocation for a payload that spans chunks; it doubles from here, so a peer's header alone reserves little. */
const INITIAL_PAYLOAD_CAPACITY = 64 * 1024;

/**
 * Streaming decoder: push bytes as they arrive, in chunks of any size and split anywhere, and each complete
 * frame's value is handed to the sink in order.
 *
 * The first malformed or oversize frame fails the decoder for good: frames before it (even in the same chunk)
 * have been delivered, frames behind it are not, and every later push throws. Framing that went wrong once
 * cannot be trusted again, so the caller should drop the connection.
 */
export class FrameDecoder {
  readonly maxFrameBytes: number;
  readonly #header = Buffer.alloc(FRAME_HEADER_BYTES);
  #headerFilled = 0;
  #payload: Buffer | undefined;
  #payloadLength = 0;
  #payloadFilled = 0;
  #failure: unknown;

  constructor(options?: FramingOptions) {
    this.maxFrameBytes = resolveMaxFrameBytes(options);
  }

  /** Bytes held for the frame in progress (header and payload). */
  get bufferedBytes(): number {
    return this.#payload === undefined ? this.#headerFilled : FRAME_HEADER_BYTES + this.#payloadFilled;
  }

  /** True once a framing failure has been thrown; the decoder takes no more input. */
  get failed(): boolean {
    return this.#failure !== undefined;
  }

  /** Feeds bytes; calls `sink` for every frame they complete. Throws a FramingError at the first bad frame. */
  push(chunk: Uint8Array, sink: FrameSink): void {
    if (this.#failure !== undefined) throw new FrameDecoderFailedError(this.#failure);
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    try {
      this.#consume(bytes, sink);
    } catch (error) {
      this.#failure = error;
      this.#payload = undefined;
      throw error;
    }
  }

  /** Declares the end of the stream; throws FrameTruncatedError when part of a frame is still buffered. */
  end(): void {
    if (this.#failure !== undefined) return;
    if (this.#payload !== undefined) {
      this.#failure = new FrameTruncatedError(this.#payloadFilled, this.#payloadLength);
    } else if (this.#headerFilled > 0) {
      this.#failure = new FrameTruncatedError(this.#headerFilled, undefined);
    }
    if (this.#failure !== undefined) throw this.#failure;
  }

  #consume(bytes: Buffer, sink: FrameSink): void {
    const total = bytes.length;
    let offset = 0;
    while (offset < total) {
      if (this.#payload !== undefined) {
        offset = this.#fillPayload(bytes, offset, sink);
        continue;
      }
      if (this.#headerFilled === 0 && total - offset >= FRAME_HEADER_BYTES) {
        const length = this.#checkLength(bytes.readUInt32BE(offset));
        const start = offset + FRAME_HEADER_BYTES;
        if (total - start >= length) {
          // Fast path: the whole frame is in this chunk, so parse it in place: no copy, and no view either.
          offset = start + length;
          sink(parsePayload(bytes, start, offset), offset < total);
          continue;
        }
        this.#startPayload(length);
        offset = start;
        continue;
      }
      const take = Math.min(FRAME_HEADER_BYTES - this.#headerFilled, total - offset);
      bytes.copy(this.#header, this.#headerFilled, offset, offset + take);
      this.#headerFilled += take;
      offset += take;
      if (this.#headerFilled === FRAME_HEADER_BYTES) {
        this.#headerFilled = 0;
        const length = this.#checkLength(this.#header.readUInt32BE(0));
        this.#startPayload(length);
        if (length === 0) this.#finishPayload(sink, offset < total);
      }
    }
  }

  #checkLength(length: number): number {
    if (length > this.maxFrameBytes) throw new FrameTooLargeError(length, this.maxFrameBytes, "decode");
    return length;
  }

  #startPayload(length: number): void {
    this.#payload = Buffer.allocUnsafe(Math.min(length, INITIAL_PAYLOAD_CAPACITY));
    this.#payloadLength = length;
    this.#payloadFilled = 0;
  }

  #fillPayload(bytes: Buffer, offset: number, sink: FrameSink): number {
    let payload = this.#payload as Buffer;
    const take = Math.min(this.#payloadLength - this.#payloadFilled, bytes.length - offset);
    const needed = this.#payloadFilled + take;
    if (needed > payload.length) {
      // Grow geometrically (never past the declared length) so byte-at-a-time input stays linear.
      const grown = Buffer.allocUnsafe(Math.min(this.#payloadLength, Math.max(needed, payload.length * 2)));
      payload.copy(grown, 0, 0, this.#payloadFilled);
      payload = grown;
      this.#payload = grown;
    }
    bytes.copy(payload, this.#payloadFilled, offset, offset + take);
    this.#payloadFilled = needed;
    const end = offset + take;
    if (needed === this.#payloadLength) this.#finishPayload(sink, end < bytes.length);
    return end;
  }

  #finishPayload(sink: FrameSink, more: boolean): void {
    const payload = this.#payload as Buffer;
    const length = this.#payloadLength;
    this.#payload = undefined;
    this.#payloadFilled = 0;
    this.#payloadLength = 0;
    sink(parsePayload(payload, 0, length), more);
  }
}

/**
 * Parses the payload at `bytes[start, end)`. It is decoded once, straight from `bytes`: Node's UTF-8 decoder turns
 * every invalid sequence into U+FFFD, so a text without U+FFFD came from valid UTF-8 and needs no validating pass of
 * its own; only a text holding U+FFFD (written literally, or damage) is checked byte by byte. Making a `subarray`
 * view per frame and validating it apart cost more than the decoding (BENCHMARKS.md, the notes on framing.bench.ts).
 */
function parsePayload(bytes: Buffer, start: number, end: number): unknown {
  // UTF-8 is the default; naming no encoding takes Node's direct path, without looking the encoding up per frame.
  const text = bytes.toString(undefined, start, end);
  if (text.includes("\uFFFD") && !isUtf8(bytes.subarray(start, end))) {
    throw new FrameMalformedError("invalid-utf8", bytes.subarray(start, end));
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new FrameMalformedError("invalid-json", bytes.subarray(start, end), { cause });
  }
}
