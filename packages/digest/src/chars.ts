// Which characters a reader sees. One table for the whole package (and, through sanitizeText and escapeIdentity,
// for every package that shows text to a model or a terminal): what is dropped from content, what starts a line,
// what is a space. Lists are written out rather than taken from the engine's Unicode tables, so that the same input
// gives the same output on every Node version.

/**
 * Line breaks: LF, VT, FF, CR, the file/group/record separators, NEL, LINE and PARAGRAPH SEPARATOR. That is the
 * union of what terminals, JavaScript and Python's str.splitlines treat as a line end, so no reader sees a break
 * that the indentation of continuation lines did not account for.
 */
export function isBreak(c: number): boolean {
  return (c >= 0x0a && c <= 0x0d) || (c >= 0x1c && c <= 0x1e) || c === 0x85 || c === 0x2028 || c === 0x2029;
}

/** White space other than line breaks: tab, space, and the Unicode spaces (Zs). Shown as spaces. */
export function isSpace(c: number): boolean {
  return (
    c === 0x20 ||
    c === 0x09 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** C0 and C1 controls and DEL: never shown as they are (line breaks and tab are handled before this). */
export function isControl(c: number): boolean {
  return c < 0x20 || (c >= 0x7f && c <= 0x9f);
}

/**
 * Invisible characters, as inclusive code point ranges, sorted: every format character (general category Cf) and
 * every default-ignorable code point of Unicode 17. They draw nothing, yet a model reads them: Unicode tags
 * (U+E0000–E007F) spell hidden ASCII, variation selectors (U+FE00–FE0F, U+E0100–E01EF) can carry bytes,
 * zero-width characters (U+200B–200D, U+2060, U+FEFF) and the soft hyphen (U+00AD) split or join words unseen,
 * the bidi controls (U+061C, U+200E/F, U+202A–202E, U+2066–2069) reorder what a terminal shows, and U+206A–206F
 * and the interlinear annotation controls (U+FFF9–FFFB) are deprecated formatting a reader never sees.
 */
export const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x0600, 0x0605],
  [0x061c, 0x061c],
  [0x06dd, 0x06dd],
  [0x070f, 0x070f],
  [0x0890, 0x0891],
  [0x08e2, 0x08e2],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfffb],
  [0x110bd, 0x110bd],
  [0x110cd, 0x110cd],
  [0x13430, 0x1343f],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe0fff],
];

/** Whether code point `cp` is invisible (see INVISIBLE_RANGES). */
export function isInvisible(cp: number): boolean {
  if (cp < 0xad) return false;
  let low = 0;
  let high = INVISIBLE_RANGES.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const [from, to] = INVISIBLE_RANGES[mid] as readonly [number, number];
    if (cp < from) high = mid - 1;
    else if (cp > to) low = mid + 1;
    else return true;
  }
  return false;
}

/** Whether a well-formed surrogate pair starts at `i`. */
export function isPairAt(src: string, i: number): boolean {
  const c = src.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) return false;
  const d = src.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

/** Whether `c` is half of a surrogate pair (a lone one, when isPairAt did not match). */
export function isSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdfff;
}
