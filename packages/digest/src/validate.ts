// renderDigest's bound is only as good as its input's shape: a NaN budget or a non-string body from untyped callers
// would break the arithmetic, so the shape is checked here, in one pass that reads no body. Every field is read
// once and copied into plain data, and only the copy is rendered: a getter that answers differently the second time
// (a seq that moves backwards after it was checked) cannot reach the renderer.
import { isRecord } from "@orphus/internal";
import { DigestInputError, DigestLimitError } from "./errors.js";
import { DEFAULT_DIGEST_BUDGET, MAX_DIGEST_BUDGET, MAX_DIGEST_ITEMS } from "./limits.js";
import type { DigestInput, DigestItem, DigestRecovery, EvictedRange } from "./types.js";

/** Input after checking, defaults applied: plain data, owned by the renderer. */
export interface CheckedInput {
  readonly items: readonly DigestItem[];
  readonly budget: number;
  readonly evicted: EvictedRange | null;
  readonly recovery: DigestRecovery;
  /** Whether any item's priority differs from another's (else the spending order is plain newest-first). */
  readonly prioritised: boolean;
  /** Whether no item may show while one of higher priority is collapsed. */
  readonly strictPriority: boolean;
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

function checkOptionalString(value: unknown, index: number, key: string): string | undefined {
  if (value !== undefined && typeof value !== "string") {
    throw new DigestInputError(itemField(index, key), "a string", value);
  }
  return value;
}

/** One item, read field by field exactly once, as a plain object. */
function copyItem(item: unknown, index: number, previous: number): DigestItem {
  if (!isRecord(item)) throw new DigestInputError(itemField(index), "an object", item);
  const { seq, author, body, headline, pinned, priority = 0 } = item;
  if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq <= previous) {
    checkSeq(seq, itemField(index, "seq"), 1);
    throw new DigestInputError(itemField(index, "seq"), `more than the previous seq (${previous})`, seq);
  }
  if (typeof author !== "string") throw new DigestInputError(itemField(index, "author"), "a string", author);
  if (typeof body !== "string") throw new DigestInputError(itemField(index, "body"), "a string", body);
  const checkedHeadline = checkOptionalString(headline, index, "headline");
  const checkedPinned = checkOptionalString(pinned, index, "pinned");
  if (typeof priority !== "number" || !Number.isFinite(priority)) {
    throw new DigestInputError(itemField(index, "priority"), "a finite number", priority);
  }
  return { seq, author, body, headline: checkedHeadline, pinned: checkedPinned, priority };
}

/** Whether some item's seq lies in [from, to]; `items` ascend by seq. */
function anySeqWithin(items: readonly DigestItem[], from: number, to: number): boolean {
  let low = 0;
  let high = items.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const seq = (items[mid] as DigestItem).seq;
    if (seq < from) low = mid + 1;
    else if (seq > to) high = mid - 1;
    else return true;
  }
  return false;
}

/**
 * The eviction, read once. A range is what @orphus/rooms reports: contiguous (count = toSeq - fromSeq + 1, seqs
 * are never reused) and made of messages the reader can no longer get, so it cannot hold a message being shown.
 */
function checkEvicted(value: unknown, items: readonly DigestItem[]): EvictedRange | null {
  if (value === undefined || value === null) return null;
  if (!isRecord(value)) throw new DigestInputError("evicted", "{ count, fromSeq, toSeq } or null", value);
  const { count: rawCount, fromSeq: rawFrom, toSeq: rawTo } = value;
  const count = checkSeq(rawCount, "evicted.count", 0);
  if (count === 0) return null;
  const fromSeq = checkSeq(rawFrom, "evicted.fromSeq", 1);
  const toSeq = checkSeq(rawTo, "evicted.toSeq", 1);
  if (toSeq < fromSeq) throw new DigestInputError("evicted.toSeq", `at least fromSeq (${fromSeq})`, toSeq);
  if (count !== toSeq - fromSeq + 1) {
    throw new DigestInputError("evicted.count", `toSeq - fromSeq + 1 (${toSeq - fromSeq + 1})`, count);
  }
  if (anySeqWithin(items, fromSeq, toSeq)) {
    throw new DigestInputError("evicted", `a range holding none of the items' seqs (#${fromSeq}–#${toSeq})`, value);
  }
  return { count, fromSeq, toSeq };
}

/**
 * Checks `input` against the documented form and limits and copies it: every field is read once. Throws
 * DigestInputError or DigestLimitError.
 */
export function checkInput(input: DigestInput): CheckedInput {
  if (!isRecord(input)) throw new DigestInputError("input", "an object", input);
  const {
    items: rawItems,
    budget = DEFAULT_DIGEST_BUDGET,
    recovery = "fetch",
    evicted: rawEvicted,
    strictPriority = false,
  } = input;
  if (typeof budget !== "number" || !Number.isSafeInteger(budget) || budget < 0) {
    throw new DigestInputError("budget", "a non-negative safe integer", budget);
  }
  if (budget > MAX_DIGEST_BUDGET) throw new DigestLimitError("budget", MAX_DIGEST_BUDGET, budget);
  if (recovery !== "fetch" && recovery !== "pinned") {
    throw new DigestInputError("recovery", '"fetch" or "pinned"', recovery);
  }
  if (typeof strictPriority !== "boolean") throw new DigestInputError("strictPriority", "a boolean", strictPriority);
  if (!Array.isArray(rawItems)) throw new DigestInputError("items", "an array", rawItems);
  const length: unknown = rawItems.length;
  if (typeof length !== "number" || length > MAX_DIGEST_ITEMS) {
    throw new DigestLimitError("items", MAX_DIGEST_ITEMS, Number(length));
  }
  const items = new Array<DigestItem>(length);
  let previous = 0;
  let prioritised = false;
  for (let i = 0; i < length; i++) {
    const item = copyItem(rawItems[i], i, previous);
    items[i] = item;
    previous = item.seq;
    if (item.priority !== (items[0] as DigestItem).priority) prioritised = true;
  }
  return { items, budget, evicted: checkEvicted(rawEvicted, items), recovery, prioritised, strictPriority };
}
