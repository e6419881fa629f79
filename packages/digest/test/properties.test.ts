import fc from "fast-check";
import { expect, test } from "vitest";
import {
  MARKER_PREFIX,
  MAX_MARKER_LENGTH,
  maxDigestLength,
  PINNED_LINE_MAX_LENGTH,
  renderBlock,
  renderDigest,
  type DigestInput,
  type DigestItem,
  type DigestResult,
} from "@orphus/digest";
import { digestInput } from "./arbitraries.js";
import { best, cheapest, headlineBlock, more, referenceDigest, type Shown } from "./reference.js";

/** The text outside the marker line: what the budget bounds. */
function outsideMarker(result: DigestResult): string {
  if (result.marker === null) return result.text;
  return result.text.slice(result.marker.length + 1);
}

const HEADER = /^\[#(\d+) ([^\s[\]]+)(, headline|, excerpt)?\](?: |$)/;
const REST = /^ {2}… (\d+) more characters: /;

/** Everything a reader could take for a line break, or for a character that moves a terminal's cursor. */
const UNSAFE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]/;
/** Characters that draw nothing: format characters and default-ignorables. */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

function isWellFormed(text: string): boolean {
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

/** Fails with `message` unless `condition`; cheaper than expect() in a loop of thousands of runs. */
function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

const ascending = (seqs: readonly number[]): number[] => [...seqs].sort((a, b) => a - b);
const same = (a: readonly number[], b: readonly number[]): boolean => a.join() === b.join();

/** Each shown item's block (its header line and the indented lines under it), by seq. */
function blocksOf(result: DigestResult): Map<number, string> {
  const blocks = new Map<number, string>();
  let current: number | null = null;
  for (const line of (result.marker === null ? result.text : outsideMarker(result)).split("\n")) {
    const header = HEADER.exec(line);
    if (header !== null) {
      current = Number(header[1]);
      blocks.set(current, line);
    } else if (current !== null && (line.startsWith("  ") || line === "")) {
      blocks.set(current, `${blocks.get(current)}\n${line}`);
    } else current = null; // a pinned stub
  }
  return blocks;
}

/** How each item is shown: its form, its block, and for an excerpt the raw characters it leaves out. */
function shownOf(result: DigestResult): Map<number, Shown | null> {
  const blocks = blocksOf(result);
  const shown = new Map<number, Shown | null>();
  for (const seq of result.collapsed) shown.set(seq, null);
  for (const [seqs, form] of [
    [result.full, "full"],
    [result.excerpts, "excerpt"],
    [result.headlines, "headline"],
  ] as const) {
    for (const seq of seqs) {
      const text = blocks.get(seq) ?? "";
      const rest = form === "excerpt" ? Number(REST.exec(text.slice(text.lastIndexOf("\n") + 1))?.[1]) : 0;
      shown.set(seq, { form, text, rest });
    }
  }
  return shown;
}

/** Items in the order the budget is spent on them: highest priority, then newest, first. */
function spendingOrder(input: DigestInput): DigestItem[] {
  return [...input.items].sort((a, b) => (b.priority ?? 0) - (a.priority ?? 0) || b.seq - a.seq);
}

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
  const shownSeqs = [...result.full, ...result.excerpts, ...result.headlines];
  check(shownSeqs.length + result.collapsed.length === seqs.length, "counts");
  check(same(ascending([...shownSeqs, ...result.collapsed]), seqs), "partition");
  const first = result.collapsed[0];
  check(result.afterSeq === (first === undefined ? null : first - 1), "afterSeq");

  // Safe to show: no control or escape character but "\n", nothing invisible, no half of a surrogate pair.
  check(!UNSAFE.test(result.text), "an unsafe character in the text");
  check(!INVISIBLE.test(result.text), "an invisible character in the text");
  check(isWellFormed(result.text), "a lone surrogate in the text");

  // No forgery: the header lines are exactly the shown items, and `used` is what their blocks take.
  check(same(ascending(headerSeqs), ascending(shownSeqs)), "forged or missing header");
  const blocks = [...blocksOf(result).values()];
  const spent = blocks.reduce((sum, block) => sum + block.length + 1, 0);
  check(result.used === Math.max(0, spent - 1), "used is not what the blocks take");
}

/** Compares with the reference; the costly diffing expect() runs only when they differ. */
function checkReference(input: DigestInput, result: DigestResult): void {
  const expected = referenceDigest(input);
  if (JSON.stringify(result) !== JSON.stringify(expected)) expect(result).toEqual(expected);
}

/**
 * Maximal: when anything is cut, headlined or collapsed, no single improvement fits in the budget left over: no
 * collapsed item's cheapest form, and no richer form (more text) of a shown item in its room plus what is left. With
 * strict priority, a collapsed item held back by a collapsed item of higher priority is no improvement.
 */
function checkMaximal(input: DigestInput, result: DigestResult): void {
  const recovery = input.recovery ?? "fetch";
  const order = spendingOrder(input);
  const shown = shownOf(result);
  const spent = [...shown.values()].reduce((sum, block) => sum + (block === null ? 0 : block.text.length + 1), 0);
  const left = (input.budget ?? 2000) + 1 - spent;
  const collapsedPriorities = order.filter((item) => shown.get(item.seq) === null).map((item) => item.priority ?? 0);
  const held = (item: DigestItem): boolean =>
    input.strictPriority === true && collapsedPriorities.some((priority) => priority > (item.priority ?? 0));
  for (const item of order) {
    const current = shown.get(item.seq) ?? null;
    if (current === null && held(item)) continue;
    if (current === null) {
      const form = cheapest(item, recovery);
      check(form.text.length + 1 > left, `#${item.seq} collapsed, yet ${form.text.length + 1} fits ${left} left`);
    } else if (current.form !== "full") {
      const max = current.text.length + left;
      const next = best(item, max, recovery);
      check(!more(current, next), `#${item.seq} could show more within the ${left} characters left`);
    }
  }
}

test("room mode: the bound, every invariant, maximal, and equal to the naive reference", () => {
  fc.assert(
    fc.property(digestInput(), (input) => {
      const result = renderDigest(input);
      checkInvariants(input, result);
      checkMaximal(input, result);
      checkReference(input, result);
    }),
    { numRuns: 3000 },
  );
});

test("long bodies (excerpts and headlines in most runs): the bound, every invariant, maximal, and equal to the reference", () => {
  fc.assert(
    fc.property(digestInput({ long: true }), (input) => {
      const result = renderDigest(input);
      checkInvariants(input, result);
      checkMaximal(input, result);
      checkReference(input, result);
    }),
    { numRuns: 2000 },
  );
});

test("fan-out mode (pinned stubs, priorities): budget + pinned lines + marker, maximal, and equal to the reference", () => {
  fc.assert(
    fc.property(digestInput({ pinned: true, prioritised: true }), (input) => {
      const result = renderDigest(input);
      checkInvariants(input, result);
      checkMaximal(input, result);
      checkReference(input, result);
    }),
    { numRuns: 2000 },
  );
});

test("text behind long runs of escapes, controls, invisible characters, blank lines: equal to the reference", () => {
  // The reference sanitises whole bodies; the digest reads lazily. No read limit may decide what is shown.
  fc.assert(
    fc.property(digestInput({ late: true }), (input) => {
      const result = renderDigest(input);
      checkInvariants(input, result);
      checkMaximal(input, result);
      checkReference(input, result);
    }),
    { numRuns: 600 },
  );
  fc.assert(
    fc.property(digestInput({ late: true, pinned: true, prioritised: true }), (input) => {
      const result = renderDigest(input);
      checkInvariants(input, result);
      checkMaximal(input, result);
      checkReference(input, result);
    }),
    { numRuns: 400 },
  );
});

test("strict priority: nothing shows above a collapsed item of higher priority, maximal among the rest", () => {
  fc.assert(
    fc.property(digestInput({ pinned: true, prioritised: true, strict: true }), (input) => {
      const result = renderDigest(input);
      checkInvariants(input, result);
      checkMaximal(input, result);
      checkReference(input, result);
      if (input.strictPriority !== true) return;
      const collapsed = new Set(result.collapsed);
      const top = Math.max(...input.items.filter((item) => collapsed.has(item.seq)).map((item) => item.priority ?? 0));
      for (const item of input.items) {
        check(collapsed.has(item.seq) || (item.priority ?? 0) >= top, `#${item.seq} shows below a collapsed item`);
      }
    }),
    { numRuns: 2000 },
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

test("the newest message appears (in full, excerpt or headline) whenever its headline fits", () => {
  fc.assert(
    fc.property(digestInput({ long: true, prioritised: true }), (input) => {
      const newest = spendingOrder(input)[0];
      fc.pre(newest !== undefined);
      if (newest === undefined) return;
      const result = renderDigest(input);
      if (headlineBlock(newest).length <= (input.budget ?? 2000)) expect(result.collapsed).not.toContain(newest.seq);
    }),
    { numRuns: 3000 },
  );
});

test("the newest message is shown in full whenever its full block is at most half the budget", () => {
  fc.assert(
    fc.property(digestInput({ long: true, prioritised: true }), (input) => {
      const newest = spendingOrder(input)[0];
      fc.pre(newest !== undefined);
      if (newest === undefined) return;
      const whole = renderBlock(newest, Number.POSITIVE_INFINITY, { recovery: input.recovery ?? "fetch" });
      const result = renderDigest(input);
      if ((whole?.text.length ?? Infinity) <= Math.floor((input.budget ?? 2000) / 2)) {
        expect(result.full).toContain(newest.seq);
      }
    }),
    { numRuns: 3000 },
  );
});

test("newestSeq is the newest seq among the items and the eviction", () => {
  fc.assert(
    fc.property(digestInput(), (input) => {
      expect(renderDigest(input).newestSeq).toBe(
        Math.max(0, ...input.items.map((item) => item.seq), input.evicted?.toSeq ?? 0) || null,
      );
    }),
    { numRuns: 300 },
  );
});
