import fc from "fast-check";
import { expect, test } from "vitest";
import { ActivityCoalescer, MAX_PING_AUTHORS, MAX_PING_ROOMS, type ActivityNotice } from "@orphus/roundtable-client";
import { mergeActivityNotices } from "@orphus/pi-roundtable";

interface Post {
  readonly room: string;
  readonly author: string;
}

/** The notice the client's own coalescer makes of these posts, numbered from `first` (flushed at once, no timers). */
function coalesce(posts: readonly Post[], first = 1): ActivityNotice | undefined {
  const coalescer = new ActivityCoalescer({ onNotice: () => undefined });
  posts.forEach((post, i) => coalescer.push({ event: "post", room: post.room, author: post.author, seq: first + i }));
  return coalescer.flush();
}

const post = fc.record({
  room: fc.constantFrom(...Array.from({ length: MAX_PING_ROOMS + 3 }, (_, i) => `room-${i}`)),
  author: fc.constantFrom(...Array.from({ length: MAX_PING_AUTHORS + 3 }, (_, i) => `role-${i}`)),
});
const split = fc.tuple(
  fc.array(post, { minLength: 1, maxLength: 60 }),
  fc.array(post, { minLength: 1, maxLength: 60 }),
);

test("a merged notice counts every post once and names only rooms and authors that posted, within the limits", () => {
  fc.assert(
    fc.property(split, ([first, second]) => {
      const merged = mergeActivityNotices(coalesce(first) as ActivityNotice, coalesce(second) as ActivityNotice);
      const all = [...first, ...second];
      expect(merged.total).toBe(all.length);
      expect(merged.rooms.reduce((sum, room) => sum + room.count, merged.otherMessages)).toBe(all.length);
      expect(merged.rooms.length).toBeLessThanOrEqual(MAX_PING_ROOMS);
      const names = merged.rooms.map((room) => room.room);
      expect(names).toEqual([...names].sort());
      for (const room of merged.rooms) {
        const posts = all.filter((p) => p.room === room.room);
        expect(room.count).toBeLessThanOrEqual(posts.length);
        expect(room.authors.length).toBeLessThanOrEqual(MAX_PING_AUTHORS);
        expect(new Set(room.authors).size).toBe(room.authors.length);
        for (const author of room.authors) expect(posts.some((p) => p.author === author)).toBe(true);
      }
    }),
  );
});

test("within the limits, merging two notices says what one notice over all the posts says", () => {
  const few = fc.record({
    room: fc.constantFrom("design", "ops", "review"),
    author: fc.constantFrom("planner", "critic", "reviewer"),
  });
  fc.assert(
    fc.property(
      fc.array(few, { minLength: 1, maxLength: 30 }),
      fc.array(few, { minLength: 1, maxLength: 30 }),
      (first, second) => {
        const later = coalesce(second, first.length + 1) as ActivityNotice;
        const merged = mergeActivityNotices(coalesce(first) as ActivityNotice, later);
        const whole = coalesce([...first, ...second]) as ActivityNotice;
        // Same rooms, counts and sets of authors; only the order of authors may differ (first mention, not most active).
        const shape = (notice: ActivityNotice) =>
          notice.rooms.map((room) => ({
            room: room.room,
            count: room.count,
            authors: [...room.authors].sort(),
            otherAuthors: room.otherAuthors,
            throughSeq: room.throughSeq,
          }));
        expect(shape(merged)).toEqual(shape(whole));
        expect(merged.total).toBe(whole.total);
        expect(merged.otherMessages).toBe(0);
      },
    ),
  );
});

test("authors keep the older notice's order, then the newer one's newcomers", () => {
  const merged = mergeActivityNotices(
    {
      rooms: [{ room: "design", count: 3, authors: ["critic", "reviewer"], otherAuthors: 0 }],
      otherMessages: 0,
      total: 3,
    },
    {
      rooms: [{ room: "design", count: 2, authors: ["planner", "critic"], otherAuthors: 0 }],
      otherMessages: 1,
      total: 3,
    },
  );
  expect(merged).toEqual({
    rooms: [{ room: "design", count: 5, authors: ["critic", "reviewer", "planner"], otherAuthors: 0 }],
    otherMessages: 1,
    total: 6,
  });
});
