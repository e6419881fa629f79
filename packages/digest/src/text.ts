// Turning untrusted strings into the one-line pieces of a digest: headlines, author labels, pinned stubs. Every
// function reads lazily through `Scanner` and stops once it knows its answer (bodies are body.ts's).
import { AUTHOR_MAX_LENGTH, HEADLINE_MAX_LENGTH, LINE_SCAN_LIMIT, PINNED_LINE_MAX_LENGTH } from "./limits.js";
import { escapeIdentity } from "./sanitize.js";
import { BREAK, END, SPACE, Scanner } from "./scan.js";

/**
 * Whether the last line read (headlineLine) passed over input the sanitiser drops. Only then can its read, cut at
 * LINE_SCAN_LIMIT, show what the whole text hides (an escape sequence cut open shows its intermediates), so a line
 * read without it opens the whole text's first line.
 */
export let lineSkippedInput = false;

/** Where the last line read (headlineLine) ended at a line break: the index after that break; -1 when it did not. */
export let lineBreakEnd = -1;

/**
 * The text on one line, trimmed: up to the first line break that follows some text when `firstLineOnly`, else
 * across breaks. Between text, a run of white space and line breaks is one space when `squeeze`, else one space for
 * each white space character and each line break (a stub's spaces are part of the names in it). Reads the first
 * LINE_SCAN_LIMIT characters of `src` at most, and only about `max` + 1 characters of output, enough for
 * `cutAtWord(…, max)` to answer as on the whole line.
 */
function oneLine(src: string, max: number, firstLineOnly: boolean, squeeze = true): string {
  const scanner = new Scanner(src, LINE_SCAN_LIMIT);
  let out = "";
  let spaces = 0;
  let breakEnd = -1;
  for (;;) {
    const token = scanner.next(max + 1 - out.length);
    if (token === END) break;
    if (token === SPACE || token === BREAK) {
      if (out === "") continue;
      if (token === BREAK && firstLineOnly) {
        breakEnd = scanner.position;
        break;
      }
      spaces = squeeze ? 1 : spaces + 1;
    } else {
      // Spaces owed beyond what can show are not written: out passes max either way.
      if (spaces > 0) out += " ".repeat(Math.min(spaces, max + 1 - out.length));
      spaces = 0;
      out += scanner.text;
      if (out.length > max) break;
    }
  }
  lineSkippedInput = scanner.skipped;
  lineBreakEnd = breakEnd;
  return out;
}

/**
 * A headline's raw material: the first line with visible text of `src` (or all of it on one line when not
 * `firstLineOnly`), white space squeezed, read from its first LINE_SCAN_LIMIT characters, at most
 * HEADLINE_MAX_LENGTH + 1 characters long ("" when there is no visible text). With a smaller `max`, reading stops
 * once the line is longer than `max`: a result of at most `max` characters is the whole line.
 */
export function headlineLine(src: string, firstLineOnly: boolean, max: number = HEADLINE_MAX_LENGTH): string {
  return oneLine(src, Math.min(max, HEADLINE_MAX_LENGTH), firstLineOnly);
}

/**
 * `text` when it has at most `max` characters; else cut to fit with "…", at the last space in the second half if
 * there is one, never between the halves of a surrogate pair ("" when `max` is not positive). The digest's cut of a
 * line (headlines, stubs), exported so that packages cutting a sanitised line cut it the same way.
 */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  if (!(max > 0)) return "";
  let keep = max - 1;
  const before = text.charCodeAt(keep - 1);
  if (before >= 0xd800 && before <= 0xdbff) keep--;
  const space = text.lastIndexOf(" ", keep);
  if (space >= Math.ceil(max / 2)) return `${text.slice(0, space)}…`;
  return `${text.slice(0, keep)}…`;
}

/**
 * An author as shown inside a header: escaped (escapeIdentity) with white space and brackets escaped as well, so
 * the label is one word that cannot close the header early nor pass for another name; "?" when empty.
 */
export function authorLabel(author: string): string {
  if (author === "") return "?";
  return escapeIdentity(author, { also: " []", maxLength: AUTHOR_MAX_LENGTH });
}

/** The headline shown for a message whose first LINE_SCAN_LIMIT characters hold no visible text. */
export function noTextHeadline(bodyLength: number): string {
  if (bodyLength <= LINE_SCAN_LIMIT) return "(no visible text)";
  return `(no visible text in its first ${LINE_SCAN_LIMIT} characters)`;
}

/**
 * A headline's text from its raw material (headlineLine of the declared headline if it has visible text, else of
 * the body): cut at a word to HEADLINE_MAX_LENGTH, or a placeholder saying there is no visible text.
 */
export function headlineText(line: string, bodyLength: number): string {
  return line === "" ? noTextHeadline(bodyLength) : cutAtWord(line, HEADLINE_MAX_LENGTH);
}

/**
 * A pinned stub as shown: one line, never starting with a space (it would read as part of the message above) nor
 * with "[" (escaped as "\[", so it cannot pass for a header or the marker). Empty when it has no visible text. Its
 * spaces are not squeezed: `tester  x` in a stub is not shown as `tester x`, so a name escaped by escapeIdentity
 * (which keeps inner spaces) never passes for another.
 */
export function pinnedLine(pinned: string): string {
  const line = oneLine(pinned, PINNED_LINE_MAX_LENGTH, false, false);
  return cutAtWord(line.startsWith("[") ? `\\${line}` : line, PINNED_LINE_MAX_LENGTH);
}
