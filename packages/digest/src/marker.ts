import { MAX_DIGEST_ITEMS } from "./limits.js";
import type { DigestRecovery, EvictedRange } from "./types.js";

/** Every marker line starts with this; no header, continuation or pinned line can. */
export const MARKER_PREFIX = "[digest] ";

/** What a marker reports about the items it stands for. */
export interface CollapsedRange {
  readonly count: number;
  readonly fromSeq: number;
  readonly toSeq: number;
}

function seqRange(fromSeq: number, toSeq: number): string {
  return fromSeq === toSeq ? `#${fromSeq}` : `#${fromSeq}–#${toSeq}`;
}

function plural(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}

/**
 * The one marker line: eviction first (it is older), then the collapse and how to get it back. Numbers are safe
 * integers and the words fixed, so its length has a ceiling, MAX_MARKER_LENGTH.
 */
export function renderMarker(
  evicted: EvictedRange | null,
  collapsed: CollapsedRange | null,
  recovery: DigestRecovery,
): string {
  const parts: string[] = [];
  if (evicted !== null) {
    const { count, fromSeq, toSeq } = evicted;
    parts.push(
      `${count} ${plural(count, "message", "messages")} evicted before you read ${plural(count, "it", "them")} ` +
        `(${seqRange(fromSeq, toSeq)}), no longer retrievable`,
    );
  }
  if (collapsed !== null) {
    const { count, fromSeq, toSeq } = collapsed;
    const range = seqRange(fromSeq, toSeq);
    parts.push(
      recovery === "fetch"
        ? `${count} ${plural(count, "message", "messages")} collapsed (${range}), ` +
            `fetch afterSeq=${fromSeq - 1} to read ${plural(count, "it", "them")}`
        : `${count} ${plural(count, "item", "items")} collapsed (${range}), full output via the pinned lines`,
    );
  }
  return `${MARKER_PREFIX}${parts.join("; ")}.`;
}

const widest = Number.MAX_SAFE_INTEGER;
const widestEviction = { count: widest, fromSeq: widest - 1, toSeq: widest };
const widestCollapse = { count: MAX_DIGEST_ITEMS, fromSeq: widest - MAX_DIGEST_ITEMS + 1, toSeq: widest };

/**
 * The longest marker line any input can produce: seqs and the evicted count at their widest (safe integers), the
 * collapsed count at MAX_DIGEST_ITEMS, every word in its longest form.
 */
export const MAX_MARKER_LENGTH = Math.max(
  renderMarker(widestEviction, widestCollapse, "fetch").length,
  renderMarker(widestEviction, widestCollapse, "pinned").length,
);
