// What a child or a step hands back, and the small text operations every bound shares.
import { BoundsInputError, BoundsOptionError } from "./errors.js";
import { MAX_DIGEST_BUDGET } from "@orphus/digest";
import { isHighSurrogate, isLowSurrogate } from "@orphus/internal";

/** A child's output or error detail: text, or the exact bytes it wrote (kept byte for byte in its artifact). */
export type OutputContent = string | Uint8Array;

const decoder = new TextDecoder("utf-8");

/** The text of `content`; bytes decode as UTF-8, invalid sequences as U+FFFD (the artifact keeps the bytes). */
export function textOf(content: OutputContent): string {
  return typeof content === "string" ? content : decoder.decode(content);
}

/** Throws BoundsInputError unless `value` is a string or a Uint8Array. */
export function checkContent(value: unknown, field: string): OutputContent {
  if (typeof value === "string" || value instanceof Uint8Array) return value;
  throw new BoundsInputError(field, "a string or a Uint8Array", value);
}

/** Throws BoundsInputError unless `value` is a string. */
export function checkString(value: unknown, field: string): string {
  if (typeof value === "string") return value;
  throw new BoundsInputError(field, "a string", value);
}

/** A budget option: `fallback` when absent, else an integer from 0 to MAX_DIGEST_BUDGET. */
export function checkBudget(value: unknown, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0 || value > MAX_DIGEST_BUDGET) {
    throw new BoundsOptionError(option, `an integer from 0 to ${MAX_DIGEST_BUDGET}`, value);
  }
  return value;
}

/** `end`, moved back one when it would split a surrogate pair. */
export function pairSafeEnd(text: string, end: number): number {
  const splits =
    end > 0 && end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end));
  return splits ? end - 1 : end;
}

/** `start`, moved on one when it would split a surrogate pair. */
function pairSafeStart(text: string, start: number): number {
  return start > 0 &&
    start < text.length &&
    isHighSurrogate(text.charCodeAt(start - 1)) &&
    isLowSurrogate(text.charCodeAt(start))
    ? start + 1
    : start;
}

/** Text kept as it is. */
function unchanged(text: string): string {
  return text;
}

/** How a head-and-tail cut went. */
export interface HeadTailCut {
  /** The head, the pointer line and the tail, joined by line breaks; `text` itself when it fit. */
  readonly text: string;
  /** Characters left out between head and tail; 0 when nothing was cut. */
  readonly cutChars: number;
}

/**
 * `text` when it has at most `budget` characters; else its head and tail, at most `budget` characters together,
 * with `pointer(cutChars)` on its own line between them. Each end is cut at a line break when one lies in the last
 * quarter of its share, and never inside a surrogate pair. Reads about `budget` characters, whatever the length.
 * `show` is applied to the text kept (the whole text, or head and tail apart): a bound passes the sanitiser, which
 * only ever shortens, so the pieces shown cost no more than the budget and only what is shown is read.
 */
export function headAndTail(
  text: string,
  budget: number,
  pointer: (cutChars: number) => string,
  show: (kept: string) => string = unchanged,
): HeadTailCut {
  if (text.length <= budget) return { text: show(text), cutChars: 0 };
  const headShare = Math.ceil(budget / 2);
  const tailShare = budget - headShare;
  let headEnd = pairSafeEnd(text, headShare);
  const lineEnd = headEnd > 0 ? text.lastIndexOf("\n", headEnd - 1) : -1;
  if (lineEnd >= 0 && lineEnd >= headEnd - Math.floor(headShare / 4)) headEnd = lineEnd;
  let tailStart = pairSafeStart(text, text.length - tailShare);
  const window = Math.floor(tailShare / 4);
  const lineStart = text.slice(tailStart, tailStart + window).indexOf("\n");
  if (lineStart >= 0) tailStart += lineStart + 1;
  const parts = [show(text.slice(0, headEnd)), pointer(tailStart - headEnd), show(text.slice(tailStart))].filter(
    (p) => p !== "",
  );
  return { text: parts.join("\n"), cutChars: tailStart - headEnd };
}
