/**
 * @orphus/framing — the roundtable wire: a 4-byte big-endian unsigned length, then that many bytes of UTF-8 JSON.
 *
 * ```ts
 * import { encodeFrame, FrameDecoder } from "@orphus/framing";
 *
 * const decoder = new FrameDecoder();
 * decoder.push(encodeFrame({ hello: "room" }), (value) => console.log(value)); // { hello: "room" }
 * ```
 *
 * The decoder reassembles frames split anywhere, rejects an oversize header before buffering its payload, and
 * stops at the first malformed frame: the frames before it are delivered, nothing behind it is.
 */
export { encodeFrame } from "./encode.js";
export { frameText, frameTextOfJson, frameBytes, joinFrames } from "./frame-text.js";
export { FrameDecoder } from "./decoder.js";
export { attachFrameDecoder } from "./stream.js";
export { DEFAULT_MAX_FRAME_BYTES, FRAME_HEADER_BYTES, MAX_FRAME_LENGTH_FIELD } from "./limits.js";
export {
  FramingError,
  FrameTooLargeError,
  FrameMalformedError,
  FrameTruncatedError,
  FrameDecoderFailedError,
  FrameEncodeError,
  FrameOptionError,
} from "./errors.js";
export type { FrameSink } from "./decoder.js";
export type { FrameText } from "./frame-text.js";
export type { FrameStreamHandlers } from "./stream.js";
export type { FramingOptions } from "./options.js";
export type { JsonValue } from "./json.js";
