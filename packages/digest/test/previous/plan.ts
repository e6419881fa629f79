// A frozen copy of src/plan.ts as it was before the digest was made fast (issue 13's follow-up): the oracle that
// test/differential.test.ts compares the optimised renderer with. Keep it as it is; it shares with src/ only the
// modules the speed work left alone. Changed since only where the rules changed: no read limit decides a form (every
// body is read as far as its forms need, see rawLimit).
// How a digest spends its budget: which form each item takes. The budget is spent so that nothing that could still
// be shown is left out (maximal), the newest first (newest-first priority), every message seen before any is read
// at length (visibility), and text decays with age (each message takes at most half of what is left):
//   1. the newest: its cheapest form (a headline, or its full text when that is shorter) if it fits the budget, then
//      its full text or its longest excerpt within half the budget;
//   2. every other item, newest first: its cheapest form while one fits (an item whose form does not fit is
//      skipped, older ones may still fit);
//   3. text, newest first: each shown item takes its full text or its longest excerpt within half of what is left,
//      or, when not even its smallest improvement fits in half, that smallest improvement if it fits at all;
//   4. newest first, each item shown if it still fits, then given the richest form within all that is left; this
//      sweep runs again while a sweep gave some budget back (a richer form can be shorter, when reading further
//      into a body showed that its escape sequences hid a short text).
// Each step gives an item the richest form that fits what is left at that moment, and the last sweep never saw
// what is left grow, so at the end no item has an improvement that fits: the digest is maximal by construction.
import type { RenderedBlock } from "../../src/block.js";
import { BlockForms, type BlockForm } from "./block.js";
import type { DigestItem, DigestRecovery } from "../../src/types.js";

/** The form an item takes in a digest and its text (one or more lines). */
export interface Placed {
  readonly form: BlockForm;
  readonly text: string;
  readonly restChars: number;
}

const RANK: Readonly<Record<BlockForm, number>> = { headline: 1, excerpt: 2, full: 3 };

/** Whether `next` shows more than `current`: a richer form, or a longer excerpt. */
export function showsMore(current: Placed | null, next: Placed | null): boolean {
  if (next === null) return false;
  if (current === null) return true;
  if (RANK[next.form] !== RANK[current.form]) return RANK[next.form] > RANK[current.form];
  return next.form === "excerpt" && next.restChars < current.restChars;
}

/** Budget a shown block takes: its length and the newline that joins it to the next. */
function cost(placed: Placed | null): number {
  return placed === null ? 0 : placed.text.length + 1;
}

/** The spending state of one digest. */
class Spending {
  readonly placed: (Placed | null)[];
  /** Budget not spent yet, counting each block with its newline: n blocks fit `budget` when they fit `budget + 1`. */
  left: number;
  private readonly forms: BlockForms[];

  constructor(
    private readonly items: readonly DigestItem[],
    budget: number,
    recovery: DigestRecovery,
  ) {
    this.placed = items.map(() => null);
    const labels = new Map<string, string>();
    this.forms = items.map((item) => new BlockForms(item, recovery, labels));
    this.left = budget + 1;
  }

  /**
   * Raw characters of an item's body read for a block: all of it, for every item. (The frozen copy read the others
   * in proportion to the room, which let a read limit hide text that the whole body shows.)
   */
  private rawLimit(): number {
    return Number.POSITIVE_INFINITY;
  }

  /** Whether an item's new form gave budget back since this was last cleared. */
  gaveBack = false;

  private place(index: number, placed: Placed): void {
    const change = cost(placed) - cost(this.placed[index] ?? null);
    if (change < 0) this.gaveBack = true;
    this.left -= change;
    this.placed[index] = placed;
  }

  /** Each item's cheapest form once computed: it does not depend on the budget. */
  private readonly cheapest: (Placed | undefined)[] = [];

  /** Shows the item in its cheapest form (its full text when no longer than its headline) if that fits. */
  show(index: number): void {
    if (this.placed[index] !== null) return;
    const forms = this.forms[index] as BlockForms;
    // A message that cannot fit whatever its form is passed over without rendering it: "[#seq x]" is the shortest
    // block there is, and lowerBound a closer floor from a look at the message's first line.
    if (this.left < String((this.items[index] as DigestItem).seq).length + 6) return;
    if (this.left < forms.lowerBound() + 1) return;
    let cheapest = this.cheapest[index];
    if (cheapest === undefined) {
      const headline = forms.headline();
      const full = forms.full(headline.length, this.rawLimit());
      cheapest = full ?? { form: "headline", text: headline, restChars: 0 };
      this.cheapest[index] = cheapest;
    }
    if (cost(cheapest) <= this.left) this.place(index, cheapest);
  }

  /** The richest form of an item within `maxLength` when it shows more than `current`, else null. */
  private richer(index: number, current: Placed, maxLength: number): RenderedBlock | null {
    const best = (this.forms[index] as BlockForms).best(maxLength, this.rawLimit());
    return best !== null && showsMore(current, best) ? best : null;
  }

  /** Gives a shown item its full text, or its longest excerpt, when that shows more and costs at most `extra` more. */
  enrich(index: number, extra: number = this.left): void {
    const current = this.placed[index] ?? null;
    if (current === null || current.form === "full") return;
    const next = this.richer(index, current, cost(current) + Math.min(extra, this.left) - 1);
    if (next !== null) this.place(index, next);
  }

  /**
   * Enriches a shown item within `extra` more; when nothing richer fits that, with the cheapest richer form that fits
   * all that is left. A richer form that fits a block length fits every larger one, so a binary search finds it.
   */
  enrichAtLeastOnce(index: number, extra: number): void {
    const current = this.placed[index] ?? null;
    if (current === null || current.form === "full") return;
    let low = cost(current) + extra; // block lengths: `low - 1` was tried
    let high = cost(current) + this.left - 1;
    const within = this.richer(index, current, low - 1);
    if (within !== null || high < low || this.richer(index, current, high) === null) {
      if (within !== null) this.place(index, within);
      return;
    }
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.richer(index, current, middle) === null) low = middle + 1;
      else high = middle;
    }
    this.place(index, this.richer(index, current, low) as RenderedBlock);
  }
}

/**
 * The form of every item (null: collapsed) for `budget`, spending items in `order` (indexes, highest priority and
 * newest first). See the steps at the top of this file.
 */
export function planDigest(
  items: readonly DigestItem[],
  order: readonly number[],
  budget: number,
  recovery: DigestRecovery,
): { placed: readonly (Placed | null)[]; left: number } {
  const spending = new Spending(items, budget, recovery);
  const [newest, ...rest] = order;
  if (newest !== undefined) {
    spending.show(newest);
    // Half the budget, in block characters: the newest's block may take up to floor(budget / 2).
    const half = Math.floor(budget / 2) + 1;
    spending.enrich(newest, half - cost(spending.placed[newest] ?? null));
  }
  for (const index of rest) spending.show(index);
  for (const index of order) spending.enrichAtLeastOnce(index, Math.floor(spending.left / 2));
  do {
    spending.gaveBack = false;
    for (const index of order) {
      spending.show(index);
      spending.enrich(index);
    }
  } while (spending.gaveBack);
  return { placed: spending.placed, left: spending.left };
}
