import { brandErrorClass } from "@orphus/internal";

/** Base class of every digest failure; `code` is stable across releases. */
export abstract class DigestError extends Error {
  abstract readonly code: string;
  static {
    brandErrorClass(this);
  }
}

/** How much of an offending value an error message quotes. */
const PREVIEW_CHARS = 40;

/** Describes a value for an error message without quoting it whole. */
export function previewValue(value: unknown): string {
  if (typeof value === "string") {
    const quoted = JSON.stringify(value.length > PREVIEW_CHARS ? value.slice(0, PREVIEW_CHARS) : value);
    return value.length > PREVIEW_CHARS ? `${quoted}… (${value.length} chars)` : quoted;
  }
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  if (typeof value === "bigint") return `${value}n`;
  return String(value);
}

/** The input to `renderDigest` is not of the documented form (a field missing, of the wrong type or out of order). */
export class DigestInputError extends DigestError {
  override readonly name = "DigestInputError";
  readonly code = "ERR_DIGEST_INVALID_INPUT";
  constructor(
    readonly field: string,
    expected: string,
    got: unknown,
  ) {
    super(`Invalid digest input ${field}: expected ${expected}, got ${previewValue(got)}`);
  }
}

/** The budget or the number of items is above its exported maximum. */
export class DigestLimitError extends DigestError {
  override readonly name = "DigestLimitError";
  readonly code = "ERR_DIGEST_LIMIT_EXCEEDED";
  constructor(
    readonly limit: "budget" | "items",
    readonly max: number,
    readonly got: number,
  ) {
    super(
      limit === "budget"
        ? `Digest budget ${got} is above the maximum of ${max} characters (MAX_DIGEST_BUDGET)`
        : `Digest of ${got} items is above the maximum of ${max} items (MAX_DIGEST_ITEMS)`,
    );
  }
}
