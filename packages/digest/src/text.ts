// Turning untrusted strings into the pieces of a digest. Every function reads lazily through `Scanner` and stops
// once it knows its answer, so a 100 KB body costs what the budget lets through, not its size.
import {
  AUTHOR_MAX_LENGTH,
  FULL_SCAN_RATIO,
  FULL_SCAN_SLACK,
  HEADLINE_MAX_LENGTH,
  LINE_SCAN_LIMIT,
  PINNED_LINE_MAX_LENGTH,
} from "./limits.js";
import { BREAK, END, SPACE, Scanner } from "./scan.js";

/** Continuation lines of a body start with this, so no body line can pass for a header, a stub or the marker. */
export const CONTINUATION_INDENT = "  ";

/**
 * A body as it appears after its header: sanitised, leading and trailing blank space dropped, trailing spaces of
 * each line dropped, runs of blank lines kept as one, every line after the first indented. Returns null as soon as
 * the result would be longer than `max`, and at once when `scanLimited` and the raw body is longer than
 * FULL_SCAN_RATIO * max + FULL_SCAN_SLACK.
 */
export function renderBody(body: string, max: number, scanLimited: boolean): string | null {
  if (scanLimited && body.length > FULL_SCAN_RATIO * Math.max(0, max) + FULL_SCAN_SLACK) return null;
  const scanner = new Scanner(body);
  let out = "";
  let started = false;
  let breaks = 0;
  let spaces = 0;
  for (;;) {
    const token = scanner.next(max - out.length + 1);
    if (token === END) return out;
    if (token === SPACE) {
      if (started) spaces++;
    } else if (token === BREAK) {
      if (started) {
        breaks++;
        spaces = 0;
      }
    } else {
      if (started) {
        const added = breaks === 0 ? spaces : Math.min(breaks, 2) + CONTINUATION_INDENT.length + spaces;
        if (out.length + added > max) return null;
        if (breaks > 0) out += (breaks > 1 ? "\n\n" : "\n") + CONTINUATION_INDENT;
        out += " ".repeat(spaces);
      }
      started = true;
      breaks = 0;
      spaces = 0;
      out += scanner.text;
      if (out.length > max) return null;
    }
  }
}

/**
 * The text on one line with runs of blank space as single spaces, trimmed: up to the first line break that follows
 * some text when `firstLineOnly`, else across breaks. Reads the first LINE_SCAN_LIMIT characters of `src` at most,
 * and only about `max` + 1 characters of output, enough for `cutAtWord(…, max)` to answer as on the whole line.
 */
function oneLine(src: string, max: number, firstLineOnly: boolean): string {
  const scanner = new Scanner(src, LINE_SCAN_LIMIT);
  let out = "";
  let space = false;
  for (;;) {
    const token = scanner.next(max + 1 - out.length);
    if (token === END) return out;
    if (token === SPACE || token === BREAK) {
      if (out === "") continue;
      if (token === BREAK && firstLineOnly) return out;
      space = true;
    } else {
      if (space) out += " ";
      space = false;
      out += scanner.text;
      if (out.length > max) return out;
    }
  }
}

/**
 * `text` when it has at most `max` characters; else cut to fit with "…", at the last space in the second half if
 * there is one, never between the halves of a surrogate pair.
 */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  let keep = max - 1;
  const before = text.charCodeAt(keep - 1);
  if (before >= 0xd800 && before <= 0xdbff) keep--;
  const space = text.lastIndexOf(" ", keep);
  if (space >= Math.ceil(max / 2)) return `${text.slice(0, space)}…`;
  return `${text.slice(0, keep)}…`;
}

function labelChar(c: string): string {
  return c === "[" ? "(" : c === "]" ? ")" : "_";
}

/**
 * An author as shown inside a header: one line, brackets turned to parentheses and any white space to "_" (so the
 * label is one word that cannot close the header early), "?" when empty.
 */
export function authorLabel(author: string): string {
  const label = oneLine(author, AUTHOR_MAX_LENGTH, false).replace(/[[\]\s]/g, labelChar);
  return label === "" ? "?" : cutAtWord(label, AUTHOR_MAX_LENGTH);
}

/** A headline's text: the declared one if it has any visible text, else the body's first non-empty line. */
export function headlineText(headline: string | undefined, body: string): string {
  const declared = headline === undefined ? "" : oneLine(headline, HEADLINE_MAX_LENGTH, false);
  const text = declared !== "" ? declared : oneLine(body, HEADLINE_MAX_LENGTH, true);
  return cutAtWord(text, HEADLINE_MAX_LENGTH);
}

/**
 * A pinned stub as shown: one line, never starting with a space (it would read as part of the message above) nor
 * with "[" (escaped as "\[", so it cannot pass for a header or the marker). Empty when it has no visible text.
 */
export function pinnedLine(pinned: string): string {
  const line = oneLine(pinned, PINNED_LINE_MAX_LENGTH, false);
  return cutAtWord(line.startsWith("[") ? `\\${line}` : line, PINNED_LINE_MAX_LENGTH);
}
