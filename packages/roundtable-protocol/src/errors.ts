import { brandErrorClass, previewValue } from "@orphus/internal";
import type { WireErrorCode } from "./codes.js";
import type { WireError } from "./types.js";

/** Base class of every error this package throws; `code` is stable across releases. */
export abstract class RoundtableProtocolError extends Error {
  abstract readonly code: string;
  static {
    brandErrorClass(this);
  }
}

/**
 * A broker's refusal as an exception: thrown by clients that turn an error reply into a rejection. `code` is this
 * class's own; the refusal's code from the wire catalogue is `wireCode`, the one to branch on.
 */
export class WireRefusalError extends RoundtableProtocolError {
  override readonly name = "WireRefusalError";
  readonly code = "ERR_WIRE_REFUSED";
  readonly wireCode: WireErrorCode;
  readonly details: WireError["details"];
  constructor(
    error: WireError,
    readonly op?: string,
  ) {
    super(error.message);
    this.wireCode = error.code;
    this.details = error.details;
  }
}

/** A frame from the broker matches no reply or event schema (a broker of another version, or a bug). */
export class ServerFrameInvalidError extends RoundtableProtocolError {
  override readonly name = "ServerFrameInvalidError";
  readonly code = "ERR_SERVER_FRAME_INVALID";
  constructor(
    readonly value: unknown,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Invalid frame from the broker: expected a reply or an event (${detail}), got ${previewValue(value)}`,
      options,
    );
  }
}
