import { FrameEncodeError, FrameTooLargeError } from "./errors.js";
import { FRAME_HEADER_BYTES } from "./limits.js";
import { resolveMaxFrameBytes, type FramingOptions } from "./options.js";

/**
 * A frame not yet written: its payload's JSON text and that text's length in UTF-8 bytes, checked against the frame
 * limit. A writer that sends many frames at once writes them into one buffer ({@link joinFrames}) instead of
 * allocating a buffer per frame and copying them all again to join them.
 */
export interface FrameText {
  /** The payload: JSON text. */
  readonly text: string;
  /** UTF-8 bytes of `text`; the frame is {@link FRAME_HEADER_BYTES} more. */
  readonly payloadBytes: number;
}

/** The JSON text of `value` as a frame, with the same rules and errors as `encodeFrame`; nothing is allocated for bytes. */
export function frameText(value: unknown, options?: FramingOptions): FrameText {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (cause) {
    throw new FrameEncodeError(cause instanceof Error ? cause.message : String(cause), { cause });
  }
  if (text === undefined) throw new FrameEncodeError(typeof value);
  return frameTextOfJson(text, options);
}

/**
 * A frame of JSON text built by hand (a hot reply assembled from a template): measured and checked against the
 * frame limit, not parsed; the caller answers for it being the JSON it means.
 */
export function frameTextOfJson(json: string, options?: FramingOptions): FrameText {
  const maxFrameBytes = resolveMaxFrameBytes(options);
  const payloadBytes = Buffer.byteLength(json, "utf8");
  if (payloadBytes > maxFrameBytes) throw new FrameTooLargeError(payloadBytes, maxFrameBytes, "encode");
  return { text: json, payloadBytes };
}

/** Bytes `frame` takes on the wire, header included. */
export function frameBytes(frame: Uint8Array | FrameText): number {
  return frame instanceof Uint8Array ? frame.length : FRAME_HEADER_BYTES + frame.payloadBytes;
}

/** Writes `frame` (header and payload) into `target` at `offset`; returns the offset after it. */
export function writeFrameText(frame: FrameText, target: Buffer, offset: number): number {
  const { text, payloadBytes } = frame;
  target.writeUInt32BE(payloadBytes, offset);
  // A text as long in bytes as in UTF-16 units is ASCII, which the Latin-1 writer copies without encoding work.
  target.write(text, offset + FRAME_HEADER_BYTES, payloadBytes, payloadBytes === text.length ? "latin1" : "utf8");
  return offset + FRAME_HEADER_BYTES + payloadBytes;
}

/**
 * Joins frames, encoded or not, into one buffer in order: one allocation, each text written once in place. Sending
 * a turn's frames as one write is cheaper than a write per frame; this makes the join cheaper than encoding each
 * frame and concatenating.
 */
export function joinFrames(frames: readonly (Uint8Array | FrameText)[]): Buffer {
  let total = 0;
  for (const frame of frames) total += frameBytes(frame);
  const joined = Buffer.allocUnsafe(total);
  let offset = 0;
  for (const frame of frames) {
    if (frame instanceof Uint8Array) {
      joined.set(frame, offset);
      offset += frame.length;
    } else {
      offset = writeFrameText(frame, joined, offset);
    }
  }
  return joined;
}
