import { FrameEncodeError, FrameTooLargeError } from "./errors.js";
import { FRAME_HEADER_BYTES } from "./limits.js";
import { resolveMaxFrameBytes, type FramingOptions } from "./options.js";

/**
 * Encodes one value as a frame: a 4-byte big-endian payload length, then the UTF-8 JSON.
 * JSON's own rules apply: NaN and Infinity become null, undefined object members are dropped.
 */
export function encodeFrame(value: unknown, options?: FramingOptions): Buffer {
  const maxFrameBytes = resolveMaxFrameBytes(options);
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (cause) {
    throw new FrameEncodeError(cause instanceof Error ? cause.message : String(cause), { cause });
  }
  if (text === undefined) throw new FrameEncodeError(typeof value);
  const length = Buffer.byteLength(text, "utf8");
  if (length > maxFrameBytes) throw new FrameTooLargeError(length, maxFrameBytes, "encode");
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + length);
  frame.writeUInt32BE(length, 0);
  frame.write(text, FRAME_HEADER_BYTES, "utf8");
  return frame;
}
