/** Bytes in the length header that precedes every payload. */
export const FRAME_HEADER_BYTES = 4;

/** Default largest payload a decoder accepts or an encoder produces: 16 MiB. */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** The largest length a 4-byte unsigned header can state. */
export const MAX_FRAME_LENGTH_FIELD = 0xffff_ffff;
