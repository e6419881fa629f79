// The digest was made fast without changing an output: this compares the optimised renderer with a frozen copy of
// the one before (test/previous/, changed since only where the rules changed) on arbitrary inputs, including the
// inputs the speed work is about: many messages, bodies past the headline window, escape sequences that hide sparse
// text or hold text back for thousands of characters, and budgets from nothing to several thousand.
import fc from "fast-check";
import { expect, test } from "vitest";
import { renderBlock, renderDigest, type DigestInput, type DigestResult } from "@orphus/digest";
import { digestInput, lateTextBody, longHostileBody, text } from "./arbitraries.js";
import { BlockForms } from "./previous/block.js";
import { renderDigest as previousDigest } from "./previous/digest.js";

function same(input: DigestInput): void {
  const now: DigestResult = renderDigest(input);
  const before = previousDigest(input);
  if (JSON.stringify(now) !== JSON.stringify(before)) expect(now).toEqual(before);
}

test("small hostile rooms, every mode: the same result as before", () => {
  fc.assert(fc.property(digestInput(), same), { numRuns: 2000 });
  fc.assert(fc.property(digestInput({ long: true }), same), { numRuns: 1000 });
  fc.assert(fc.property(digestInput({ pinned: true, prioritised: true }), same), { numRuns: 1000 });
});

const bigRoom: fc.Arbitrary<DigestInput> = fc
  .array(
    fc.record(
      {
        author: fc.oneof(fc.constantFrom("planner", "critic", "ci"), text(4)),
        body: fc.oneof(longHostileBody, lateTextBody, text(30)),
        headline: fc.option(fc.oneof(text(6), longHostileBody), { nil: undefined, freq: 4 }),
        priority: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined, freq: 3 }),
      },
      { noNullPrototype: true },
    ),
    { minLength: 1, maxLength: 40 },
  )
  .chain((items) =>
    fc.record({
      items: fc.constant(items.map((item, i) => ({ ...item, seq: 1 + 3 * i }))),
      budget: fc.oneof(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 6000 })),
      recovery: fc.constantFrom("fetch" as const, "pinned" as const),
    }),
  );

test("large rooms of long, escape-heavy bodies at budgets up to 6000: the same result as before", () => {
  fc.assert(fc.property(bigRoom, same), { numRuns: 400 });
});

test("renderBlock at every size: the same block as before", () => {
  fc.assert(
    fc.property(
      fc.record({
        seq: fc.integer({ min: 1, max: 99_999 }),
        author: text(4),
        body: fc.oneof(longHostileBody, text(30)),
      }),
      fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 30_000 }), fc.constant(Infinity)),
      fc.constantFrom("fetch" as const, "pinned" as const),
      (source, maxLength, recovery) => {
        const before = new BlockForms(source, recovery).best(maxLength);
        expect(renderBlock(source, maxLength, { recovery })).toEqual(before);
      },
    ),
    { numRuns: 1500 },
  );
});

test("reading less: a first line read only as far as a fit needs, and a headline cut short from a long line", () => {
  // The first line is 165 characters; cut at a word it is a 65-character headline, so the message fits at 92.
  const items = [
    { seq: 1, author: "a", body: `${"word ".repeat(13)}${"y".repeat(100)}` },
    { seq: 2, author: "b", body: "ok" },
  ];
  for (let budget = 80; budget <= 100; budget++) same({ items, budget });
  expect(renderDigest({ items, budget: 92 }).text).toBe(`[#1 a, headline] ${"word ".repeat(12)}word…\n[#2 b] ok`);
  expect(renderDigest({ items, budget: 91 }).collapsed).toEqual([1]);
});
