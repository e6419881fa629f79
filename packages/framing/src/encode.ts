import { frameText, writeFrameText } from "./frame-text.js";
import { FRAME_HEADER_BYTES } from "./limits.js";
import type { FramingOptions } from "./options.js";

/**
 * Encodes one value as a frame: a 4-byte big-endian payload length, then the UTF-8 JSON.
 * JSON's own rules apply: NaN and Infinity become null, undefined object members are dropped.
 */
export function encodeFrame(value: unknown, options?: FramingOptions): Buffer {
  const text = frameText(value, options);
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + text.payloadBytes);
  writeFrameText(text, frame, 0);
  return frame;
}
