/** One message (or one fan-out task) to digest. */
export interface DigestItem {
  /** Positive safe integer; strictly increasing across the input (oldest first). */
  readonly seq: number;
  /** Who wrote it; shown in the header, sanitised and cut to AUTHOR_MAX_LENGTH. */
  readonly author: string;
  /** The full text; any length and content. */
  readonly body: string;
  /** Declared one-line summary, used when the body no longer fits; else the body's first line with visible text. */
  readonly headline?: string;
  /** A stub line always shown, outside the budget (a task's name, status and the path to its full output). */
  readonly pinned?: string;
  /** Higher is spent first and shown first (failures first); default 0. A finite number. */
  readonly priority?: number;
}

/** Messages that rotated out of the ring before the reader saw them (as @orphus/rooms reports them). */
export interface EvictedRange {
  /** How many; 0 means none. */
  readonly count: number;
  /** Oldest evicted seq. */
  readonly fromSeq: number;
  /** Newest evicted seq. */
  readonly toSeq: number;
}

/** What the marker tells a reader about getting collapsed items back. */
export type DigestRecovery = "fetch" | "pinned";

/** Everything `renderDigest` reads. */
export interface DigestInput {
  /** Oldest first, seq strictly increasing; at most MAX_DIGEST_ITEMS. */
  readonly items: readonly DigestItem[];
  /** Characters the text outside the marker (and pinned lines) may take; default DEFAULT_DIGEST_BUDGET. */
  readonly budget?: number;
  /** Unread messages the ring dropped before this read; reported inside the marker. */
  readonly evicted?: EvictedRange | null;
  /**
   * "fetch" (rooms, default): the marker and each excerpt name the afterSeq to fetch; "pinned" (fan-out): they point
   * at the stubs.
   */
  readonly recovery?: DigestRecovery;
  /**
   * Whether priority is strict: an item shows only while no item of higher priority is collapsed, so (in a fan-out)
   * no success shows while a failure collapses. Default false: an item that does not fit is skipped, and one of lower
   * priority may show in its place (maximal across priorities).
   */
  readonly strictPriority?: boolean;
}

/** The digest text and an account of what went where. */
export interface DigestResult {
  /** Lines joined by "\n", no trailing newline: the marker line first when there is one, then items. */
  readonly text: string;
  /** The marker line (also the first line of `text`), or null when nothing was collapsed or evicted. */
  readonly marker: string | null;
  /** Seqs shown in full, ascending. */
  readonly full: readonly number[];
  /** Seqs shown as an excerpt (their opening, how many characters follow and how to read them), ascending. */
  readonly excerpts: readonly number[];
  /** Seqs shown as a headline, ascending. */
  readonly headlines: readonly number[];
  /** Seqs collapsed into the marker, ascending. */
  readonly collapsed: readonly number[];
  /** Pass to fetch (messages with seq > afterSeq) to get the collapsed ones back; null when none collapsed. */
  readonly afterSeq: number | null;
  /** The eviction reported in the marker, or null. */
  readonly evicted: EvictedRange | null;
  /** Newest seq this digest accounts for (items and eviction), for advancing a read cursor; null when empty. */
  readonly newestSeq: number | null;
  /** The budget applied. */
  readonly budget: number;
  /** Characters of budgeted text (all but the marker and pinned lines, newlines between them included); <= budget. */
  readonly used: number;
}
