// Shaping fan-out bodies before the digest sees them. Left to the digest alone, the newest child would take its
// text first and older ones whatever is left; a fan-out's children are peers, so here the budget is shared max-min
// fairly (small bodies whole, the rest split evenly) and each body over its share is cut to head and tail, so every
// child's beginning and end reach the parent. Sizes are the digest's own: each block is measured with
// @orphus/digest's renderBlock, so the shaped bodies fit the budget exactly as the digest will render them.
import { LINE_SCAN_LIMIT, renderBlock, sanitizeText } from "@orphus/digest";
import { headAndTail } from "./content.js";

/** A body below this many characters of share is not worth an excerpt: the digest's headline does as well. */
const MIN_EXCERPT_CHARS = 60;

/** The line standing for what an excerpt leaves out; the full output is one stub away. */
function cutLine(cutChars: number): string {
  return `… ${cutChars} characters cut, all in the output file …`;
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

/** What the item's block costs in the digest (its length and newline) with `body`, if whole within `maxCost`. */
function blockCost(item: SharedItem, body: string, maxCost: number): number | null {
  const block = renderBlock({ seq: item.seq, author: item.author, body: item.prefix + body }, maxCost - 1, {
    recovery: "pinned",
  });
  return block?.form === "full" ? block.text.length + 1 : null;
}

/**
 * What the item's block costs whole, if within `maxCost`. A body longer than it can show is measured without its
 * prefix first: the prefix (one line) only adds characters, and joining would copy all of a long body (a joined
 * string is flattened on first read) to find it too long. Reads the body until its rendering passes `maxCost` or it
 * ends: what the sanitiser drops is read through, since only the whole body says what it shows.
 */
function wholeCost(item: SharedItem, maxCost: number): number | null {
  const unprefixed = { ...item, prefix: "" };
  if (item.prefix !== "" && item.body.length > maxCost && blockCost(unprefixed, item.body, maxCost) === null) {
    return null;
  }
  return blockCost(item, item.body, maxCost);
}

/**
 * `item.body` cut to head and tail so that its block costs at most `target`, keeping as many characters as a
 * binary search finds, or null when even MIN_EXCERPT_CHARS cost more. (Cuts snap to line breaks, so cost is only
 * roughly monotonic in the characters kept; the search settles on a size that fits, not always the largest.)
 */
function excerpt(item: SharedItem, target: number): string | null {
  let best: string | null = null;
  let low = MIN_EXCERPT_CHARS;
  let high = target;
  while (low <= high) {
    const chars = (low + high) >>> 1;
    const text = headAndTail(item.body, chars, cutLine).text;
    if (blockCost(item, text, target) !== null) {
      best = text;
      low = chars + 1;
    } else high = chars - 1;
  }
  return best;
}

/**
 * `prefix` + `body` when the body shows whole (`whole`, or short enough to). A longer one goes unprefixed, because
 * joining would copy all of it (a joined string is flattened on first read) and it can only show as a headline or
 * an excerpt: the prefix goes on the headline, declared as the body's first line with visible text (line breaks as
 * the sanitiser sees them, within the digest's LINE_SCAN_LIMIT).
 */
function withPrefix(prefix: string, body: string, available: number, whole: boolean): SharedBody {
  if (prefix === "") return { body };
  if (whole || body.length <= available) return { body: prefix + body };
  const lines = sanitizeText(body.slice(0, LINE_SCAN_LIMIT)).split("\n");
  return { body, headline: prefix + (lines.find((line) => line.trim() !== "") ?? "") };
}

/**
 * What to hand the digest for `budget`: bodies unchanged when they all fit, else each one over its max-min fair
 * share cut to head and tail. Reads each body until its rendering passes `budget` characters or it ends (see
 * wholeCost), then, for a cut, about as many characters as the cut keeps.
 */
export function shareBudget(items: readonly SharedItem[], budget: number): SharedBody[] {
  // The digest's allowance: n blocks joined by n - 1 newlines fit `budget` when their costs (length + 1) fit
  // `budget + 1`.
  const available = budget + 1;
  const needs = items.map((item) => wholeCost(item, available) ?? Number.POSITIVE_INFINITY);
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
      if (grant < needs[index]!) bodies[index] = excerpt(items[index]!, grant) ?? bodies[index]!;
    });
  }
  return items.map((item, i) => {
    const whole = bodies[i] === item.body && needs[i]! <= available;
    return withPrefix(item.prefix, bodies[i]!, available, whole);
  });
}
