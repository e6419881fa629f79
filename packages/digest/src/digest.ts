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

/**
 * The item in full, or null when that needs more than `allowance` (its length plus its newline). The first item
 * the budget is spent on is read however long it is, so the newest message is shown in full whenever it fits; the
 * reading of every later one is limited in proportion to what is left.
 */
function fullBlock(item: DigestItem, allowance: number, first: boolean): string | null {
  const head = header(item, false);
  // The block is `head`, or `head + " " + body`; with its newline it may take `allowance`.
  const body = renderBody(item.body, allowance - head.length - 2, !first);
  if (body === null) return null;
  const block = body === "" ? head : `${head} ${body}`;
  return block.length + 1 <= allowance ? block : null;
}

function headlineBlock(item: DigestItem): string {
  const text = headlineText(item.headline, item.body);
  const head = header(item, true);
  return text === "" ? head : `${head} ${text}`;
}

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
 * Renders the digest of `input.items` within `input.budget`. Budget is spent newest-first (higher priority before
 * that): items in full while the next fits in full, then headlines while the next headline fits, then the rest
 * collapse into the marker line. Text outside the marker and the pinned lines is at most `budget` characters.
 */
export function renderDigest(input: DigestInput): DigestResult {
  const { items, budget, evicted, recovery, prioritised } = checkInput(input);
  const forms = new Uint8Array(items.length); // COLLAPSED unless set
  const blocks = new Array<string | undefined>(items.length);
  // Each block costs its length plus one newline; n blocks joined by n - 1 newlines fit `budget` exactly when
  // their costs fit `budget + 1`.
  let allowance = budget + 1;
  let phase: Form = FULL;
  for (const index of byPriority(items, prioritised, true)) {
    const item = items[index] as DigestItem;
    if (phase === FULL) {
      const first = allowance === budget + 1; // nothing spent yet
      const block = fullBlock(item, allowance, first);
      if (block === null) phase = HEADLINE;
      else {
        forms[index] = FULL;
        blocks[index] = block;
        allowance -= block.length + 1;
        continue;
      }
    }
    const block = headlineBlock(item);
    if (block.length + 1 > allowance) break;
    forms[index] = HEADLINE;
    blocks[index] = block;
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
  for (const index of byPriority(items, prioritised, false)) {
    const item = items[index] as DigestItem;
    if (item.pinned !== undefined) {
      const stub = pinnedLine(item.pinned);
      if (stub !== "") lines.push(stub);
    }
    const block = blocks[index];
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
