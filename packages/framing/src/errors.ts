import { brandErrorClass, previewValue } from "@orphus/internal";

/** Base class of every framing failure; `code` is stable across releases. */
export abstract class FramingError extends Error {
  abstract readonly code: string;
  static {
    brandErrorClass(this);
  }
}

/** How much of an offending payload an error message quotes. */
const PREVIEW_BYTES = 48;

/** Renders the first bytes of a payload as hex, so a message says what arrived without quoting it whole. */
export function previewBytes(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PREVIEW_BYTES)).toString("hex");
  return bytes.length > PREVIEW_BYTES ? `${head}… (${bytes.length} bytes)` : `${head} (${bytes.length} bytes)`;
}

/** A header declared, or an encoder produced, a payload longer than the configured maximum. */
export class FrameTooLargeError extends FramingError {
  override readonly name = "FrameTooLargeError";
  readonly code = "ERR_FRAME_TOO_LARGE";
  constructor(
    readonly length: number,
    readonly maxFrameBytes: number,
    direction: "decode" | "encode",
  ) {
    super(
      direction === "decode"
        ? `Frame header declares ${length} bytes; the maximum frame size is ${maxFrameBytes} bytes`
        : `Encoded frame would be ${length} bytes; the maximum frame size is ${maxFrameBytes} bytes`,
    );
  }
}

/** A payload was not valid UTF-8, or not valid JSON. */
export class FrameMalformedError extends FramingError {
  override readonly name = "FrameMalformedError";
  readonly code = "ERR_FRAME_MALFORMED";
  constructor(
    readonly reason: "invalid-utf8" | "invalid-json",
    payload: Uint8Array,
    options?: { cause?: unknown },
  ) {
    super(
      `Malformed frame: expected ${reason === "invalid-utf8" ? "a UTF-8" : "a JSON"} payload, got ${previewBytes(payload)}`,
      options,
    );
  }
}

/** The stream ended with part of a frame buffered. */
export class FrameTruncatedError extends FramingError {
  override readonly name = "FrameTruncatedError";
  readonly code = "ERR_FRAME_TRUNCATED";
  constructor(
    readonly bufferedBytes: number,
    readonly expectedBytes: number | undefined,
  ) {
    super(
      expectedBytes === undefined
        ? `Stream ended inside a frame header: ${bufferedBytes} of 4 header bytes arrived`
        : `Stream ended inside a frame: ${bufferedBytes} of ${expectedBytes} payload bytes arrived`,
    );
  }
}

/** Input was pushed into a decoder that already failed; framing behind a bad frame cannot be trusted. */
export class FrameDecoderFailedError extends FramingError {
  override readonly name = "FrameDecoderFailedError";
  readonly code = "ERR_FRAME_DECODER_FAILED";
  constructor(cause: unknown) {
    super("Frame decoder refuses input after a framing failure; open a new connection", { cause });
  }
}

/** A value has no JSON encoding (undefined, a function, a BigInt, a cycle). */
export class FrameEncodeError extends FramingError {
  override readonly name = "FrameEncodeError";
  readonly code = "ERR_FRAME_UNENCODABLE";
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`Cannot encode frame: expected a JSON-serialisable value, got ${detail}`, options);
  }
}

/** A framing option is outside its allowed range. */
export class FrameOptionError extends FramingError {
  override readonly name = "FrameOptionError";
  readonly code = "ERR_FRAME_INVALID_OPTION";
  constructor(option: string, expected: string, got: unknown) {
    super(`Invalid framing option ${option}: expected ${expected}, got ${previewValue(got)}`);
  }
}
