// The scanner skips what a reader never sees with one native pattern instead of a loop per character. This compares
// its tokens with the frozen loop it replaced (test/previous/scan.ts) on arbitrary text and on every boundary of
// the invisible ranges, so the pattern reads every escape sequence, control and invisible character alike.
import fc from "fast-check";
import { expect, test } from "vitest";
import { INVISIBLE_RANGES } from "../src/chars.js";
import { END, Scanner } from "../src/scan.js";
import { END as PREVIOUS_END, Scanner as PreviousScanner } from "./previous/scan.js";
import { longHostileBody, text } from "./arbitraries.js";

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
