// The truncation backstop: not a bound, a guard against catastrophe. It keeps the first bytes within the limit and
// says, on one line, that it cut and by how much. What it keeps goes through the one sanitiser, like every text a
// bound hands back; the artifact keeps the raw bytes.
import { sanitizeText } from "@orphus/digest";
import { BoundsOptionError } from "./errors.js";
import { TRUNCATION_BACKSTOP_BYTES } from "./limits.js";
import { LINE_SAFE_PATH, lineUnsafe } from "./lines.js";

/** What the backstop cut. */
export interface BackstopCut {
  /** UTF-8 bytes of the text before the cut. */
  readonly totalBytes: number;
  /** UTF-8 bytes kept (at most the limit). */
  readonly keptBytes: number;
  /** UTF-8 bytes cut: `totalBytes - keptBytes`. */
  readonly cutBytes: number;
}

/** Options of `truncateWithBackstop`. */
export interface BackstopOptions {
  /** The limit in UTF-8 bytes; default TRUNCATION_BACKSTOP_BYTES. */
  readonly maxBytes?: number;
  /** Where the full text is, named in the cut line; null or absent when there is nowhere to point. */
  readonly path?: string | null;
}

/** The text after the backstop, and what it cut (null when it did not fire). */
export interface BackstopResult {
  readonly text: string;
  readonly cut: BackstopCut | null;
}

/** UTF-8 length of `text` (a lone surrogate counts as the 3 bytes of U+FFFD, as Node encodes it). */
function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** The longest prefix of `text` whose UTF-8 encoding fits `maxBytes`, never splitting a code point. */
function prefixWithinBytes(text: string, maxBytes: number): { end: number; bytes: number } {
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    let size = 3;
    let units = 1;
    if (c < 0x80) size = 1;
    else if (c < 0x800) size = 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        size = 4;
        units = 2;
      }
    }
    if (bytes + size > maxBytes) break;
    bytes += size;
    i += units;
  }
  return { end: i, bytes };
}

/** The line the backstop appends; `path` names where the full text is when there is one. */
function cutLine(cut: BackstopCut, maxBytes: number, path: string | null): string {
  const where = path === null ? "" : `; the full output is in ${path}`;
  return `… truncated: ${cut.cutBytes} of ${cut.totalBytes} bytes cut by the ${maxBytes}-byte backstop${where}`;
}

/**
 * `text` sanitised (sanitizeText) when its UTF-8 encoding fits `maxBytes`; else its first bytes within the limit
 * (whole code points), sanitised, and one line saying it was cut and by how much (counted in the raw text, as the
 * artifact holds it). The result is at most `maxBytes` plus that line. Throws BoundsOptionError for a limit that is
 * not a positive integer, or a path that would not show whole on that one line.
 */
export function truncateWithBackstop(text: string, options: BackstopOptions = {}): BackstopResult {
  return cutToBytes(text, options, sanitizeText);
}

/** truncateWithBackstop with `show` applied to what is kept: bounds that sanitised piece by piece pass identity. */
export function cutToBytes(text: string, options: BackstopOptions, show: (kept: string) => string): BackstopResult {
  const maxBytes = options.maxBytes ?? TRUNCATION_BACKSTOP_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new BoundsOptionError("maxBytes", "a positive safe integer", maxBytes);
  }
  const path = options.path ?? null;
  if (path !== null && (typeof path !== "string" || lineUnsafe(path) !== null)) {
    throw new BoundsOptionError("path", LINE_SAFE_PATH, path);
  }
  // A string of n UTF-16 units is at most 3n bytes: short texts skip the count.
  if (text.length * 3 <= maxBytes) return { text: show(text), cut: null };
  const totalBytes = utf8Length(text);
  if (totalBytes <= maxBytes) return { text: show(text), cut: null };
  const { end, bytes } = prefixWithinBytes(text, maxBytes);
  const cut = { totalBytes, keptBytes: bytes, cutBytes: totalBytes - bytes };
  const head = show(text.slice(0, end));
  const line = cutLine(cut, maxBytes, path);
  return { text: head.endsWith("\n") || head === "" ? `${head}${line}` : `${head}\n${line}`, cut };
}
