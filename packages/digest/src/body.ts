// A message body as a digest shows it after the header, and the openings an excerpt shows of it. A body is rendered
// on demand and kept: asking for more text continues where the last ask stopped, so the digest reads each body once
// however many sizes it tries, and a 100 KB body costs what the budget lets through, not its size.
import { BREAK, END, SPACE, Scanner } from "./scan.js";
import { keepShape, Shape } from "./shapes.js";

/** Continuation lines of a body start with this, so no body line can pass for a header, a stub or the marker. */
export const CONTINUATION_INDENT = "  ";

/** A body as rendered after its header, whole or as far as was read. */
export interface RenderedBody {
  /** The rendering; when not complete, at least the first `max` + 1 characters. */
  readonly text: string;
  /** Whether `text` is the whole body and at most `max` characters long. */
  readonly complete: boolean;
  /** For each run of text: its index in `text`, then its index in the raw body (flat pairs, ascending). */
  readonly runs: readonly number[];
  /** Raw length of the body. */
  readonly rawLength: number;
}

/**
 * A body as it appears after its header: sanitised, leading and trailing blank space dropped, trailing spaces of
 * each line dropped, runs of blank lines kept as one, every line after the first indented, white space as plain
 * spaces. `extend(max)` renders on until the text is longer than `max` or the body ends, however much the sanitiser
 * drops on the way (skipped in time linear in its length); a later, larger `max` goes on from there, so each raw
 * character is read once. The text for one `max` is a prefix of the text for any larger one (a run cut at one `max`
 * goes on as the next run), so what was asked before never changes an answer.
 */
export class BodyRendering {
  /** The rendering so far. */
  text = "";
  /** For each run of text: its index in `text`, then its index in the raw body (flat pairs, ascending). */
  readonly runs: number[] = [];
  /** Whether the whole body is rendered. */
  done = false;
  private readonly scanner: Scanner;
  private started = false;
  private breaks = 0;
  private spaces = 0;

  constructor(readonly body: string) {
    keepShape(Shape.BodyRendering, this);
    this.scanner = new Scanner(body);
  }

  /** Renders on until the text is longer than `max` or the whole body is read. */
  extend(max: number): void {
    const scanner = this.scanner;
    while (!this.done && this.text.length <= max) {
      const token = scanner.next(max - this.text.length + 1);
      if (token === END) this.done = true;
      else if (token === SPACE || token === BREAK) {
        scanner.skipBlank(); // the rest of the blank run in one pass
        if (this.started) {
          if (token === BREAK) {
            this.breaks++;
            this.spaces = 0;
          } else this.spaces++;
          if (scanner.breaks > 0) {
            this.breaks += scanner.breaks;
            this.spaces = scanner.spaces;
          } else this.spaces += scanner.spaces;
        }
      } else {
        if (this.started) {
          if (this.breaks > 0) this.text += (this.breaks > 1 ? "\n\n" : "\n") + CONTINUATION_INDENT;
          if (this.spaces > 0) this.text += " ".repeat(this.spaces);
        }
        this.started = true;
        this.breaks = 0;
        this.spaces = 0;
        this.runs.push(this.text.length, scanner.start);
        this.text += scanner.text;
      }
    }
  }

  /** The rendering as `renderBody(body, max)` gives it, once `extend(max)` has run. */
  view(max: number): RenderedBody {
    const complete = this.done && this.text.length <= max;
    return { text: this.text, complete, runs: this.runs, rawLength: this.body.length };
  }
}

/** The even index of the last run that starts at or before text index `index` (0 when none does). */
function lastRunAtOrBefore(runs: readonly number[], index: number): number {
  let low = 0;
  let high = (runs.length >> 1) - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if ((runs[2 * middle] as number) <= index) low = middle;
    else high = middle - 1;
  }
  return 2 * low;
}

/** A body rendered after its header within `max` (see BodyRendering). */
export function renderBody(body: string, max: number): RenderedBody {
  const rendering = new BodyRendering(body);
  rendering.extend(max);
  return rendering.view(max);
}

function isCutPoint(c: number): boolean {
  return c === 0x20 || c === 0x0a;
}

/** How far back from its end an opening looks for a word or line end to stop at, before cutting a word. */
const WORD_CUT_WINDOW = 16;

/**
 * Where the longest opening of `body` (rendered) of at most `max` characters ends (the opening is
 * `body.text.slice(0, end)`): at a word or line end when one lies within WORD_CUT_WINDOW characters of the limit,
 * else after a whole character; never inside a surrogate pair, never ending in blank space. -1 when it would be
 * shorter than `min`. Builds no string.
 */
export function openingEnd(body: RenderedBody, max: number, min: number): number {
  const text = body.text;
  if (max < min) return -1;
  let end = Math.min(max, text.length);
  if (end < text.length && !isCutPoint(text.charCodeAt(end))) {
    let space = end - 1;
    while (space > end - WORD_CUT_WINDOW && space >= 0 && !isCutPoint(text.charCodeAt(space))) space--;
    if (space > end - WORD_CUT_WINDOW && space >= 0) end = space;
    else {
      const before = text.charCodeAt(end - 1);
      if (before >= 0xd800 && before <= 0xdbff) end--;
    }
  }
  while (end > 0 && isCutPoint(text.charCodeAt(end - 1))) end--;
  return end < min ? -1 : end;
}

/** Raw characters of the body after the last one an opening ending at `end` (> 0) shows: what a fetch adds. */
export function restAfter(body: RenderedBody, end: number): number {
  // The raw position after the last character shown: inside the run that holds it, one unit per unit.
  const runs = body.runs;
  const k = lastRunAtOrBefore(runs, end - 1);
  return body.rawLength - ((runs[k + 1] as number) + (end - (runs[k] as number)));
}
