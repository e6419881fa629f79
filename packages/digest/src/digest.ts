import { renderMarker } from "./marker.js";
import { authorLabel, headlineText, pinnedLine, renderBody } from "./text.js";
import type { DigestInput, DigestItem, DigestResult } from "./types.js";
import { checkInput } from "./validate.js";

const COLLAPSED = 0;
const FULL = 1;
const HEADLINE = 2;
type Form = typeof COLLAPSED | typeof FULL | typeof HEADLINE;

function header(item: DigestItem, headline: boolean): string {
  return `[#${item.seq} ${authorLabel(item.author)}${headline ? ", headline" : ""}]`;
}

/** The item in full, or null when that needs more than `allowance` (its length plus its newline). */
function fullBlock(item: DigestItem, allowance: number): string | null {
  const head = header(item, false);
  // The block is `head`, or `head + " " + body`; with its newline it may take `allowance`.
  const body = renderBody(item.body, allowance - head.length - 2);
  if (body === null) return null;
  const block = body === "" ? head : `${head} ${body}`;
  return block.length + 1 <= allowance ? block : null;
}

function headlineBlock(item: DigestItem): string {
  const text = headlineText(item.headline, item.body);
  const head = header(item, true);
  return text === "" ? head : `${head} ${text}`;
}

/** Higher priority first, then newest first: the order budget is spent in. */
function spendingOrder(items: readonly DigestItem[], prioritised: boolean): number[] {
  const order = Array.from({ length: items.length }, (_, i) => items.length - 1 - i);
  if (prioritised) order.sort((a, b) => (items[b]?.priority ?? 0) - (items[a]?.priority ?? 0) || b - a);
  return order;
}

/** Higher priority first, then oldest first: the order a reader sees. */
function displayOrder(items: readonly DigestItem[], prioritised: boolean): number[] {
  const order = Array.from({ length: items.length }, (_, i) => i);
  if (prioritised) order.sort((a, b) => (items[b]?.priority ?? 0) - (items[a]?.priority ?? 0) || a - b);
  return order;
}

/**
 * Renders the digest of `input.items` within `input.budget`. Budget is spent newest-first (higher priority before
 * that): items in full while the next fits in full, then headlines while the next headline fits, then the rest
 * collapse into the marker line. Text outside the marker and the pinned lines is at most `budget` characters.
 */
export function renderDigest(input: DigestInput): DigestResult {
  const { items, budget, evicted, recovery, prioritised } = checkInput(input);
  const forms = new Uint8Array(items.length); // COLLAPSED unless set
  const blocks = new Map<number, string>();
  // Each block costs its length plus one newline; n blocks joined by n - 1 newlines fit `budget` exactly when
  // their costs fit `budget + 1`.
  let allowance = budget + 1;
  let phase: Form = FULL;
  for (const index of spendingOrder(items, prioritised)) {
    const item = items[index] as DigestItem;
    if (phase === FULL) {
      const block = fullBlock(item, allowance);
      if (block === null) phase = HEADLINE;
      else {
        forms[index] = FULL;
        blocks.set(index, block);
        allowance -= block.length + 1;
        continue;
      }
    }
    const block = headlineBlock(item);
    if (block.length + 1 > allowance) break;
    forms[index] = HEADLINE;
    blocks.set(index, block);
    allowance -= block.length + 1;
  }

  const full: number[] = [];
  const headlines: number[] = [];
  const collapsed: number[] = [];
  for (let i = 0; i < items.length; i++) {
    const seq = (items[i] as DigestItem).seq;
    (forms[i] === FULL ? full : forms[i] === HEADLINE ? headlines : collapsed).push(seq);
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
  for (const index of displayOrder(items, prioritised)) {
    const item = items[index] as DigestItem;
    if (item.pinned !== undefined) {
      const stub = pinnedLine(item.pinned);
      if (stub !== "") lines.push(stub);
    }
    const block = blocks.get(index);
    if (block !== undefined) lines.push(block);
  }

  const newestItem = items[items.length - 1]?.seq ?? null;
  const newestSeq = evicted === null ? newestItem : Math.max(newestItem ?? 0, evicted.toSeq);
  return {
    text: lines.join("\n"),
    marker,
    full,
    headlines,
    collapsed,
    afterSeq: fromSeq === undefined ? null : fromSeq - 1,
    evicted,
    newestSeq,
    budget,
    used: Math.max(0, budget - allowance),
  };
}
