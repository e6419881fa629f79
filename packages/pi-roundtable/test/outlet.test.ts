import { expect, test } from "vitest";
import type { ActivityNotice } from "@orphus/roundtable-client";
import { SessionOutlet, type RoundtableMessageDetails } from "@orphus/pi-roundtable";
import { manualTimers, type ManualTimers } from "../../../test-support/manual-timers.js";

const WINDOW = 1500;

function notice(room: string, count: number, authors: string[], throughSeq?: number): ActivityNotice {
  return {
    rooms: [{ room, count, authors, otherAuthors: 0, ...(throughSeq === undefined ? {} : { throughSeq }) }],
    otherMessages: 0,
    total: count,
  };
}

/** A session whose idleness the test sets, and whose lines it records; the outlet's time moves with `clock`. */
function fakeSession(): {
  lines: { text: string; details: RoundtableMessageDetails; idle: boolean }[];
  idle: boolean;
  stale: boolean;
  outlet: SessionOutlet;
  clock: ManualTimers;
  reported: Map<string, number>;
} {
  const state = {
    lines: [] as { text: string; details: RoundtableMessageDetails; idle: boolean }[],
    idle: true,
    stale: false,
    outlet: undefined as unknown as SessionOutlet,
    clock: manualTimers(),
    reported: new Map<string, number>(),
  };
  state.outlet = new SessionOutlet({
    windowMs: WINDOW,
    timers: state.clock,
    reportedThrough: (room) => state.reported.get(room),
    host: {
      send: (text, details) => {
        if (state.stale) throw new Error("This extension ctx is stale after session replacement or reload.");
        state.lines.push({ text, details, idle: state.idle });
      },
      isIdle: () => {
        if (state.stale) throw new Error("This extension ctx is stale after session replacement or reload.");
        return state.idle;
      },
    },
  });
  return state;
}

test("an idle session gets a ping at once, as one line with counts and authors", () => {
  const session = fakeSession();
  session.outlet.ping(notice("design", 3, ["critic", "reviewer"]));
  expect(session.lines).toEqual([
    {
      text: "[roundtable] design: 3 new from critic, reviewer — digest to read",
      details: { kind: "ping", total: 3 },
      idle: true,
    },
  ]);
});

test("a busy session gets nothing until a tool call finishes, then one line for everything that waited", () => {
  const session = fakeSession();
  session.idle = false;
  session.outlet.ping(notice("design", 2, ["critic"]));
  session.clock.advance(WINDOW * 4);
  session.outlet.ping(notice("design", 1, ["reviewer"]));
  session.outlet.ping(notice("ops", 4, ["planner"]));
  session.clock.advance(WINDOW * 4);
  expect(session.lines).toEqual([]);
  session.outlet.toolFinished();
  expect(session.lines.map((line) => line.text)).toEqual([
    "[roundtable] design: 3 new from critic, reviewer · ops: 4 new from planner — digest to read",
  ]);
  expect(session.lines[0]?.details).toEqual({ kind: "ping", total: 7 });
});

test("a busy session that turns idle gets its waiting ping on the next look, without any event", () => {
  const session = fakeSession();
  session.idle = false;
  session.outlet.ping(notice("design", 1, ["critic"]));
  session.clock.advance(10_000);
  expect(session.lines).toEqual([]);
  session.idle = true; // the run ended: pi emits nothing after agent_end, so the outlet looks again by itself
  session.clock.advance(250);
  expect(session.lines.map((line) => line.idle)).toEqual([true]);
  expect(session.outlet.pending).toBe(false);
});

test("never more than one ping line per window: a second notice right after waits out the window", () => {
  const session = fakeSession();
  session.outlet.ping(notice("design", 1, ["critic"]));
  session.clock.advance(100);
  session.outlet.ping(notice("design", 1, ["reviewer"]));
  session.clock.advance(100);
  session.outlet.ping(notice("design", 1, ["planner"]));
  session.outlet.toolFinished(); // a safe point does not shorten the window
  expect(session.lines).toHaveLength(1);
  session.clock.advance(WINDOW - 201);
  expect(session.lines).toHaveLength(1);
  session.clock.advance(1);
  expect(session.lines.map((line) => line.text)).toEqual([
    "[roundtable] design: 1 new from critic — digest to read",
    "[roundtable] design: 2 new from reviewer, planner — digest to read",
  ]);
  expect(session.outlet.pingsDelivered).toBe(2);
});

test("a note enters at the next safe point, with no window, and pending notes are bounded", () => {
  const session = fakeSession();
  session.idle = false;
  for (let i = 0; i < 10; i++) session.outlet.note(`warning ${i}`);
  expect(session.lines).toEqual([]);
  session.outlet.toolFinished();
  expect(session.lines.map((line) => line.text)).toEqual(["warning 0", "warning 1", "warning 2", "warning 3"]);
  expect(session.lines.every((line) => line.details.kind === "warning")).toBe(true);
});

test("a stale session (shut down under the outlet) ends the outlet instead of throwing into a timer", () => {
  const session = fakeSession();
  session.idle = false;
  session.outlet.ping(notice("design", 1, ["critic"]));
  session.stale = true;
  expect(() => session.clock.advance(1000)).not.toThrow();
  expect(session.outlet.pending).toBe(false);
  session.stale = false;
  session.idle = true;
  session.outlet.ping(notice("design", 1, ["critic"]));
  expect(session.lines).toEqual([]);
});

test("after dispose nothing is delivered and no timer is left", () => {
  const session = fakeSession();
  session.idle = false;
  session.outlet.ping(notice("design", 1, ["critic"]));
  session.outlet.dispose();
  expect(session.clock.pending()).toEqual([]);
  session.idle = true;
  session.outlet.toolFinished();
  session.outlet.note("late");
  expect(session.lines).toEqual([]);
});

test("a held ping leaves out the rooms a wait reported meanwhile, and says nothing when it reported them all", () => {
  const session = fakeSession();
  session.idle = false;
  session.outlet.ping(notice("design", 2, ["critic"], 7));
  session.outlet.ping(notice("ops", 1, ["planner"], 3));
  // The session's own wait answered about design through #7 while the ping waited for a safe point.
  session.reported.set("design", 7);
  session.outlet.toolFinished();
  expect(session.lines.map((line) => [line.text, line.details])).toEqual([
    ["[roundtable] ops: 1 new from planner — digest to read", { kind: "ping", total: 1 }],
  ]);
  // A post after what the wait reported is news; a notice of reported posts alone is no line at all.
  session.clock.advance(WINDOW);
  session.outlet.ping(notice("design", 1, ["critic"], 8));
  session.outlet.toolFinished();
  session.clock.advance(WINDOW);
  session.outlet.ping(notice("ops", 1, ["planner"], 3));
  session.reported.set("ops", 3);
  session.outlet.toolFinished();
  expect(session.lines.map((line) => line.text)).toEqual([
    "[roundtable] ops: 1 new from planner — digest to read",
    "[roundtable] design: 1 new from critic — digest to read",
  ]);
  expect(session.outlet.pingsDelivered).toBe(2);
  expect(session.outlet.pending).toBe(false);
});
