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
 * lookup are O(1), a read of L entries is O(L). Each entry may carry a weight (its bytes, for a room), and the ring
 * keeps the total of the entries it retains, so a holder of several rings can keep them under one budget by
 * evicting oldest entries early ({@link SeqRing.evictOldest}).
 */
export class SeqRing<T> {
  readonly capacity: number;
  readonly #slots: (T | undefined)[];
  /** The weight of the entry in each slot; 0 for an empty slot, so an append subtracts what it overwrites. */
  readonly #weights: Float64Array;
  #newestSeq = 0;
  #size = 0;
  #weight = 0;

  constructor(capacity: number = DEFAULT_RING_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_RING_CAPACITY) {
      throw new RoomsOptionError("capacity", `an integer from 1 to ${MAX_RING_CAPACITY}`, capacity);
    }
    this.capacity = capacity;
    // Allocated whole and filled, so the slot array stays packed and never grows past the capacity.
    this.#slots = new Array<T | undefined>(capacity).fill(undefined);
    this.#weights = new Float64Array(capacity);
  }

  /** Sequence number of the newest entry; 0 before the first append. */
  get newestSeq(): number {
    return this.#newestSeq;
  }

  /** Sequence number of the oldest retained entry; 0 while none is retained (before the first append). */
  get oldestSeq(): number {
    return this.#size === 0 ? 0 : this.#newestSeq - this.#size + 1;
  }

  /** Number of entries retained: never more than the capacity. */
  get size(): number {
    return this.#size;
  }

  /** Total weight of the retained entries. */
  get weight(): number {
    return this.#weight;
  }

  /** Sequence number the next append will receive. */
  get nextSeq(): number {
    return this.#newestSeq + 1;
  }

  /**
   * Stores an entry of `weight` (a non-negative number, default 0) under the next sequence number, evicting the
   * oldest when full; returns that number.
   */
  append(item: T, weight = 0): number {
    const seq = this.#newestSeq + 1;
    const slot = (seq - 1) % this.capacity;
    this.#slots[slot] = item;
    // The slot's old weight is 0 unless the ring was full, when it is the evicted entry's.
    this.#weight += weight - (this.#weights[slot] as number);
    this.#weights[slot] = weight;
    this.#newestSeq = seq;
    if (this.#size < this.capacity) this.#size++;
    return seq;
  }

  /**
   * Evicts the oldest retained entry before the ring needs its slot, and returns it with its weight; undefined when
   * none is retained. Its number is never reused: a read from before it reports it evicted, as if the ring had
   * wrapped.
   */
  evictOldest(): { readonly item: T; readonly weight: number } | undefined {
    if (this.#size === 0) return undefined;
    const slot = (this.#newestSeq - this.#size) % this.capacity;
    const item = this.#slots[slot] as T;
    const weight = this.#weights[slot] as number;
    this.#slots[slot] = undefined;
    this.#weights[slot] = 0;
    this.#weight -= weight;
    this.#size--;
    return { item, weight };
  }

  /** The entry numbered `seq`, or undefined when it was evicted or does not exist yet. */
  get(seq: number): T | undefined {
    if (!Number.isInteger(seq) || seq < 1 || seq > this.#newestSeq || seq <= this.#newestSeq - this.#size) {
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
    // The first number still retained, or the next to come when none is: everything before it is gone.
    const start = newestSeq - this.#size + 1;
    const first = Math.max(afterSeq + 1, start);
    const last = Math.min(newestSeq, first + limit - 1);
    const items: T[] = [];
    for (let seq = first; seq <= last; seq++) items.push(this.#slots[(seq - 1) % this.capacity] as T);
    const hasMore = last < newestSeq;
    if (start > afterSeq + 1) {
      return {
        items,
        evicted: { count: start - afterSeq - 1, fromSeq: afterSeq + 1, toSeq: start - 1 },
        newestSeq,
        oldestSeq,
        hasMore,
      };
    }
    return { items, newestSeq, oldestSeq, hasMore };
  }
}
