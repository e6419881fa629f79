// Monotone is the property that yields (see the README, "Maximal, and how monotone yields"): a larger budget can
// show a message with less text, or fewer messages, because the digest is maximal at every budget and the newest
// message shows whenever its headline fits. This file measures how often, on random rooms, so that a change that
// makes it worse fails here, and holds the cases the issue named, which must not regress.
import fc from "fast-check";
import { expect, test } from "vitest";
import { renderDigest, type DigestItem, type DigestResult } from "@orphus/digest";

const RANK = { headline: 1, excerpt: 2, full: 3 } as const;

/** How much of each item a digest shows, comparable: 0 collapsed, then headline, excerpt (longer is more), full. */
function amounts(result: DigestResult): Map<number, number> {
  const amount = new Map<number, number>();
  for (const seq of result.collapsed) amount.set(seq, 0);
  for (const seq of result.headlines) amount.set(seq, RANK.headline);
  for (const seq of result.full) amount.set(seq, RANK.full);
  // An excerpt's block ends with "… N more characters": fewer left out is more shown.
  for (const match of result.text.matchAll(/^\[#(\d+) [^\n]*, excerpt\][^\n]*(?:\n {2}[^\n]*)*?\n {2}… (\d+) more/gm)) {
    amount.set(Number(match[1]), RANK.excerpt + 1 / (2 + Number(match[2])));
  }
  return amount;
}

const WORDS = ["ring", "cursor", "seq", "digest", "budget", "headline", "the", "a", "of", "marker", "fetch", "room"];
const line = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 25 }).map((w) => w.join(" "));
const body = (multiLine: boolean): fc.Arbitrary<string> =>
  multiLine
    ? fc.array(line, { minLength: 1, maxLength: 12 }).map((lines) => lines.join("\n"))
    : fc.array(line, { minLength: 1, maxLength: 6 }).map((lines) => lines.join(" "));
const room = (multiLine: boolean): fc.Arbitrary<DigestItem[]> =>
  fc
    .array(
      fc.record({
        author: fc.constantFrom("planner", "critic", "reviewer"),
        body: body(multiLine),
        headline: fc.option(line, { nil: undefined, freq: 5 }),
      }),
      { minLength: 1, maxLength: 12 },
    )
    .map((items) => items.map((item, i) => ({ ...item, seq: i + 1 })));

interface Rates {
  readonly pairs: number;
  /** Pairs where the larger budget shows fewer messages. */
  readonly fewer: number;
  /** Pairs where the larger budget shows some message with less text. */
  readonly less: number;
  /** Pairs where the newest message whose text differs shows less at the larger budget. */
  readonly newerLess: number;
}

/** Over random rooms, pairs of budgets from 0 to 1500: how often a larger budget shows fewer or less. */
function measure(multiLine: boolean, runs: number): Rates {
  let pairs = 0;
  let fewer = 0;
  let less = 0;
  let newerLess = 0;
  const seed = fc.readConfigureGlobal().seed ?? 0;
  const budgets = fc.array(fc.integer({ min: 0, max: 1500 }), { minLength: 2, maxLength: 12 });
  for (const [items, list] of fc.sample(fc.tuple(room(multiLine), budgets), { numRuns: runs, seed })) {
    const sorted = [...new Set(list)].sort((a, b) => a - b);
    const digests = sorted.map((budget) => amounts(renderDigest({ items, budget })));
    for (let i = 0; i < digests.length; i++) {
      for (let j = i + 1; j < digests.length; j++) {
        const small = digests[i] as Map<number, number>;
        const large = digests[j] as Map<number, number>;
        pairs++;
        const shown = (amount: Map<number, number>): number => [...amount.values()].filter((a) => a > 0).length;
        if (shown(large) < shown(small)) fewer++;
        if (items.some(({ seq }) => (large.get(seq) ?? 0) < (small.get(seq) ?? 0))) less++;
        const changed = [...items].reverse().find(({ seq }) => large.get(seq) !== small.get(seq));
        if (changed !== undefined && (large.get(changed.seq) ?? 0) < (small.get(changed.seq) ?? 0)) newerLess++;
      }
    }
  }
  return { pairs, fewer, less, newerLess };
}

const percent = (count: number, of: number): number => (100 * count) / of;

test.each([
  ["single-line bodies", false, { fewer: 0.5, less: 6, newerLess: 1 }],
  ["multi-line bodies", true, { fewer: 0.5, less: 6, newerLess: 1 }],
] as const)("monotone yields rarely: %s", (name, multiLine, ceilings) => {
  const rates = measure(multiLine, 1500);
  const figures = {
    fewer: percent(rates.fewer, rates.pairs),
    less: percent(rates.less, rates.pairs),
    newerLess: percent(rates.newerLess, rates.pairs),
  };
  process.stdout.write(
    `monotone, ${name}: of ${rates.pairs} budget pairs, ${figures.fewer.toFixed(2)}% show fewer messages, ` +
      `${figures.less.toFixed(2)}% some message with less text, ` +
      `${figures.newerLess.toFixed(2)}% less text for the newest message that changed\n`,
  );
  expect(figures.fewer).toBeLessThanOrEqual(ceilings.fewer);
  expect(figures.less).toBeLessThanOrEqual(ceilings.less);
  expect(figures.newerLess).toBeLessThanOrEqual(ceilings.newerLess);
});
