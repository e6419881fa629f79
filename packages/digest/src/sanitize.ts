// The two ways peer text is made safe to show: content is cleaned (what a reader cannot see is dropped), identities
// are escaped (what a reader cannot see is made visible). Stripping an identity would turn "plan\u200bner" into a
// perfect lookalike of "planner"; escaping keeps them apart.
import { isBreak, isControl, isInvisible, isPairAt, isSpace, isSurrogate } from "./chars.js";
import { BREAK, END, Scanner } from "./scan.js";

/** A character other than printable ASCII and "\n": the text needs the scanner. */
const NOT_PLAIN_ASCII = /[^\x20-\x7e\n]/;

/**
 * Content text made safe to show a model or a terminal: ANSI escape sequences (CSI, OSC, DCS, SOS, PM, APC, the
 * short ESC forms and their 8-bit C1 forms), every other C0 and C1 control but tab, DEL, and every invisible
 * character (format characters and default-ignorables: Unicode tags, zero-width characters, the soft hyphen, bidi
 * controls, variation selectors, …) are dropped; line breaks of every kind (`\r\n`, `\r`, VT, FF, NEL, U+2028, …)
 * become `\n`; a lone surrogate becomes U+FFFD. Everything else, tabs and spaces included, is kept as it is.
 * Idempotent, deterministic, linear in the length of `text`.
 */
export function sanitizeText(text: string): string {
  // Printable ASCII and line feeds are kept as they are: most text is nothing else, and one test answers for it.
  if (!NOT_PLAIN_ASCII.test(text)) return text;
  const scanner = new Scanner(text);
  let out = "";
  for (;;) {
    const token = scanner.next(text.length);
    if (token === END) return out;
    out += token === BREAK ? "\n" : scanner.text;
  }
}

/** Options of `escapeIdentity`. */
export interface EscapeIdentityOptions {
  /** Characters to escape as well, because they delimit the field where the name is shown (e.g. "[] " in a header). */
  readonly also?: string;
  /** Longest result, "…" included: a longer one is cut before an escape or a character, never inside one. */
  readonly maxLength?: number;
}

function escapeCodePoint(cp: number): string {
  return `\\u{${cp.toString(16).toUpperCase()}}`;
}

/** Whether code point `cp` at `index` of a name of `length` units (`units` long) is shown escaped. */
function needsEscape(cp: number, index: number, units: number, length: number, also: string): boolean {
  if (also !== "" && also.includes(String.fromCodePoint(cp))) return true;
  if (cp === 0x20) return index === 0 || index + units === length;
  return isControl(cp) || isBreak(cp) || isSpace(cp) || isInvisible(cp) || isSurrogate(cp) || cp === 0x2026;
}

/**
 * An identity field (an author, a child's or a step's name) as it may be shown: every character a reader could
 * not see or tell apart is made visible as `\u{HEX}` instead of being dropped, so `plan\u200bner` can never pass for
 * `planner`. Escaped: controls, line breaks, white space other than an inner U+0020 (so a trailing space shows),
 * invisible characters (the set `sanitizeText` drops), lone surrogates, `…` (so a cut is unambiguous) and the
 * characters of `options.also`; a backslash is doubled, so no name can spell an escape. Reads no further than
 * `options.maxLength` needs.
 */
export function escapeIdentity(name: string, options: EscapeIdentityOptions = {}): string {
  const also = options.also ?? "";
  const maxLength = options.maxLength ?? Number.POSITIVE_INFINITY;
  let out = "";
  for (let i = 0; i < name.length;) {
    const units = isPairAt(name, i) ? 2 : 1;
    const cp = units === 2 ? (name.codePointAt(i) as number) : name.charCodeAt(i);
    let shown = name.slice(i, i + units);
    if (cp === 0x5c) shown = "\\\\";
    else if (needsEscape(cp, i, units, name.length, also)) shown = escapeCodePoint(cp);
    if (out.length + shown.length > maxLength || (out.length + shown.length === maxLength && i + units < name.length)) {
      return `${out}…`;
    }
    out += shown;
    i += units;
  }
  return out;
}
