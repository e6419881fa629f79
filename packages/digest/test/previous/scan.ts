// A frozen copy of src/scan.ts as it was before the digest was made fast (issue 13's follow-up): the oracle that
// test/differential.test.ts compares the optimised renderer with. Keep it as it is; it shares with src/ only the
// modules the speed work left alone.
// The one place that decides what of a peer's text may reach a reader. Everything shown passes through `Scanner`,
// which yields printable runs, spaces and line breaks, and drops the rest: C0 and C1 controls, DEL, ANSI escape
// sequences (CSI, OSC, DCS, SOS, PM, APC and the short ESC forms), and invisible characters (format characters and
// default-ignorables, bidi controls among them: see chars.ts). Lone surrogates become U+FFFD, so a text run never
// holds half a pair.
import { isBreak, isInvisible, isPairAt, isSpace, isSurrogate } from "../../src/chars.js";

/** No more input. */
export const END = 0;
/** A run of printable characters (single spaces between them included), in `Scanner.text`. */
export const TEXT = 1;
/** One space: a tab or any other white space that is not a line break; the character is in `Scanner.text`. */
export const SPACE = 2;
/** One line break: \n, \r\n, \r, and every other character a reader might take as one. */
export const BREAK = 3;

export type Token = typeof END | typeof TEXT | typeof SPACE | typeof BREAK;

/** A UTF-16 unit that is shown as it is (surrogates excluded: pairs are checked separately). */
function isPlain(c: number): boolean {
  if (c > 0x20 && c < 0x7f) return true;
  if (c < 0xa0 || isSurrogate(c)) return false;
  return !(isSpace(c) || c === 0x2028 || c === 0x2029 || isInvisible(c));
}

/** Whether a visible astral character (a well-formed pair, not an invisible one) starts at `i`. */
function isVisiblePairAt(src: string, i: number): boolean {
  return isPairAt(src, i) && !isInvisible(src.codePointAt(i) as number);
}

/** Skips the parameters and final byte of a control sequence (after ESC [ or CSI). */
function skipCsi(src: string, i: number): number {
  let j = i;
  while (j < src.length) {
    const c = src.charCodeAt(j);
    if (c < 0x20 || c > 0x3f) break;
    j++;
  }
  const final = src.charCodeAt(j);
  return final >= 0x40 && final <= 0x7e ? j + 1 : j;
}

/**
 * Skips a control string (after ESC ] / P / X / ^ / _ or their C1 forms) up to its terminator: BEL, ST (ESC \ or
 * U+009C), a bare ESC (which aborts it), or a line break (kept, so an unterminated string cannot eat the message).
 */
function skipControlString(src: string, i: number): number {
  for (let j = i; j < src.length; j++) {
    const c = src.charCodeAt(j);
    if (c === 0x07 || c === 0x9c) return j + 1;
    if (c === 0x1b) return src.charCodeAt(j + 1) === 0x5c ? j + 2 : j;
    if (isBreak(c)) return j;
  }
  return src.length;
}

/** Skips an escape sequence starting at the ESC at `i`; a lone ESC is dropped and what follows it kept. */
function skipEscape(src: string, i: number): number {
  const c = src.charCodeAt(i + 1);
  if (c === 0x5b) return skipCsi(src, i + 2);
  if (c === 0x5d || c === 0x50 || c === 0x58 || c === 0x5e || c === 0x5f) return skipControlString(src, i + 2);
  let j = i + 1;
  while (j < src.length && src.charCodeAt(j) >= 0x20 && src.charCodeAt(j) <= 0x2f) j++;
  const final = src.charCodeAt(j);
  return final >= 0x30 && final <= 0x7e ? j + 1 : i + 1;
}

/** Reads untrusted text token by token, so callers stop as soon as they have what the budget allows. */
export class Scanner {
  private pos = 0;
  /** The characters of the last TEXT token, or the white space character of the last SPACE token. */
  text = "";
  /** Index in the input where the last token starts. */
  start = 0;

  private readonly src: string;

  /** Reads `text` up to `limit` characters (one more if that would split a surrogate pair). */
  constructor(text: string, limit: number = text.length) {
    this.src = text.length <= limit ? text : text.slice(0, isPairAt(text, limit - 1) ? limit + 1 : limit);
  }

  /** Index in the input of the first character not read yet. */
  get position(): number {
    return this.pos;
  }

  /** The next token; a TEXT run holds at most about `maxChars` units (one more to finish a surrogate pair). */
  next(maxChars: number): Token {
    const src = this.src;
    const length = src.length;
    while (this.pos < length) {
      const start = this.pos;
      this.start = start;
      const c = src.charCodeAt(start);
      if (isPlain(c) || isVisiblePairAt(src, start)) {
        const stop = Math.min(length, start + Math.max(1, maxChars));
        let end = start;
        while (end < stop) {
          const d = src.charCodeAt(end);
          if (d > 0x20 && d < 0x7f) end++; // printable ASCII, the common case, without a call
          else if (isPlain(d)) end++;
          else if (isVisiblePairAt(src, end)) end += 2;
          // A single space between printable characters stays in the run: callers treat it as they would a SPACE
          // token there (kept, one space), and prose costs one token a line rather than two a word.
          else if (d === 0x20 && end + 1 < stop && isPlain(src.charCodeAt(end + 1))) end += 2;
          else break;
        }
        this.pos = end;
        this.text = src.slice(start, end);
        return TEXT;
      }
      if (isSpace(c)) {
        this.pos++;
        this.text = src[start] as string;
        return SPACE;
      }
      if (isBreak(c)) {
        this.pos += c === 0x0d && src.charCodeAt(start + 1) === 0x0a ? 2 : 1;
        return BREAK;
      }
      if (isPairAt(src, start)) this.pos += 2; // an invisible astral character
      else if (isSurrogate(c)) {
        this.pos++;
        this.text = "\uFFFD";
        return TEXT;
      } else if (c === 0x1b) this.pos = skipEscape(src, start);
      else if (c === 0x9b) this.pos = skipCsi(src, start + 1);
      else if (c === 0x90 || c === 0x98 || c === 0x9d || c === 0x9e || c === 0x9f) {
        this.pos = skipControlString(src, start + 1);
      } else this.pos++; // another control or an invisible character
    }
    this.start = length;
    return END;
  }
}
