/**
 * @orphus/digest — the deterministic, budgeted digest: what enters an agent's context from a room is at most
 * `budget` characters plus one marker line, whatever the number, length or content of the unread messages.
 *
 * ```ts
 * import { renderDigest } from "@orphus/digest";
 *
 * const digest = renderDigest({
 *   items: [
 *     { seq: 11, author: "planner", body: "Keep the ring at 500.\nEvict oldest first." },
 *     { seq: 12, author: "critic", body: "Agreed." },
 *   ],
 *   budget: 2000,
 * });
 * digest.text; // "[#11 planner] Keep the ring at 500.\n  Evict oldest first.\n[#12 critic] Agreed."
 * digest.newestSeq; // 12: advance the read cursor here
 * ```
 *
 * Budget is spent newest-first: the newest messages in full, older ones as headlines, the oldest collapsed into one
 * marker line that says how many, their seq range and the afterSeq that fetch takes to return them. Pure: no clock,
 * no locale, no randomness. Peer text is sanitised: no control characters, no escape sequences, no split surrogate
 * pairs, and no body line that can pass for a header, a pinned stub or the marker.
 */
export { renderDigest } from "./digest.js";
export { maxDigestLength } from "./bound.js";
export { MARKER_PREFIX, MAX_MARKER_LENGTH } from "./marker.js";
export {
  AUTHOR_MAX_LENGTH,
  DEFAULT_DIGEST_BUDGET,
  FULL_SCAN_RATIO,
  FULL_SCAN_SLACK,
  HEADLINE_MAX_LENGTH,
  LINE_SCAN_LIMIT,
  MAX_DIGEST_BUDGET,
  MAX_DIGEST_ITEMS,
  PINNED_LINE_MAX_LENGTH,
} from "./limits.js";
export { DigestError, DigestInputError, DigestLimitError } from "./errors.js";
export type { DigestInput, DigestItem, DigestRecovery, DigestResult, EvictedRange } from "./types.js";
