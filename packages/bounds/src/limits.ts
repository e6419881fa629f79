/** The truncation backstop: 200 KB (204,800 bytes of UTF-8). The only guard on a boundary with nowhere to point. */
export const TRUNCATION_BACKSTOP_BYTES = 200 * 1024;

/** Characters a chain step's `{previous}` or `{outputs.<name>}` splice carries, plus one line with the path. */
export const DEFAULT_SPLICE_CHARS = 2000;

/** Budget of a fan-out's digest, pinned stubs and marker aside: four 100 KB children arrive as about 1.6 KB. */
export const DEFAULT_FANOUT_BUDGET = 1200;

/** Head plus tail of a single subagent's return: one child, so twice a splice. */
export const DEFAULT_RETURN_BUDGET = 4000;

/**
 * Most children one fan-out accepts: each costs a pinned stub (at most 513 characters) outside the budget, so their
 * number is capped; 256 worst-case stubs and the default budget stay well under the truncation backstop.
 */
export const MAX_FANOUT_CHILDREN = 256;

/** Most artifact files one run writes; their numbers then fit five digits. */
export const MAX_ARTIFACTS_PER_RUN = 10_000;

/** Longest artifacts directory accepted, so that every path fits whole inside a pinned stub. */
export const MAX_ARTIFACTS_DIR_LENGTH = 128;

/** Longest task name shown in a stub, ellipsis included (as the digest caps an author label). */
export const TASK_NAME_MAX_LENGTH = 64;

/** Longest name part of an artifact file name (`<n>-<name part>.txt`). */
export const ARTIFACT_SLUG_MAX_LENGTH = 40;
