// Shaping fan-out bodies before the digest sees them. The digest shows an item in full or as its first line; a
// 100 KB output is never shown in full, so left alone each big child would be one headline while the budget sits
// unused. Here the budget is shared max-min fairly (small bodies whole, the rest split evenly) and each body over
// its share is cut to head and tail, so every child's beginning and end reach the parent. The digest still renders
// and bounds the result; these are estimates that only ever err on the large side.
import { AUTHOR_MAX_LENGTH, HEADLINE_MAX_LENGTH } from "@orphus/digest";
import { headAndTail } from "./content.js";

/** A body below this many characters of share is not worth an excerpt: the digest's headline does as well. */
const MIN_EXCERPT_CHARS = 60;

/** Line breaks as the digest counts them; each one costs up to two more characters (continuation indent). */
const BREAKS = /[\n\v\f\r\x1c-\x1e\x85\u2028\u2029]/g;

/** At least what the digest's rendering of `body` costs (it only drops, squeezes and indents continuation lines). */
function bodyCost(body: string): number {
  return body.length + 2 * (body.match(BREAKS)?.length ?? 0);
}

/** At least what the digest's header `[#seq author]`, the space after it and the block's newline cost. */
function blockOverhead(seq: number, author: string): number {
  return `[#${seq} ]`.length + Math.max(1, Math.min(author.length, AUTHOR_MAX_LENGTH)) + 2;
}

/** The line standing for what an excerpt leaves out; the full output is one stub away. */
function cutLine(cutChars: number): string {
  return `… ${cutChars} characters cut, all in the output file …`;
}

/**
 * `body` cut to head and tail costing at most `target`, keeping as many characters as a binary search finds, or
 * null when even MIN_EXCERPT_CHARS cost more. (Cuts snap to line breaks, so cost is only roughly monotonic in the
 * characters kept; the search settles on a size that fits, not always the largest.)
 */
function excerpt(body: string, target: number): string | null {
  let best: string | null = null;
  let low = MIN_EXCERPT_CHARS;
  let high = target;
  while (low <= high) {
    const chars = (low + high) >>> 1;
    const text = headAndTail(body, chars, cutLine).text;
    if (bodyCost(text) <= target) {
      best = text;
      low = chars + 1;
    } else high = chars - 1;
  }
  return best;
}

/** A body to share the budget among. */
export interface SharedItem {
  readonly seq: number;
  readonly author: string;
  readonly body: string;
  /** Shown before the body ("error: " for a failure's detail); counted in its cost, never cut. */
  readonly prefix: string;
}

/** What the digest gets for an item. */
export interface SharedBody {
  readonly body: string;
  /** Declared when the prefix could not go on the body. */
  readonly headline?: string;
}

/**
 * `prefix` + `body` when the body is short enough to show whole. A longer one goes unprefixed, because joining
 * would copy all of it (a joined string is flattened on first read) and it can only show as a headline anyway:
 * the prefix goes on that headline, taken from the body's first line.
 */
function withPrefix(prefix: string, body: string, available: number): SharedBody {
  if (prefix === "") return { body };
  if (body.length <= available) return { body: prefix + body };
  const firstLine = body.slice(0, 4 * HEADLINE_MAX_LENGTH).trimStart().split(/[\n\r]/, 1)[0] ?? "";
  return { body, headline: prefix + firstLine };
}

/**
 * What to hand the digest for `budget`: bodies unchanged when they all fit, else each one over its max-min fair
 * share cut to head and tail. Reads at most about `budget` characters of each body.
 */
export function shareBudget(items: readonly SharedItem[], budget: number): SharedBody[] {
  // The digest's allowance: n blocks joined by n - 1 newlines fit `budget` when their costs (length + 1) fit
  // `budget + 1`.
  const available = budget + 1;
  const overheads = items.map((item) => blockOverhead(item.seq, item.author) + item.prefix.length);
  // A body longer than everything available needs no exact cost: it is over any share.
  const needs = items.map(
    (item, i) => overheads[i]! + (item.body.length > available ? item.body.length : bodyCost(item.body)),
  );
  let total = 0;
  for (const need of needs) total += need;
  const bodies = items.map((item) => item.body);
  if (total > available) {
    const order = needs.map((_, i) => i).sort((a, b) => needs[a]! - needs[b]! || a - b);
    let remaining = available;
    order.forEach((index, k) => {
      const share = Math.floor(remaining / (order.length - k));
      const grant = Math.min(needs[index]!, share);
      remaining -= grant;
      if (grant < needs[index]!) bodies[index] = excerpt(bodies[index]!, grant - overheads[index]!) ?? bodies[index]!;
    });
  }
  return items.map((item, i) => withPrefix(item.prefix, bodies[i]!, available));
}
