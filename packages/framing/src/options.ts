import { FrameOptionError } from "./errors.js";
import { DEFAULT_MAX_FRAME_BYTES, MAX_FRAME_LENGTH_FIELD } from "./limits.js";

/** Options shared by the encoder and the decoder. */
export interface FramingOptions {
  /** Largest payload in bytes; default {@link DEFAULT_MAX_FRAME_BYTES}. */
  readonly maxFrameBytes?: number;
}

export function resolveMaxFrameBytes(options: FramingOptions | undefined): number {
  const max = options?.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  if (!Number.isInteger(max) || max < 1 || max > MAX_FRAME_LENGTH_FIELD) {
    throw new FrameOptionError("maxFrameBytes", `an integer from 1 to ${MAX_FRAME_LENGTH_FIELD}`, max);
  }
  return max;
}
