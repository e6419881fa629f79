import { renderMarker } from "./marker.js";
import { planDigest } from "./plan.js";
import { pinnedLine } from "./text.js";
import type { DigestInput, DigestItem, DigestResult } from "./types.js";
import { checkInput } from "./validate.js";

/**
 * Item indexes by priority, highest first, then by seq: newest first for spending the budget, oldest first for
 * showing. Without priorities that is plain index order, reversed or not.
 */
function byPriority(items: readonly DigestItem[], prioritised: boolean, newestFirst: boolean): number[] {
  const n = items.length;
  const order = new Array<number>(n);
  for (let k = 0; k < n; k++) order[k] = newestFirst ? n - 1 - k : k;
  if (prioritised) {
    const priority = (i: number): number => items[i]?.priority ?? 0;
    order.sort((a, b) => priority(b) - priority(a) || (newestFirst ? b - a : a - b));
  }
  return order;
}

/**
 * Renders the digest of `input.items` within `input.budget`: the input is validated and copied once, then every
 * item takes its full text, an excerpt, a headline or a place in the marker (see plan.ts for how the budget is
 * spent). Text outside the marker and the pinned lines is at most `budget` characters.
 */
export function renderDigest(input: DigestInput): DigestResult {
  const { items, budget, evicted, recovery, prioritised, strictPriority } = checkInput(input);
  const order = byPriority(items, prioritised, true);
  const { placed, left } = planDigest(items, order, budget, recovery, strictPriority && prioritised);

  const full: number[] = [];
  const excerpts: number[] = [];
  const headlines: number[] = [];
  const collapsed: number[] = [];
  for (let i = 0; i < items.length; i++) {
    const seq = (items[i] as DigestItem).seq;
    const form = placed[i]?.form;
    (form === "full" ? full : form === "excerpt" ? excerpts : form === "headline" ? headlines : collapsed).push(seq);
  }
  const fromSeq = collapsed[0];
  const toSeq = collapsed[collapsed.length - 1];
  const marker =
    evicted === null && fromSeq === undefined
      ? null
      : renderMarker(
          evicted,
          fromSeq === undefined || toSeq === undefined ? null : { count: collapsed.length, fromSeq, toSeq },
          recovery,
        );

  const lines: string[] = marker === null ? [] : [marker];
  const display = prioritised ? byPriority(items, true, false) : null; // else plain index order
  for (let k = 0; k < items.length; k++) {
    const index = display === null ? k : (display[k] as number);
    const item = items[index] as DigestItem;
    if (item.pinned !== undefined) {
      const stub = pinnedLine(item.pinned);
      if (stub !== "") lines.push(stub);
    }
    const block = placed[index];
    if (block !== null && block !== undefined) lines.push(block.text);
  }

  const newestItem = items[items.length - 1]?.seq ?? null;
  const newestSeq = evicted === null ? newestItem : Math.max(newestItem ?? 0, evicted.toSeq);
  return {
    text: lines.join("\n"),
    marker,
    full,
    excerpts,
    headlines,
    collapsed,
    afterSeq: fromSeq === undefined ? null : fromSeq - 1,
    evicted,
    newestSeq,
    budget,
    used: Math.max(0, budget - left),
  };
}
