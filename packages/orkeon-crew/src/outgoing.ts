import { MAX_QUOTED_REASON_LENGTH } from "./limits.js";
import type { Mask } from "./options.js";
import { isRecord } from "@orphus/internal";

/**
 * The one way text leaves this package: every printed line, notice, refusal message, stored answer and quoted
 * reason passes here. It masks the whole text first and only then cuts it to `max` characters, because a masker
 * handed a cut text sees a token's prefix, which it cannot recognise. No other code in the package cuts text.
 */
export function outgoing(text: string, mask: Mask, max = Number.POSITIVE_INFINITY): string {
  const masked = mask(text);
  return masked.length > max ? `${masked.slice(0, max)}… (${masked.length} chars)` : masked;
}

/** The message of anything thrown, masked and cut for a line. */
export function reasonOf(error: unknown, mask: Mask): string {
  return outgoing(messageOf(error), mask, MAX_QUOTED_REASON_LENGTH);
}

/** The whole message of anything thrown; never throws, whatever was thrown (a Symbol, a throwing getter). */
function messageOf(error: unknown): string {
  try {
    if (error instanceof Error) {
      const message: unknown = error.message;
      return typeof message === "string" && message !== "" ? message : error.name;
    }
    if (typeof error === "string") return error;
    if (isRecord(error) && typeof error["message"] === "string") return error["message"];
    return String(error);
  } catch {
    return "a value that cannot be shown as text";
  }
}
