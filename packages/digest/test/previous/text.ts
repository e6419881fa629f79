// A frozen copy of src/text.ts as it was before the digest was made fast (issue 13's follow-up): the oracle that
// test/differential.test.ts compares the optimised renderer with. Keep it as it is; it shares with src/ only the
// modules the speed work left alone.
// Turning untrusted strings into the pieces of a digest. Every function reads lazily through `Scanner` and stops
// once it knows its answer, so a 100 KB body costs what the budget lets through, not its size.
import { CONTINUATION_INDENT, type RenderedBody } from "../../src/body.js";
import { HEADLINE_MAX_LENGTH, LINE_SCAN_LIMIT, PINNED_LINE_MAX_LENGTH } from "../../src/limits.js";
import { cutAtWord } from "../../src/text.js";
import { BREAK, END, SPACE, Scanner } from "./scan.js";

export { authorLabel, headlineText } from "../../src/text.js";

/**
 * A body as it appears after its header: sanitised, leading and trailing blank space dropped, trailing spaces of
 * each line dropped, runs of blank lines kept as one, every line after the first indented, white space as plain
 * spaces. Reads the raw body up to `rawLimit` characters, and stops once the rendering is longer than `max`.
 */
export function renderBody(body: string, max: number, rawLimit: number = body.length): RenderedBody {
  const scanner = new Scanner(body, rawLimit);
  const runs: number[] = [];
  let out = "";
  let started = false;
  let breaks = 0;
  let spaces = 0;
  for (;;) {
    const token = scanner.next(max - out.length + 1);
    if (token === END) {
      const complete = rawLimit >= body.length && out.length <= max;
      return { text: out, complete, runs, rawLength: body.length };
    }
    if (token === SPACE) {
      if (started) spaces++;
    } else if (token === BREAK) {
      if (started) {
        breaks++;
        spaces = 0;
      }
    } else {
      if (started) {
        if (breaks > 0) out += (breaks > 1 ? "\n\n" : "\n") + CONTINUATION_INDENT;
        out += " ".repeat(spaces);
      }
      started = true;
      breaks = 0;
      spaces = 0;
      runs.push(out.length, scanner.start);
      out += scanner.text;
      if (out.length > max) return { text: out, complete: false, runs, rawLength: body.length };
    }
  }
}

/** An opening of a rendered body: its text and how many raw characters of the body follow it. */
export interface Opening {
  readonly text: string;
  /** Raw characters of the body after the last one shown. */
  readonly rest: number;
}

function isCutPoint(c: string | undefined): boolean {
  return c === " " || c === "\n";
}

/** How far back from its end an opening looks for a word or line end to stop at, before cutting a word. */
const WORD_CUT_WINDOW = 16;

/**
 * The longest opening of `body` (rendered) of at most `max` characters, cut at a safe boundary: at a word or line
 * end when one lies within WORD_CUT_WINDOW characters of the limit, else after a whole character; never inside a
 * surrogate pair, never ending in blank space. Null when it would be shorter than `min`.
 */
export function openingOf(body: RenderedBody, max: number, min: number): Opening | null {
  const text = body.text;
  if (max < min) return null;
  let end = Math.min(max, text.length);
  if (end < text.length && !isCutPoint(text[end])) {
    let space = end - 1;
    while (space > end - WORD_CUT_WINDOW && space >= 0 && !isCutPoint(text[space])) space--;
    if (space > end - WORD_CUT_WINDOW && space >= 0) end = space;
    else {
      const before = text.charCodeAt(end - 1);
      if (before >= 0xd800 && before <= 0xdbff) end--;
    }
  }
  while (end > 0 && isCutPoint(text[end - 1])) end--;
  if (end < min) return null;
  // The raw position after the last character shown: inside the run that holds it, one unit per unit.
  const runs = body.runs;
  let k = runs.length - 2;
  while (k > 0 && (runs[k] as number) >= end) k -= 2;
  const rawEnd = (runs[k + 1] as number) + (end - (runs[k] as number));
  return { text: text.slice(0, end), rest: body.rawLength - rawEnd };
}

/**
 * The text on one line with runs of blank space as single spaces, trimmed: up to the first line break that follows
 * some text when `firstLineOnly`, else across breaks. Reads the first LINE_SCAN_LIMIT characters of `src` at most,
 * and only about `max` + 1 characters of output, enough for `cutAtWord(…, max)` to answer as on the whole line.
 */
function oneLine(src: string, max: number, firstLineOnly: boolean, squeeze = true): string {
  const scanner = new Scanner(src, LINE_SCAN_LIMIT);
  let out = "";
  let spaces = 0;
  for (;;) {
    const token = scanner.next(max + 1 - out.length);
    if (token === END) return out;
    if (token === SPACE || token === BREAK) {
      if (out === "") continue;
      if (token === BREAK && firstLineOnly) return out;
      spaces = squeeze ? 1 : spaces + 1;
    } else {
      out += " ".repeat(spaces);
      spaces = 0;
      out += scanner.text;
      if (out.length > max) return out;
    }
  }
}

/**
 * A headline's raw material: the first line with visible text of `src` (or all of it on one line when not
 * `firstLineOnly`), white space squeezed, read from its first LINE_SCAN_LIMIT characters, at most
 * HEADLINE_MAX_LENGTH + 1 characters long ("" when there is no visible text).
 */
export function headlineLine(src: string, firstLineOnly: boolean): string {
  return oneLine(src, HEADLINE_MAX_LENGTH, firstLineOnly);
}

/**
 * A pinned stub as shown: one line, never starting with a space (it would read as part of the message above) nor
 * with "[" (escaped as "\[", so it cannot pass for a header or the marker). Empty when it has no visible text.
 */
export function pinnedLine(pinned: string): string {
  // Changed with the rule: a stub's spaces are not squeezed.
  const line = oneLine(pinned, PINNED_LINE_MAX_LENGTH, false, false);
  return cutAtWord(line.startsWith("[") ? `\\${line}` : line, PINNED_LINE_MAX_LENGTH);
}
