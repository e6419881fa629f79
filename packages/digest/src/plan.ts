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
//      sweep runs again while a sweep gave some budget back (a longer excerpt can be a shorter block: one more
//      character shown past a run of escape sequences can leave a rest with fewer digits to count).
// Each step gives an item the richest form that fits what is left at that moment, and the last sweep never saw
// what is left grow, so at the end no item has an improvement that fits: the digest is maximal by construction.
// With strict priority, an item is not shown while an item of higher priority is collapsed: those are tried first in
// every step and never collapse again once shown, so at the end no item shows above a collapsed one of higher
// priority, and the digest is maximal among the items that rule lets show.
import { BlockForms, floorBeforeReading, headerFloor, type Placed, type RenderedBlock } from "./block.js";
import { authorLabel } from "./text.js";
import type { DigestItem, DigestRecovery } from "./types.js";
import { keepShape, Shape } from "./shapes.js";

/** Budget a shown block takes: its length and the newline that joins it to the next. */
function cost(placed: Placed | null): number {
  return placed === null ? 0 : placed.text.length + 1;
}

/** The spending state of one digest. */
class Spending {
  readonly placed: (Placed | null)[];
  /** Budget not spent yet, counting each block with its newline: n blocks fit `budget` when they fit `budget + 1`. */
  left: number;
  /** Each item's forms, made when some form of the item may fit. */
  private readonly forms: (BlockForms | undefined)[];
  /** Each item's floor before reading (floorBeforeReading), once worked out: its forms are made only above it. */
  private readonly floors: (number | undefined)[];
  private readonly labels = new Map<string, string>();
  /**
   * Strict priority: each item's tier (its priority's rank, highest 0) and each tier's collapsed items, with the
   * highest tier that still has one; null when priority is not strict.
   */
  private readonly tierOf: Int32Array | null = null;
  private readonly collapsedInTier: number[] = [];
  private firstCollapsedTier = 0;

  constructor(
    private readonly items: readonly DigestItem[],
    order: readonly number[],
    budget: number,
    private readonly recovery: DigestRecovery,
    strictPriority: boolean,
  ) {
    keepShape(Shape.Spending, this);
    this.placed = new Array<Placed | null>(items.length).fill(null);
    this.forms = new Array<BlockForms | undefined>(items.length);
    this.floors = new Array<number | undefined>(items.length);
    this.left = budget + 1;
    if (strictPriority) {
      this.tierOf = new Int32Array(items.length);
      let previous: number | undefined;
      for (const index of order) {
        const priority = (items[index] as DigestItem).priority ?? 0;
        if (priority !== previous) this.collapsedInTier.push(0);
        previous = priority;
        const tier = this.collapsedInTier.length - 1;
        this.tierOf[index] = tier;
        this.collapsedInTier[tier] = (this.collapsedInTier[tier] as number) + 1;
      }
    }
  }

  /** Whether strict priority holds an item back: an item of higher priority is collapsed. */
  private heldBack(index: number): boolean {
    const tierOf = this.tierOf;
    if (tierOf === null) return false;
    const counts = this.collapsedInTier;
    while (this.firstCollapsedTier < counts.length && counts[this.firstCollapsedTier] === 0) this.firstCollapsedTier++;
    return this.firstCollapsedTier < (tierOf[index] as number);
  }

  /** An author as headers show it, worked out once per author (authors repeat). */
  private labelOf(author: string): string {
    let label = this.labels.get(author);
    if (label === undefined) {
      label = authorLabel(author);
      this.labels.set(author, label);
    }
    return label;
  }

  /**
   * An item's forms, made when some form may fit `maxLength` (else undefined, and nothing is read or made). Its body
   * is then read as far as the forms asked of it need, once: up to where its rendering passes the longest block asked
   * (never more than the budget), or to its end.
   */
  private formsWithin(index: number, maxLength: number): BlockForms | undefined {
    const forms = this.forms[index];
    if (forms !== undefined) return forms;
    const floor = this.floors[index];
    if (floor !== undefined && maxLength < floor) return undefined;
    const item = this.items[index] as DigestItem;
    // No header is shorter than "[#seq x]": below that, not even the author needs working out.
    if (floor === undefined && maxLength < headerFloor(item.seq)) return undefined;
    const label = this.labelOf(item.author);
    this.floors[index] = floorBeforeReading(item, label, maxLength);
    if (maxLength < (this.floors[index] as number)) return undefined;
    this.forms[index] = new BlockForms(item, this.recovery, label, this.floors[index]);
    return this.forms[index];
  }

  /** Whether an item's new form gave budget back since this was last cleared. */
  gaveBack = false;

  private place(index: number, placed: Placed): void {
    const previous = this.placed[index] ?? null;
    const change = cost(placed) - cost(previous);
    if (change < 0) this.gaveBack = true;
    this.left -= change;
    this.placed[index] = placed;
    if (previous === null && this.tierOf !== null) {
      const tier = this.tierOf[index] as number;
      this.collapsedInTier[tier] = (this.collapsedInTier[tier] as number) - 1;
    }
  }

  /**
   * Shows the item in its cheapest form (its full text when no longer than its headline) if that fits, and, with
   * strict priority, no item of higher priority is collapsed.
   */
  show(index: number): void {
    if (this.placed[index] !== null || this.heldBack(index)) return;
    const cheapest = this.formsWithin(index, this.left - 1)?.cheapestWithin(this.left - 1) ?? null;
    if (cheapest !== null) this.place(index, cheapest);
  }

  /** The richest form of an item within `maxLength` when it shows more than `current`, else null. */
  private richer(index: number, current: Placed, maxLength: number): RenderedBlock | null {
    return (this.forms[index] as BlockForms).richer(current, maxLength); // a shown item has its forms
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
 * newest first), priority strict or not. See the steps at the top of this file.
 */
export function planDigest(
  items: readonly DigestItem[],
  order: readonly number[],
  budget: number,
  recovery: DigestRecovery,
  strictPriority = false,
): { placed: readonly (Placed | null)[]; left: number } {
  const spending = new Spending(items, order, budget, recovery, strictPriority);
  const newest = order[0];
  if (newest !== undefined) {
    spending.show(newest);
    // Half the budget, in block characters: the newest's block may take up to floor(budget / 2).
    const half = Math.floor(budget / 2) + 1;
    spending.enrich(newest, half - cost(spending.placed[newest] ?? null));
  }
  for (let k = 1; k < order.length; k++) spending.show(order[k] as number);
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
