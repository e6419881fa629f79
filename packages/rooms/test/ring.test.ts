import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { SeqRing } from "@orphus/rooms";

/** A ring holding `count` appended entries, each entry being its own expected seq. */
function filled(capacity: number, count: number): SeqRing<number> {
  const ring = new SeqRing<number>(capacity);
  for (let i = 1; i <= count; i++) ring.append(i);
  return ring;
}

describe("SeqRing edge cases", () => {
  test("an empty ring reads as empty at seq 0, with nothing evicted", () => {
    const ring = new SeqRing<number>(3);
    expect([ring.newestSeq, ring.oldestSeq, ring.size, ring.nextSeq]).toEqual([0, 0, 0, 1]);
    expect(ring.after(0, 10)).toEqual({ items: [], newestSeq: 0, oldestSeq: 0, hasMore: false });
    expect(ring.after(5, 10)).toEqual({ items: [], newestSeq: 0, oldestSeq: 0, hasMore: false });
    expect(ring.get(1)).toBeUndefined();
  });

  test("capacity 1 keeps only the newest entry and reports the rest as evicted", () => {
    const ring = filled(1, 4);
    expect([ring.newestSeq, ring.oldestSeq, ring.size]).toEqual([4, 4, 1]);
    expect(ring.after(0, 10)).toEqual({
      items: [4],
      evicted: { count: 3, fromSeq: 1, toSeq: 3 },
      newestSeq: 4,
      oldestSeq: 4,
      hasMore: false,
    });
    expect(ring.after(3, 10)).toEqual({ items: [4], newestSeq: 4, oldestSeq: 4, hasMore: false });
    expect([ring.get(3), ring.get(4), ring.get(5)]).toEqual([undefined, 4, undefined]);
  });

  test("exactly at capacity nothing is evicted yet; one more evicts seq 1", () => {
    const ring = filled(5, 5);
    expect(ring.after(0, 10)).toEqual({ items: [1, 2, 3, 4, 5], newestSeq: 5, oldestSeq: 1, hasMore: false });
    ring.append(6);
    expect(ring.after(0, 10)).toEqual({
      items: [2, 3, 4, 5, 6],
      evicted: { count: 1, fromSeq: 1, toSeq: 1 },
      newestSeq: 6,
      oldestSeq: 2,
      hasMore: false,
    });
  });

  test("after wrapping a thousand times, seqs still count up and reads still line up", () => {
    const ring = filled(7, 7 * 1000 + 3);
    expect([ring.newestSeq, ring.oldestSeq, ring.size]).toEqual([7003, 6997, 7]);
    expect(ring.after(6999, 2)).toEqual({ items: [7000, 7001], newestSeq: 7003, oldestSeq: 6997, hasMore: true });
    expect(ring.after(10, 3)).toEqual({
      items: [6997, 6998, 6999],
      evicted: { count: 6986, fromSeq: 11, toSeq: 6996 },
      newestSeq: 7003,
      oldestSeq: 6997,
      hasMore: true,
    });
    for (let seq = 6997; seq <= 7003; seq++) expect(ring.get(seq)).toBe(seq);
    expect(ring.get(6996)).toBeUndefined();
  });

  test("afterSeq = 0, = newest and > newest give clear answers", () => {
    const ring = filled(4, 6);
    expect(ring.after(0, 2)).toEqual({
      items: [3, 4],
      evicted: { count: 2, fromSeq: 1, toSeq: 2 },
      newestSeq: 6,
      oldestSeq: 3,
      hasMore: true,
    });
    expect(ring.after(6, 2)).toEqual({ items: [], newestSeq: 6, oldestSeq: 3, hasMore: false });
    expect(ring.after(60, 2)).toEqual({ items: [], newestSeq: 6, oldestSeq: 3, hasMore: false });
  });

  test("a limit of 0 returns no entries but still says what was evicted and whether more remain", () => {
    expect(filled(2, 5).after(1, 0)).toEqual({
      items: [],
      evicted: { count: 2, fromSeq: 2, toSeq: 3 },
      newestSeq: 5,
      oldestSeq: 4,
      hasMore: true,
    });
  });

  test("get refuses what is not an existing retained seq", () => {
    const ring = filled(3, 5);
    expect([0, -1, 1.5, 2, 6, Number.NaN].map((seq) => ring.get(seq))).toEqual(Array(6).fill(undefined));
  });

  test.each([0, -1, 1.5, Number.NaN, 1_000_001])("capacity %s is refused with ERR_ROOMS_INVALID_OPTION", (capacity) => {
    expect(() => new SeqRing(capacity)).toThrow(expect.objectContaining({ code: "ERR_ROOMS_INVALID_OPTION" }));
  });

  test("the default capacity is 500", () => {
    expect(new SeqRing().capacity).toBe(500);
  });
});

test("SeqRing reads agree with slicing an array that keeps everything", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 9 }),
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: 0, max: 70 }),
      fc.integer({ min: 0, max: 12 }),
      (capacity, count, afterSeq, limit) => {
        const ring = filled(capacity, count);
        const all = Array.from({ length: count }, (_, i) => i + 1);
        const kept = all.slice(Math.max(0, count - capacity));
        const lost = all.filter((seq) => seq > afterSeq && seq < (kept[0] ?? 0));
        const after = kept.filter((seq) => seq > afterSeq);
        const slice = ring.after(afterSeq, limit);
        expect(slice.items).toEqual(after.slice(0, limit));
        expect(slice.hasMore).toBe(after.length > limit);
        expect(slice.evicted).toEqual(
          lost.length === 0 ? undefined : { count: lost.length, fromSeq: lost[0], toSeq: lost.at(-1) },
        );
        expect(ring.size).toBeLessThanOrEqual(capacity);
      },
    ),
  );
});
