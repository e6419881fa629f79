// renderDigest's bound is only as good as its input's shape: a NaN budget or a non-string body from untyped callers
// would break the arithmetic, so the shape is checked here, in one pass that reads no body.
import { DigestInputError, DigestLimitError } from "./errors.js";
import { DEFAULT_DIGEST_BUDGET, MAX_DIGEST_BUDGET, MAX_DIGEST_ITEMS } from "./limits.js";
import type { DigestInput, DigestItem, DigestRecovery, EvictedRange } from "./types.js";

/** Input after checking, defaults applied. */
export interface CheckedInput {
  readonly items: readonly DigestItem[];
  readonly budget: number;
  readonly evicted: EvictedRange | null;
  readonly recovery: DigestRecovery;
  /** Whether any item's priority differs from another's (else the spending order is plain newest-first). */
  readonly prioritised: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkSeq(value: unknown, field: string, min: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw new DigestInputError(field, min === 0 ? "a non-negative safe integer" : "a positive safe integer", value);
  }
  return value;
}

/** The name of an item's field in an error message; built only on failure, as this runs for every item. */
function itemField(index: number, key?: string): string {
  return key === undefined ? `items[${index}]` : `items[${index}].${key}`;
}

function checkOptionalString(value: unknown, index: number, key: string): void {
  if (value !== undefined && typeof value !== "string") {
    throw new DigestInputError(itemField(index, key), "a string", value);
  }
}

function checkEvicted(value: unknown): EvictedRange | null {
  if (value === undefined || value === null) return null;
  if (!isRecord(value)) throw new DigestInputError("evicted", "{ count, fromSeq, toSeq } or null", value);
  const count = checkSeq(value["count"], "evicted.count", 0);
  if (count === 0) return null;
  const fromSeq = checkSeq(value["fromSeq"], "evicted.fromSeq", 1);
  const toSeq = checkSeq(value["toSeq"], "evicted.toSeq", 1);
  if (toSeq < fromSeq) throw new DigestInputError("evicted.toSeq", `at least fromSeq (${fromSeq})`, toSeq);
  return { count, fromSeq, toSeq };
}

/** Checks `input` against the documented form and limits; throws DigestInputError or DigestLimitError. */
export function checkInput(input: DigestInput): CheckedInput {
  if (!isRecord(input)) throw new DigestInputError("input", "an object", input);
  const { items, budget = DEFAULT_DIGEST_BUDGET, recovery = "fetch" } = input;
  if (typeof budget !== "number" || !Number.isSafeInteger(budget) || budget < 0) {
    throw new DigestInputError("budget", "a non-negative safe integer", budget);
  }
  if (budget > MAX_DIGEST_BUDGET) throw new DigestLimitError("budget", MAX_DIGEST_BUDGET, budget);
  if (recovery !== "fetch" && recovery !== "pinned") {
    throw new DigestInputError("recovery", '"fetch" or "pinned"', recovery);
  }
  if (!Array.isArray(items)) throw new DigestInputError("items", "an array", items);
  if (items.length > MAX_DIGEST_ITEMS) throw new DigestLimitError("items", MAX_DIGEST_ITEMS, items.length);
  let previous = 0;
  let firstPriority: number | undefined;
  let prioritised = false;
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i];
    if (!isRecord(item)) throw new DigestInputError(itemField(i), "an object", item);
    const { seq, author, body, headline, pinned, priority = 0 } = item;
    if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq <= previous) {
      checkSeq(seq, itemField(i, "seq"), 1);
      throw new DigestInputError(itemField(i, "seq"), `more than the previous seq (${previous})`, seq);
    }
    previous = seq;
    if (typeof author !== "string") throw new DigestInputError(itemField(i, "author"), "a string", author);
    if (typeof body !== "string") throw new DigestInputError(itemField(i, "body"), "a string", body);
    checkOptionalString(headline, i, "headline");
    checkOptionalString(pinned, i, "pinned");
    if (typeof priority !== "number" || !Number.isFinite(priority)) {
      throw new DigestInputError(itemField(i, "priority"), "a finite number", priority);
    }
    firstPriority ??= priority;
    if (priority !== firstPriority) prioritised = true;
  }
  return { items, budget, evicted: checkEvicted(input.evicted), recovery, prioritised };
}
