import { RoomsOptionError } from "./errors.js";
import { DEFAULT_RING_CAPACITY, MAX_RING_CAPACITY } from "./limits.js";

/** Messages that left the ring before a reader got to them: `count` of them, sequence numbers `fromSeq`..`toSeq`. */
export interface EvictedRange {
  readonly count: number;
  readonly fromSeq: number;
  readonly toSeq: number;
}

/** One read of a ring: the entries after a sequence number, in order, and where the retained window stands. */
export interface RingSlice<T> {
  /** At most `limit` entries, oldest first, all with sequence numbers above `afterSeq`. */
  readonly items: readonly T[];
  /** Present when `afterSeq` is older than the retained window: what the reader missed and will never get. */
  readonly evicted?: EvictedRange;
  /** Sequence number of the newest entry ever appended; 0 before the first. */
  readonly newestSeq: number;
  /** Sequence number of the oldest retained entry; 0 before the first append. */
  readonly oldestSeq: number;
  /** True when retained entries remain after the last one returned. */
  readonly hasMore: boolean;
}

/**
 * A fixed-capacity ring of entries numbered 1, 2, 3, … in append order. Numbers are never reused, however many
 * times the ring wraps, and because they are contiguous an entry's slot is `(seq - 1) % capacity`: append and
 * lookup are O(1), a read of L entries is O(L).
 */
export class SeqRing<T> {
  readonly capacity: number;
  readonly #slots: (T | undefined)[];
  #newestSeq = 0;

  constructor(capacity: number = DEFAULT_RING_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_RING_CAPACITY) {
      throw new RoomsOptionError("capacity", `an integer from 1 to ${MAX_RING_CAPACITY}`, capacity);
    }
    this.capacity = capacity;
    // Allocated whole and filled, so the slot array stays packed and never grows past the capacity.
    this.#slots = new Array<T | undefined>(capacity).fill(undefined);
  }

  /** Sequence number of the newest entry; 0 before the first append. */
  get newestSeq(): number {
    return this.#newestSeq;
  }

  /** Sequence number of the oldest retained entry; 0 before the first append. */
  get oldestSeq(): number {
    return this.#newestSeq === 0 ? 0 : this.#newestSeq - this.size + 1;
  }

  /** Number of entries retained: never more than the capacity. */
  get size(): number {
    return Math.min(this.#newestSeq, this.capacity);
  }

  /** Sequence number the next append will receive. */
  get nextSeq(): number {
    return this.#newestSeq + 1;
  }

  /** Stores an entry under the next sequence number, evicting the oldest when full; returns that number. */
  append(item: T): number {
    const seq = this.#newestSeq + 1;
    this.#slots[(seq - 1) % this.capacity] = item;
    this.#newestSeq = seq;
    return seq;
  }

  /** The entry numbered `seq`, or undefined when it was evicted or does not exist yet. */
  get(seq: number): T | undefined {
    if (!Number.isInteger(seq) || seq < 1 || seq > this.#newestSeq || seq <= this.#newestSeq - this.size) {
      return undefined;
    }
    return this.#slots[(seq - 1) % this.capacity];
  }

  /**
   * Up to `limit` retained entries numbered above `afterSeq`, oldest first. An `afterSeq` at or past the newest
   * gives no entries (not an error); one older than the window also reports the evicted range it skipped.
   * Arguments are trusted here: callers validate them.
   */
  after(afterSeq: number, limit: number): RingSlice<T> {
    const newestSeq = this.#newestSeq;
    const oldestSeq = this.oldestSeq;
    const first = Math.max(afterSeq + 1, oldestSeq === 0 ? 1 : oldestSeq);
    const last = Math.min(newestSeq, first + limit - 1);
    const items: T[] = [];
    for (let seq = first; seq <= last; seq++) items.push(this.#slots[(seq - 1) % this.capacity] as T);
    const hasMore = last < newestSeq;
    if (oldestSeq > afterSeq + 1) {
      return {
        items,
        evicted: { count: oldestSeq - afterSeq - 1, fromSeq: afterSeq + 1, toSeq: oldestSeq - 1 },
        newestSeq,
        oldestSeq,
        hasMore,
      };
    }
    return { items, newestSeq, oldestSeq, hasMore };
  }
}
