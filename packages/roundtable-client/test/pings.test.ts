import fc from "fast-check";
import { expect, test } from "vitest";
import { ActivityCoalescer, renderActivityNotice, type ActivityNotice } from "@orphus/roundtable-client";
import { manualTimers } from "../../../test-support/manual-timers.js";

const post = (room: string, author: string, seq: number) => ({ event: "post", room, seq, author });

/** A coalescer on manual timers: its windows pass when the test advances `clock`. */
function collect(options: { ignoreAuthor?: string } = {}) {
  const notices: ActivityNotice[] = [];
  const clock = manualTimers();
  const coalescer = new ActivityCoalescer({ onNotice: (n) => notices.push(n), timers: clock, ...options });
  return { notices, coalescer, clock };
}

test("a posts event counts every post it lists, as the same post events one by one would", () => {
  const merged = collect({ ignoreAuthor: "me" });
  const single = collect({ ignoreAuthor: "me" });
  const posts = [
    { seq: 1, author: "critic" },
    { seq: 2, author: "me", count: 2 },
    { seq: 4, author: "reviewer", count: 3 },
    { seq: 7, author: "critic" },
  ];
  expect(merged.coalescer.push({ event: "posts", room: "design", posts })).toBe(true);
  for (const p of posts) {
    for (let i = 0; i < (p.count ?? 1); i++) single.coalescer.push(post("design", p.author, p.seq + i));
  }
  expect(merged.coalescer.pending).toBe(5);
  expect(merged.coalescer.flush()).toEqual(single.coalescer.flush());
  // Only the ignored author's own posts: nothing counted, no timer armed.
  expect(merged.coalescer.push({ event: "posts", room: "design", posts: [{ seq: 5, author: "me" }] })).toBe(false);
  expect([...merged.clock.pending(), ...single.clock.pending()]).toEqual([]);
});

test("events within 1.5 s of each other make one notice, delivered 1.5 s after the last", () => {
  const { notices, coalescer, clock } = collect();
  coalescer.push(post("design", "critic", 1));
  clock.advance(1000);
  coalescer.push(post("design", "reviewer", 2));
  clock.advance(1000);
  coalescer.push(post("design", "critic", 3));
  clock.advance(1499);
  expect(notices).toEqual([]);
  clock.advance(1);
  expect(notices).toEqual([
    { rooms: [{ room: "design", count: 3, authors: ["critic", "reviewer"], otherAuthors: 0 }], otherMessages: 0, total: 3 },
  ]);
  clock.advance(60_000);
  expect(notices).toHaveLength(1);
});

test("each quiet period gets its own notice", () => {
  const { notices, coalescer, clock } = collect();
  coalescer.push(post("design", "critic", 1));
  clock.advance(1500);
  coalescer.push(post("design", "planner", 2));
  clock.advance(1500);
  expect(notices.map(renderActivityNotice)).toEqual([
    "[roundtable] design: 1 new from critic — digest to read",
    "[roundtable] design: 1 new from planner — digest to read",
  ]);
});

test("sequence-0 events are membership churn and never count", () => {
  const { notices, coalescer, clock } = collect();
  expect(coalescer.push({ event: "join", room: "design", seq: 0, author: "critic" })).toBe(false);
  expect(coalescer.push({ event: "post", room: "design", seq: 0, author: "critic" })).toBe(false);
  expect(coalescer.push({ event: "leave", room: "design", seq: 0 })).toBe(false);
  clock.advance(10_000);
  expect(notices).toEqual([]);
  expect(coalescer.pending).toBe(0);
});

test("own posts are not announced", () => {
  const { notices, coalescer, clock } = collect({ ignoreAuthor: "planner" });
  expect(coalescer.push(post("design", "planner", 1))).toBe(false);
  clock.advance(2000);
  expect(notices).toEqual([]);
});

test("a room that never goes quiet still pings after the maximum delay", () => {
  const { notices, coalescer, clock } = collect();
  for (let i = 1; i <= 25; i++) {
    coalescer.push(post("busy", "critic", i));
    clock.advance(500);
  }
  expect(notices.length).toBeGreaterThanOrEqual(1);
  expect(notices[0]?.total).toBe(20);
});

test("rooms past the eighth and authors past the sixth are counted, not named", () => {
  const { notices, coalescer, clock } = collect();
  let seq = 1;
  for (let r = 0; r < 10; r++) coalescer.push(post(`room-${r}`, "critic", seq++));
  for (let a = 0; a < 8; a++) coalescer.push(post("room-0", `author-${a}`, seq++));
  coalescer.push(post("room-0", "author-7", seq++));
  clock.advance(1500);
  const notice = notices[0] as ActivityNotice;
  expect(notice.rooms.map((r) => r.room)).toEqual([
    "room-0",
    "room-1",
    "room-2",
    "room-3",
    "room-4",
    "room-5",
    "room-6",
    "room-7",
  ]);
  expect(notice.otherMessages).toBe(2);
  expect(notice.total).toBe(19);
  expect(notice.rooms[0]).toEqual({
    room: "room-0",
    count: 10,
    authors: ["author-7", "author-0", "author-1", "author-2", "author-3", "author-4"],
    otherAuthors: 3,
  });
  expect(renderActivityNotice(notice)).toBe(
    "[roundtable] room-0: 10 new from author-7, author-0, author-1, author-2, author-3, author-4 and 3 others · " +
      "room-1: 1 new from critic · room-2: 1 new from critic · room-3: 1 new from critic · room-4: 1 new from critic · " +
      "room-5: 1 new from critic · room-6: 1 new from critic · room-7: 1 new from critic · 2 new in other rooms — digest to read",
  );
});

test("a rendered notice is one line whatever the names hold", () => {
  const line = renderActivityNotice({
    rooms: [{ room: "a\nb", count: 1, authors: ["x\u001b[2Jy"], otherAuthors: 1 }],
    otherMessages: 0,
    total: 1,
  });
  expect(line).toBe("[roundtable] a\\u{A}b: 1 new from x\\u{1B}\\u{5B}2Jy and 1 other — digest to read");
});

test("flush delivers now and dispose drops what is pending", () => {
  const { notices, coalescer, clock } = collect();
  coalescer.push(post("design", "critic", 1));
  expect(coalescer.flush()?.total).toBe(1);
  expect(coalescer.flush()).toBeUndefined();
  coalescer.push(post("design", "critic", 2));
  coalescer.dispose();
  clock.advance(20_000);
  expect(notices).toHaveLength(1);
  expect(coalescer.push(post("design", "critic", 3))).toBe(false);
});

test("bad windows are refused before anything runs", () => {
  expect(() => new ActivityCoalescer({ onNotice: () => undefined, windowMs: 0 })).toThrow(
    expect.objectContaining({ code: "ERR_CLIENT_INVALID_OPTION" }),
  );
});

test("property: notices count exactly the content events, per room, and nothing is lost or invented", () => {
  const listed = fc.record(
    { author: fc.constantFrom("planner", "critic", "reviewer", "me"), seq: fc.nat({ max: 3 }), count: fc.integer({ min: 2, max: 4 }) },
    { requiredKeys: ["author", "seq"] },
  );
  const event = fc.record({
    room: fc.constantFrom("a", "b", "c"),
    // A post event announces its first post, a posts event all of them, churn none.
    form: fc.constantFrom("post", "posts", "join"),
    posts: fc.array(listed, { minLength: 1, maxLength: 4 }),
    gap: fc.integer({ min: 0, max: 3000 }),
  });
  fc.assert(
    fc.property(fc.array(event, { maxLength: 60 }), (events) => {
      const { notices, coalescer, clock } = collect({ ignoreAuthor: "me" });
      const expected = new Map<string, { count: number; authors: Set<string> }>();
      for (const e of events) {
        const first = e.posts[0] as { author: string; seq: number };
        if (e.form === "posts") coalescer.push({ event: "posts", room: e.room, posts: e.posts });
        else coalescer.push({ event: e.form, room: e.room, seq: e.form === "join" ? 0 : first.seq, author: first.author });
        // The naive reference: content is each announced post with seq > 0 by someone else.
        // A listed entry with a count stands for that many posts; a post event announces one.
        const announced = e.form === "posts" ? e.posts : e.form === "post" ? [{ ...first, count: 1 }] : [];
        for (const p of announced) {
          if (p.seq === 0 || p.author === "me") continue;
          const entry = expected.get(e.room) ?? { count: 0, authors: new Set<string>() };
          entry.count += p.count ?? 1;
          entry.authors.add(p.author);
          expected.set(e.room, entry);
        }
        clock.advance(e.gap);
      }
      clock.advance(20_000);
      const got = new Map<string, { count: number; authors: Set<string> }>();
      for (const notice of notices) {
        expect(notice.total).toBeGreaterThan(0);
        for (const room of notice.rooms) {
          const entry = got.get(room.room) ?? { count: 0, authors: new Set<string>() };
          entry.count += room.count;
          for (const a of room.authors) entry.authors.add(a);
          got.set(room.room, entry);
        }
      }
      expect(got).toEqual(expected);
      coalescer.dispose();
    }),
  );
});
