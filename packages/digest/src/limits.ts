/** Budget used when a caller names none: the characters a chain step's splice carries. */
export const DEFAULT_DIGEST_BUDGET = 2000;

/** Largest budget accepted: caps what one digest can put into a context window, even when asked for more. */
export const MAX_DIGEST_BUDGET = 1_000_000;

/** Most items one digest accepts: a room holds 500; a fan-out is far smaller. */
export const MAX_DIGEST_ITEMS = 10_000;

/** Longest headline text (declared or taken from the body), ellipsis included. */
export const HEADLINE_MAX_LENGTH = 120;

/** Longest author label inside a header, ellipsis included. */
export const AUTHOR_MAX_LENGTH = 64;

/** Longest pinned stub line, ellipsis and escape included: pinned lines are outside the budget, so each is capped. */
export const PINNED_LINE_MAX_LENGTH = 512;

/**
 * Characters of raw input read for one line (a headline, declared or from the body; an author; a pinned stub):
 * what lies beyond is never read, so text the sanitiser drops cannot make a line cost more than this.
 */
export const LINE_SCAN_LIMIT = 4096;

/**
 * Fewest characters of a body an excerpt shows (and always more than the item's headline): below this, the line
 * that says how much more there is would outweigh what is shown.
 */
export const EXCERPT_MIN_LENGTH = 40;
