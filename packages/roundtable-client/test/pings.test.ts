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
    {
      rooms: [{ room: "design", count: 3, authors: ["critic", "reviewer"], otherAuthors: 0, throughSeq: 3 }],
      otherMessages: 0,
      total: 3,
    },
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
    throughSeq: 19,
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
    {
      author: fc.constantFrom("planner", "critic", "reviewer", "me"),
      seq: fc.nat({ max: 3 }),
      count: fc.integer({ min: 2, max: 4 }),
    },
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
        else
          coalescer.push({ event: e.form, room: e.room, seq: e.form === "join" ? 0 : first.seq, author: first.author });
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

test("a report takes exactly the posts it covers out of a pending notice, and their late events stay uncounted", () => {
  const { notices, coalescer, clock } = collect();
  coalescer.push({ event: "posts", room: "design", posts: [{ seq: 1, author: "critic", count: 3 }] });
  coalescer.push(post("design", "reviewer", 4));
  coalescer.push(post("ops", "critic", 1));
  // Through #2: one run cut in two, and #4 untouched.
  coalescer.markReported("design", 2);
  expect(coalescer.pending).toBe(3);
  expect(coalescer.reportedThrough("design")).toBe(2);
  // A lower mark moves nothing; an event at or below the mark counts for nothing, a straddling entry for its rest.
  coalescer.markReported("design", 1);
  expect(coalescer.push(post("design", "critic", 2))).toBe(false);
  expect(coalescer.push({ event: "posts", room: "design", posts: [{ seq: 2, author: "planner", count: 2 }] })).toBe(
    true,
  );
  clock.advance(1500);
  expect(notices).toEqual([
    {
      rooms: [
        { room: "design", count: 3, authors: ["critic", "planner", "reviewer"], otherAuthors: 0, throughSeq: 4 },
        { room: "ops", count: 1, authors: ["critic"], otherAuthors: 0, throughSeq: 1 },
      ],
      otherMessages: 0,
      total: 4,
    },
  ]);
});

test("a report of everything pending leaves no notice and no timer", () => {
  const { notices, coalescer, clock } = collect();
  coalescer.push(post("design", "critic", 1));
  coalescer.push(post("design", "critic", 2));
  coalescer.markReported("design", 2);
  expect(coalescer.pending).toBe(0);
  expect(clock.pending()).toEqual([]);
  clock.advance(60_000);
  expect(notices).toEqual([]);
  // Forgotten marks (another broker numbers from 1 again) count its posts anew.
  coalescer.forgetReported();
  expect(coalescer.reportedThrough("design")).toBeUndefined();
  expect(coalescer.push(post("design", "critic", 1))).toBe(true);
});

test("runs past the tracked ones are folded, and a report through the folded part takes it out whole", () => {
  const { notices, coalescer, clock } = collect();
  // 300 posts alternating between two authors: 300 runs, the oldest 44 folded.
  for (let seq = 1; seq <= 300; seq++) coalescer.push(post("design", seq % 2 === 0 ? "critic" : "reviewer", seq));
  coalescer.markReported("design", 40);
  expect(coalescer.pending).toBe(300);
  coalescer.markReported("design", 290);
  expect(coalescer.pending).toBe(10);
  clock.advance(1500);
  expect(notices.map(renderActivityNotice)).toEqual([
    "[roundtable] design: 10 new from critic, reviewer — digest to read",
  ]);
});

test("property: with reports between the events, notices count exactly the posts no report covered", () => {
  const step = fc.oneof(
    fc.record({
      kind: fc.constant("post" as const),
      room: fc.constantFrom("a", "b"),
      author: fc.constantFrom("critic", "me"),
      count: fc.integer({ min: 1, max: 3 }),
    }),
    fc.record({ kind: fc.constant("report" as const), room: fc.constantFrom("a", "b"), back: fc.nat({ max: 4 }) }),
    fc.record({ kind: fc.constant("pause" as const), ms: fc.integer({ min: 0, max: 2000 }) }),
  );
  fc.assert(
    fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
      const { notices, coalescer, clock } = collect({ ignoreAuthor: "me" });
      const newest = new Map<string, number>();
      // The naive reference: every post by someone else, each dropped once a report covers it before its notice.
      let waiting: { room: string; seq: number }[] = [];
      const mark = new Map<string, number>();
      let counted = 0;
      const notice = (): void => {
        counted += waiting.length;
        waiting = [];
      };
      for (const s of steps) {
        if (s.kind === "post") {
          const seq = (newest.get(s.room) ?? 0) + 1;
          newest.set(s.room, seq + s.count - 1);
          const before = notices.length;
          const listed = { seq, author: s.author, ...(s.count > 1 ? { count: s.count } : {}) };
          coalescer.push({ event: "posts", room: s.room, posts: [listed] });
          expect(notices.length).toBe(before);
          if (s.author === "me") continue;
          for (let i = 0; i < s.count; i++)
            if (seq + i > (mark.get(s.room) ?? 0)) waiting.push({ room: s.room, seq: seq + i });
        } else if (s.kind === "report") {
          const through = Math.max(0, (newest.get(s.room) ?? 0) - s.back);
          coalescer.markReported(s.room, through);
          mark.set(s.room, Math.max(mark.get(s.room) ?? 0, through));
          waiting = waiting.filter((p) => p.room !== s.room || p.seq > through);
        } else {
          const before = notices.length;
          clock.advance(s.ms);
          if (notices.length > before) notice();
        }
        expect(coalescer.pending).toBe(waiting.length);
      }
      if (coalescer.flush() !== undefined) notice();
      expect(notices.reduce((sum, n) => sum + n.total, 0)).toBe(counted);
      coalescer.dispose();
    }),
  );
});
