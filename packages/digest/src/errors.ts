import { brandErrorClass, previewValue } from "@orphus/internal";

/** Base class of every digest failure; `code` is stable across releases. */
export abstract class DigestError extends Error {
  abstract readonly code: string;
  static {
    brandErrorClass(this);
  }
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
