// The one place that decides what of a peer's text may reach a reader. Everything shown passes through `Scanner`,
// which yields printable runs, spaces and line breaks, and drops the rest: C0 and C1 controls, DEL, ANSI escape
// sequences (CSI, OSC, DCS, SOS, PM, APC and the short ESC forms), and invisible characters (format characters and
// default-ignorables, bidi controls among them: see chars.ts). Lone surrogates become U+FFFD, so a text run never
// holds half a pair.
import { INVISIBLE_RANGES, isBreak, isInvisible, isPairAt, isSpace, isSurrogate } from "./chars.js";
import { keepShape, Shape } from "./shapes.js";

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

/** `\uXXXX` for a regular expression's source. */
function unit(c: number): string {
  return `\\u${c.toString(16).padStart(4, "0")}`;
}

/** Line breaks as a regular expression's class body: what isBreak accepts. */
const BREAKS = "\\n\\v\\f\\r\\x1c-\\x1e\\x85\\u2028\\u2029";

/** Inclusive ranges of BMP units as a regular expression's class body. */
function classBody(ranges: readonly (readonly [number, number])[]): string {
  return ranges.map(([from, to]) => (from === to ? unit(from) : `${unit(from)}-${unit(to)}`)).join("");
}

/** INVISIBLE_RANGES as a class body (the BMP ranges) and as pair alternatives (the astral ones). */
function invisibleSource(): { bmp: string; pairs: string[] } {
  const bmp = classBody(INVISIBLE_RANGES.filter(([, to]) => to <= 0xffff));
  const pairs: string[] = [];
  for (const [from, to] of INVISIBLE_RANGES) {
    if (to <= 0xffff) continue;
    // An astral range as pairs: one alternative per high surrogate, its low surrogates as a range.
    for (let cp = from; cp <= to;) {
      const high = 0xd800 + ((cp - 0x10000) >> 10);
      const last = Math.min(to, 0x10000 + ((high - 0xd800 + 1) << 10) - 1);
      const low = (point: number): number => 0xdc00 + ((point - 0x10000) & 0x3ff);
      pairs.push(`${unit(high)}[${unit(low(cp))}-${unit(low(last))}]`);
      cp = last + 1;
    }
  }
  return { bmp, pairs };
}

/** Most dropped pieces one match skips: bounds the engine's backtracking state, whatever the input's length. */
const DROPPED_PER_MATCH = 1024;

/** The C0 and C1 controls and DEL dropped on their own: all but tab, the line breaks and what starts an escape. */
const LONE_CONTROLS: readonly (readonly [number, number])[] = [
  [0x00, 0x08],
  [0x0e, 0x1a],
  [0x1f, 0x1f],
  [0x7f, 0x84],
  [0x86, 0x8f],
  [0x91, 0x97],
  [0x99, 0x9a],
  [0x9c, 0x9c],
];

/**
 * 1 for each UTF-16 unit dropped on its own (LONE_CONTROLS and the invisible BMP characters), else 0. Runs of them
 * are passed over by a loop over this table: the pattern's class of them, dozens of ranges, costs many times more.
 */
const DROPPED_UNIT = (() => {
  const table = new Uint8Array(0x10000);
  for (const [from, to] of [...LONE_CONTROLS, ...INVISIBLE_RANGES]) if (to <= 0xffff) table.fill(1, from, to + 1);
  return table;
})();

/**
 * What a reader never sees, as one sticky pattern matching a run of dropped pieces, each read as a terminal reads
 * it: an escape sequence (CSI with its parameters and final byte; OSC, DCS, SOS, PM and APC up to BEL, ST, a bare
 * ESC or a line break; the short forms with their intermediates and final; else a lone ESC), the 8-bit CSI and
 * control strings, any other C0 or C1 control but tab and the line breaks, DEL, and every invisible character.
 * Parameters and finals, intermediates and finals, a string's body and its terminators are disjoint sets, so the
 * pattern never backtracks into another reading of a piece. The engine runs it natively: escape-heavy input costs a
 * fraction of a character-by-character loop.
 */
const DROPPED = (() => {
  const { bmp, pairs } = invisibleSource();
  const controlString = `[^\\x07\\x9c\\x1b${BREAKS}]*(?:[\\x07\\x9c]|\\x1b\\\\)?`;
  const piece = [
    `\\x1b(?:\\[[\\x20-\\x3f]*[\\x40-\\x7e]?|[\\]PX^_]${controlString}|[\\x20-\\x2f]*[\\x30-\\x7e])?`,
    "\\x9b[\\x20-\\x3f]*[\\x40-\\x7e]?",
    `[\\x90\\x98\\x9d-\\x9f]${controlString}`,
    `[${classBody(LONE_CONTROLS)}${bmp}]`,
    ...pairs,
  ];
  return new RegExp(`(?:${piece.join("|")}){0,${DROPPED_PER_MATCH}}`, "y");
})();

/**
 * The index after the run of dropped pieces starting at `i` (one of them starts there): units dropped on their own
 * by the table, escape sequences and invisible pairs by the pattern, in turn until neither matches. Linear in the
 * run's length. At least `i` + 1, which is how far a single dropped unit reaches, should the pattern ever not match.
 */
function skipDropped(src: string, i: number): number {
  const length = src.length;
  let pos = i;
  for (;;) {
    while (pos < length && DROPPED_UNIT[src.charCodeAt(pos)] === 1) pos++;
    DROPPED.lastIndex = pos;
    DROPPED.test(src);
    if (DROPPED.lastIndex <= pos) return Math.max(pos, i + 1);
    pos = DROPPED.lastIndex;
  }
}

/** Whether what starts at `i` (unit `c`) is dropped: neither shown, nor white space, nor a line break. */
function isDroppedAt(src: string, i: number, c: number): boolean {
  if ((c > 0x20 && c < 0x7f) || isPlain(c) || isSpace(c) || isBreak(c)) return false;
  if (isSurrogate(c)) return isPairAt(src, i) && isInvisible(src.codePointAt(i) as number);
  return true;
}

/** Runs that may be longer than this are matched natively first (ASCII_RUN); shorter cuts cost less in the loop. */
const NATIVE_RUN_MIN = 64;

/** Printable ASCII words with single spaces between them: most of any text. The match reads a whole run. */
const ASCII_RUN = /[\x21-\x7e]+(?: [\x21-\x7e]+)*/y;

/** How far past `stop` a match may read: beyond that, it reads a slice that ends at `stop`. */
const NATIVE_RUN_OVERREAD = 4096;

/**
 * Where the loop in `Scanner.next` gets to from `start` (before `stop`) by printable ASCII characters and single
 * spaces followed by one: what the pattern matches, cut at `stop` as the loop cuts it (a space just before `stop`
 * is not taken, its follower lying beyond). The loop goes on from there with everything else. A run that goes on
 * far past `stop` is matched in a slice, so a long line cut into many runs is not read again for each.
 */
function asciiRunEnd(src: string, start: number, stop: number): number {
  if (src.length - stop > NATIVE_RUN_OVERREAD) {
    ASCII_RUN.lastIndex = 0;
    return ASCII_RUN.test(src.slice(start, stop)) ? start + ASCII_RUN.lastIndex : start;
  }
  ASCII_RUN.lastIndex = start;
  if (!ASCII_RUN.test(src)) return start;
  const end = ASCII_RUN.lastIndex;
  if (end <= stop) return end;
  return src.charCodeAt(stop - 1) === 0x20 ? stop - 1 : stop;
}

/** Reads untrusted text token by token, so callers stop as soon as they have what the budget allows. */
export class Scanner {
  private pos = 0;
  /** Index in the input where the last token starts. */
  start = 0;
  /** Index in the input after the last token: a TEXT run is `start` to `end` (unless it is U+FFFD for a surrogate). */
  end = 0;
  /** Whether the last TEXT token is U+FFFD standing for a lone surrogate. */
  private replaced = false;
  /** Line breaks in the run the last `skipBlank` passed over, up to 2 (a reader sees a break or a blank line). */
  breaks = 0;
  /** White space characters after the last line break of that run (all of them when it held none). */
  spaces = 0;
  /** Whether input the sanitiser drops was passed over since the scanner started. */
  skipped = false;

  private readonly src: string;

  /** Reads `text` up to `limit` characters (one more if that would split a surrogate pair). */
  constructor(text: string, limit: number = text.length) {
    keepShape(Shape.Scanner, this);
    this.src = text.length <= limit ? text : text.slice(0, isPairAt(text, limit - 1) ? limit + 1 : limit);
  }

  /** Index in the input of the first character not read yet. */
  get position(): number {
    return this.pos;
  }

  /**
   * The characters of the last TEXT token, or the white space character of the last SPACE token. Built on demand:
   * a caller that only measures a run (`end - start` characters, one for U+FFFD) builds no string.
   */
  get text(): string {
    return this.replaced ? "\uFFFD" : this.src.slice(this.start, this.end);
  }

  /** The next token; a TEXT run holds at most about `maxChars` units (one more to finish a surrogate pair). */
  next(maxChars: number): Token {
    const src = this.src;
    const length = src.length;
    let pos = this.pos;
    while (pos < length) {
      const start = pos;
      const c = src.charCodeAt(start);
      if ((c > 0x20 && c < 0x7f) || isPlain(c) || isVisiblePairAt(src, start)) {
        const stop = Math.min(length, start + Math.max(1, maxChars));
        let end = stop - start > NATIVE_RUN_MIN ? asciiRunEnd(src, start, stop) : start;
        while (end < stop) {
          const d = src.charCodeAt(end);
          if (d > 0x20 && d < 0x7f)
            end++; // printable ASCII, the common case, without a call
          else if (isPlain(d)) end++;
          else if (isVisiblePairAt(src, end)) end += 2;
          // A single space between printable characters stays in the run: callers treat it as they would a SPACE
          // token there (kept, one space), and prose costs one token a line rather than two a word.
          else if (d === 0x20 && end + 1 < stop && isPlain(src.charCodeAt(end + 1))) end += 2;
          else break;
        }
        return this.token(TEXT, start, end, false);
      }
      if (isSpace(c)) return this.token(SPACE, start, start + 1, false);
      if (isBreak(c)) {
        const crlf = c === 0x0d && src.charCodeAt(start + 1) === 0x0a;
        return this.token(BREAK, start, crlf ? start + 2 : start + 1, false);
      }
      if (isSurrogate(c) && !isPairAt(src, start)) return this.token(TEXT, start, start + 1, true);
      pos = skipDropped(src, start); // escape sequences, controls, invisible characters: as many as follow
      this.skipped = true;
    }
    this.pos = length;
    this.start = length;
    this.end = length;
    return END;
  }

  /**
   * Passes over the blank run from the position on, what `next` would return as SPACE and BREAK tokens and what it
   * skips, in one loop (thousands of blank lines cost a pass, not a token each), and counts it in `breaks` and
   * `spaces`.
   */
  skipBlank(): void {
    const src = this.src;
    const length = src.length;
    let pos = this.pos;
    let breaks = 0;
    let spaces = 0;
    while (pos < length) {
      const c = src.charCodeAt(pos);
      if (isSpace(c)) {
        spaces++;
        pos++;
      } else if (isBreak(c)) {
        if (breaks < 2) breaks++;
        spaces = 0;
        pos += c === 0x0d && src.charCodeAt(pos + 1) === 0x0a ? 2 : 1;
      } else if (isDroppedAt(src, pos, c)) {
        pos = skipDropped(src, pos);
        this.skipped = true;
      } else break;
    }
    this.pos = pos;
    this.breaks = breaks;
    this.spaces = spaces;
  }

  private token(token: Token, start: number, end: number, replaced: boolean): Token {
    this.start = start;
    this.end = end;
    this.pos = end;
    this.replaced = replaced;
    return token;
  }
}
