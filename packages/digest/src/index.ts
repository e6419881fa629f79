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
 * The budget is spent newest first and in full (maximal): the newest message gets up to half of it, every message a
 * headline while one fits, then text goes newest first, whole messages or excerpts (the opening, how many characters
 * follow, the afterSeq that reads the rest); what does not fit is counted in one marker line with the afterSeq that
 * returns it. Pure: no clock, no locale, no randomness. Peer text is sanitised (sanitizeText: no controls, escape
 * sequences, invisible or format characters, split surrogate pairs; no body line that can pass for a header, a
 * pinned stub or the marker) and names are escaped, never stripped (escapeIdentity). renderBlock renders one message
 * by the same rules, for packages that measure text the digest way.
 */
export { renderDigest } from "./digest.js";
export { renderBlock } from "./block.js";
export { escapeIdentity, sanitizeText } from "./sanitize.js";
export { cutAtWord } from "./text.js";
export { maxDigestLength } from "./bound.js";
export { MARKER_PREFIX, MAX_MARKER_LENGTH } from "./marker.js";
export {
  AUTHOR_MAX_LENGTH,
  DEFAULT_DIGEST_BUDGET,
  LINE_SCAN_LIMIT,
  MAX_DIGEST_BUDGET,
  MAX_DIGEST_ITEMS,
  PINNED_LINE_MAX_LENGTH,
} from "./limits.js";
export { DigestError, DigestInputError, DigestLimitError } from "./errors.js";
export type { BlockOptions, BlockSource, RenderedBlock } from "./block.js";
export type { EscapeIdentityOptions } from "./sanitize.js";
export type { DigestInput, DigestItem, DigestRecovery, DigestResult, EvictedRange } from "./types.js";
