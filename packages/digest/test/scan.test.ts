// The scanner skips what a reader never sees with one native pattern instead of a loop per character. This compares
// its tokens with the frozen loop it replaced (test/previous/scan.ts) on arbitrary text and on every boundary of
// the invisible ranges, so the pattern reads every escape sequence, control and invisible character alike.
import fc from "fast-check";
import { expect, test } from "vitest";
import { INVISIBLE_RANGES } from "../src/chars.js";
import { BREAK, END, Scanner, SPACE } from "../src/scan.js";
import { END as PREVIOUS_END, Scanner as PreviousScanner } from "./previous/scan.js";
import { lateTextBody, longHostileBody, text } from "./arbitraries.js";

/** What both scanners offer. */
interface Reader {
  next(maxChars: number): number;
  readonly start: number;
  readonly position: number;
  readonly text: string;
}

/** Every token of `src` read with TEXT runs of at most `maxChars`: kind, where it starts and ends, its text. */
function readAll(scanner: Reader, end: number, maxChars: number): string[] {
  const out: string[] = [];
  for (let token = scanner.next(maxChars); token !== end; token = scanner.next(maxChars)) {
    out.push(`${token}@${scanner.start}-${scanner.position}:${token === 3 ? "" : scanner.text}`);
  }
  return out;
}

const tokens = (src: string, maxChars: number, limit: number): string[] =>
  readAll(new Scanner(src, limit), END, maxChars);
const previousTokens = (src: string, maxChars: number, limit: number): string[] =>
  readAll(new PreviousScanner(src, limit), PREVIOUS_END, maxChars);

test("the same tokens as the character loop, on arbitrary and escape-heavy text, whole or cut short", () => {
  fc.assert(
    fc.property(
      fc.oneof(text(60), longHostileBody),
      fc.integer({ min: 1, max: 200 }),
      fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.integer({ min: 0, max: 30_000 })),
      (src, maxChars, limit) => {
        expect(tokens(src, maxChars, limit)).toEqual(previousTokens(src, maxChars, limit));
      },
    ),
    { numRuns: 2000 },
  );
});

test("every boundary of the invisible ranges, alone, between letters and after an escape sequence", () => {
  const points = INVISIBLE_RANGES.flatMap(([from, to]) => [from - 1, from, to, to + 1]);
  for (const point of points) {
    const c = String.fromCodePoint(point);
    for (const src of [c, `a${c}b`, `\x1b[31m${c}${c}x`, `\x1b]0;t${c}\x07y`, `${c}\ud800`]) {
      expect(tokens(src, 50, Infinity)).toEqual(previousTokens(src, 50, Infinity));
    }
  }
});

test("a run of dropped pieces longer than one match is skipped whole", () => {
  const src = `${"\x1b[2K\u200b\x07".repeat(5000)}ok`;
  expect(tokens(src, 10, Infinity)).toEqual(previousTokens(src, 10, Infinity));
  expect(tokens(src, 10, Infinity)).toEqual([`1@30000-30002:ok`]);
});

test("long lines of printable ASCII cut into runs, far from and near the end of the text: the same runs", () => {
  const texts = [`${"word ".repeat(4000)}\n${"x".repeat(9000)} y`, `a  b ${"cd ".repeat(40)}é ${"ef ".repeat(40)}`];
  for (const src of texts) {
    for (const maxChars of [1, 63, 64, 65, 66, 100, 4097]) {
      expect(tokens(src, maxChars, Infinity)).toEqual(previousTokens(src, maxChars, Infinity));
    }
  }
});

/** Text runs as tokens, and each blank run as the line breaks in it (up to 2) and the spaces after its last break. */
function withBlankRuns(src: string, maxChars: number): string[] {
  const scanner = new Scanner(src);
  const out: string[] = [];
  for (let token = scanner.next(maxChars); token !== END; token = scanner.next(maxChars)) {
    if (token !== SPACE && token !== BREAK) {
      out.push(`${scanner.start}-${scanner.position}:${scanner.text}`);
      continue;
    }
    scanner.skipBlank();
    const breaks = Math.min(2, (token === BREAK ? 1 : 0) + scanner.breaks);
    const spaces = scanner.breaks > 0 ? scanner.spaces : (token === SPACE ? 1 : 0) + scanner.spaces;
    out.push(`blank ${breaks} ${spaces}`);
  }
  return out;
}

/** The same from the frozen loop's tokens, one at a time. */
function previousWithBlankRuns(src: string, maxChars: number): string[] {
  const scanner = new PreviousScanner(src);
  const out: string[] = [];
  let blank: { breaks: number; spaces: number } | null = null;
  for (let token = scanner.next(maxChars); token !== PREVIOUS_END; token = scanner.next(maxChars)) {
    if (token === SPACE || token === BREAK) {
      blank ??= { breaks: 0, spaces: 0 };
      if (token === BREAK) [blank.breaks, blank.spaces] = [Math.min(2, blank.breaks + 1), 0];
      else blank.spaces++;
      continue;
    }
    if (blank !== null) out.push(`blank ${blank.breaks} ${blank.spaces}`);
    blank = null;
    out.push(`${scanner.start}-${scanner.position}:${scanner.text}`);
  }
  if (blank !== null) out.push(`blank ${blank.breaks} ${blank.spaces}`);
  return out;
}

test("a blank run passed over in one loop holds what its tokens one by one hold", () => {
  fc.assert(
    fc.property(
      fc.oneof(text(60), longHostileBody, lateTextBody),
      fc.integer({ min: 1, max: 200 }),
      (src, maxChars) => {
        expect(withBlankRuns(src, maxChars)).toEqual(previousWithBlankRuns(src, maxChars));
      },
    ),
    { numRuns: 1500 },
  );
  const lines = `${"\r\n \x1b[2K\u200b\t".repeat(3000)}x${" ".repeat(5000)}y\n\n\n  z`;
  expect(withBlankRuns(lines, 10)).toEqual([
    "blank 2 2",
    "27000-27001:x",
    "blank 0 5000",
    "32001-32002:y",
    "blank 2 2",
    "32007-32008:z",
  ]);
});
