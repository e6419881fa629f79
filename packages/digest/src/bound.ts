import { PINNED_LINE_MAX_LENGTH } from "./limits.js";
import { MAX_MARKER_LENGTH } from "./marker.js";

/**
 * The most characters `renderDigest(...).text` can have for `budget` and `pinnedCount` items carrying a pinned
 * line: the marker and its newline, the budget, and each pinned line at its cap with its newline. Callers that must
 * promise a size up front (a fan-out's parent) can state it without rendering.
 */
export function maxDigestLength(budget: number, pinnedCount = 0): number {
  return MAX_MARKER_LENGTH + 1 + budget + pinnedCount * (PINNED_LINE_MAX_LENGTH + 1);
}
