import fc from "fast-check";
import { expect, test } from "vitest";
import {
  MARKER_PREFIX,
  MAX_MARKER_LENGTH,
  maxDigestLength,
  PINNED_LINE_MAX_LENGTH,
  renderDigest,
  type DigestInput,
  type DigestResult,
} from "@orphus/digest";
import { digestInput } from "./arbitraries.js";
import { referenceDigest } from "./reference.js";

/** The text outside the marker line: what the budget bounds. */
function outsideMarker(result: DigestResult): string {
  if (result.marker === null) return result.text;
  return result.text.slice(result.marker.length + 1);
}

const HEADER = /^\[#(\d+) ([^\s[\]]+)(, headline)?\](?: |$)/;

/** Everything a reader could take for a line break, or for a character that moves a terminal's cursor. */
const UNSAFE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function isWellFormed(text: string): boolean {
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

/** Fails with `message` unless `condition`; cheaper than expect() in a loop of thousands of runs. */
function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

const ascending = (seqs: readonly number[]): number[] => [...seqs].sort((a, b) => a - b);
const same = (a: readonly number[], b: readonly number[]): boolean => a.join() === b.join();

/** The invariants every digest holds, whatever its input. */
function checkInvariants(input: DigestInput, result: DigestResult): void {
  const budget = input.budget ?? 2000;
  const lines = result.text.split("\n");
  const body = result.marker === null ? lines : lines.slice(1);
  const headerSeqs = body.filter((line) => HEADER.test(line)).map((line) => Number(HEADER.exec(line)?.[1]));
  const stubs = body.filter((line) => !HEADER.test(line) && line !== "" && !line.startsWith("  "));

  // The bound: budget outside the marker, plus each pinned line and its newline.
  const pinnedCost = stubs.reduce((sum, line) => sum + line.length + 1, 0);
  check(outsideMarker(result).length <= budget + pinnedCost, "text outside the marker exceeds budget + pinned lines");
  check(result.used <= budget, "used exceeds budget");
  check(result.text.length <= maxDigestLength(budget, stubs.length), "text exceeds maxDigestLength");
  check(
    stubs.every((line) => line.length <= PINNED_LINE_MAX_LENGTH),
    "a pinned line exceeds PINNED_LINE_MAX_LENGTH",
  );
  const pinnedItems = input.items.filter((item) => item.pinned !== undefined).length;
  check(stubs.length <= pinnedItems, "a line that is no header, stub, marker, blank or indented");
  if (pinnedItems === 0) check(outsideMarker(result).length <= budget, "room mode text exceeds budget");

  // The marker: one line, capped, first, present exactly when something was collapsed or evicted.
  const hasMarker = result.collapsed.length > 0 || (input.evicted?.count ?? 0) > 0;
  check((result.marker !== null) === hasMarker, "marker presence");
  if (result.marker !== null) {
    check(result.marker.length <= MAX_MARKER_LENGTH, "marker exceeds MAX_MARKER_LENGTH");
    check(result.marker.startsWith(MARKER_PREFIX) && lines[0] === result.marker, "marker is not the first line");
  }
  check(
    body.every((line) => !line.startsWith(MARKER_PREFIX)),
    "a line other than the first looks like the marker",
  );

  // Every item accounted for exactly once; afterSeq fetches the collapsed ones back.
  const seqs = input.items.map((item) => item.seq);
  check(result.full.length + result.headlines.length + result.collapsed.length === seqs.length, "counts");
  check(same(ascending([...result.full, ...result.headlines, ...result.collapsed]), seqs), "partition");
  const first = result.collapsed[0];
  check(result.afterSeq === (first === undefined ? null : first - 1), "afterSeq");

  // Safe to show: no control or escape character but "\n", no half of a surrogate pair.
  check(!UNSAFE.test(result.text), "an unsafe character in the text");
  check(isWellFormed(result.text), "a lone surrogate in the text");

  // No forgery: the header lines are exactly the shown items.
  check(same(ascending(headerSeqs), ascending([...result.full, ...result.headlines])), "forged or missing header");
}

/** Compares with the reference; the costly diffing expect() runs only when they differ. */
function checkReference(input: DigestInput, result: DigestResult): void {
  const expected = referenceDigest(input);
  if (JSON.stringify(result) !== JSON.stringify(expected)) expect(result).toEqual(expected);
}

test("room mode: the bound and every invariant hold, and the result equals the naive reference", () => {
  fc.assert(
    fc.property(digestInput(), (input) => {
      const result = renderDigest(input);
      checkInvariants(input, result);
      checkReference(input, result);
    }),
    { numRuns: 3000 },
  );
});

test("long bodies (the headline tier in most runs): the bound, every invariant, and equal to the reference", () => {
  fc.assert(
    fc.property(digestInput({ long: true }), (input) => {
      const result = renderDigest(input);
      checkInvariants(input, result);
      checkReference(input, result);
    }),
    { numRuns: 1000 },
  );
});

test("fan-out mode (pinned stubs, priorities): budget + pinned lines + marker, and equal to the reference", () => {
  fc.assert(
    fc.property(digestInput({ pinned: true, prioritised: true }), (input) => {
      const result = renderDigest(input);
      checkInvariants(input, result);
      checkReference(input, result);
    }),
    { numRuns: 1500 },
  );
});

test("deterministic: the same input, or a copy of it, gives the same result", () => {
  fc.assert(
    fc.property(digestInput({ pinned: true, prioritised: true }), (input) => {
      const first = renderDigest(input);
      expect(renderDigest(input)).toEqual(first);
      expect(renderDigest(structuredClone(input))).toEqual(first);
    }),
    { numRuns: 300 },
  );
});

test("the newest message is shown in full whenever it fits in the budget alone", () => {
  fc.assert(
    fc.property(digestInput(), (input) => {
      const newest = input.items[input.items.length - 1];
      fc.pre(newest !== undefined);
      if (newest === undefined) return;
      const alone = renderDigest({ items: [newest], budget: 1_000_000 });
      const result = renderDigest(input);
      if (alone.text.length <= (input.budget ?? 2000)) expect(result.full).toContain(newest.seq);
      else expect(result.full).toEqual([]);
    }),
    { numRuns: 500 },
  );
});

test("degrades monotonically newest-first: full, then headlines, then collapsed", () => {
  fc.assert(
    fc.property(digestInput(), (input) => {
      const result = renderDigest(input);
      const form = (seq: number): number => (result.full.includes(seq) ? 0 : result.headlines.includes(seq) ? 1 : 2);
      const forms = input.items.map((item) => form(item.seq)).reverse();
      expect([...forms].sort((a, b) => a - b)).toEqual(forms);
      expect(result.newestSeq).toBe(
        Math.max(0, ...input.items.map((item) => item.seq), input.evicted?.toSeq ?? 0) || null,
      );
    }),
    { numRuns: 500 },
  );
});

test("a larger budget shows the same newest messages in full, and perhaps more", () => {
  // Not "never collapses more": with room for the newest in full, fewer older ones may fit as headlines.
  fc.assert(
    fc.property(digestInput(), fc.nat(200), (input, extra) => {
      const small = renderDigest(input);
      const large = renderDigest({ ...input, budget: (input.budget ?? 2000) + extra });
      check(small.full.every((seq) => large.full.includes(seq)), "a message shown in full is no longer");
    }),
    { numRuns: 300 },
  );
});
