// Three real pi sessions (planner, critic, reviewer) deliberate in one room through the extension, with a scripted
// model: the demo's deliberation (packages/roundtable-cli/demo), now in a real host. Each turn the model pulls a
// digest and posts; the reviewer fetches once; pings reach the sessions between turns. What reached each session's
// context is measured from the session's own stored messages and set against what the room holds.
import type { FauxResponseFactory } from "@mariozechner/pi-ai";
import { expect, test } from "vitest";
import { DEMO_ROOM, DEMO_SCRIPT } from "../../roundtable-cli/demo/script.js";
import { DEMO_DIGEST_BUDGET } from "../../roundtable-cli/demo/shared.js";
import { createRoundtableExtension } from "@orphus/pi-roundtable";
import { manualTimers } from "../../../test-support/manual-timers.js";
import { gone } from "../../../test-support/processes.js";
import { useBroker } from "./support/broker.js";
import { intakeChars, roundtableIntake, splitMarker } from "./support/context.js";
import { callRoundtable, caughtUp, type PiSession, useSessions } from "./support/pi.js";

const broker = useBroker();
const openSession = useSessions();

/** The ping window of these sessions, on one manual clock: a quiet period is the test advancing it. */
const WINDOW_MS = 300;
const ROLES = ["planner", "critic", "reviewer"] as const;
/** The demo's turns of these three roles (its librarian files the decision in the memory, which this test leaves out). */
const TURNS = DEMO_SCRIPT.filter((turn) => (ROLES as readonly string[]).includes(turn.role));

/** A model that read a digest with a collapse marker fetches what it collapsed, two messages of it. */
const fetchCollapsed: FauxResponseFactory = (context) => {
  const last = context.messages.findLast((message) => message.role === "toolResult");
  const text = last?.content.map((part) => (part.type === "text" ? part.text : "")).join("") ?? "";
  const afterSeq = Number(/fetch afterSeq=(\d+)/.exec(text)?.[1] ?? 0);
  return callRoundtable({ action: "fetch", room: DEMO_ROOM, afterSeq, limit: 2 });
};

test("three pi sessions deliberate; each context holds a bounded share of the room", { timeout: 120_000 }, async () => {
  const clock = manualTimers();
  const sessions = new Map<string, PiSession>();
  /** A quiet period: once every session has heard what was posted so far, three windows pass with nothing new. */
  const quiet = async (): Promise<void> => {
    for (const session of sessions.values()) await caughtUp(session);
    clock.advance(WINDOW_MS * 3);
  };
  for (const role of ROLES) {
    const session = await openSession({
      extensions: [createRoundtableExtension(broker.extensionOptions({ pingWindowMs: WINDOW_MS, timers: clock }))],
      name: role,
    });
    sessions.set(role, session);
    await session.prompt("Join the design room.", [callRoundtable({ action: "join", room: DEMO_ROOM })]);
  }
  const seat = (role: string): PiSession => sessions.get(role) as PiSession;

  let fetched = false;
  for (const turn of TURNS) {
    // A role that went off to work: a quiet period, so the others' pings go out between turns.
    if (turn.pauseBefore === true) await quiet();
    const fetchNow: boolean = turn.role === "reviewer" && turn.pauseBefore === true && !fetched;
    fetched ||= fetchNow;
    await seat(turn.role).prompt(`Your turn in ${DEMO_ROOM}: ${turn.headline}`, [
      callRoundtable({ action: "digest", room: DEMO_ROOM, budget: DEMO_DIGEST_BUDGET }),
      ...(fetchNow ? [fetchCollapsed] : []),
      callRoundtable({ action: "post", room: DEMO_ROOM, body: turn.body, headline: turn.headline }),
    ]);
  }
  await quiet();

  const roomChars = TURNS.reduce((sum, turn) => sum + turn.body.length, 0);
  const rows: string[] = [];
  for (const role of ROLES) {
    const stored = seat(role).storedMessages();
    const intake = roundtableIntake(stored, DEMO_DIGEST_BUDGET);
    const turns = TURNS.filter((turn) => turn.role === role).length;
    expect(intake.digests).toHaveLength(turns);
    expect(intake.replies).toHaveLength(turns + 1); // posted #n per turn, and the join
    // The bound, per digest: at most the budget, plus one marker line.
    for (const digest of intake.digests) {
      const { budgeted, markers } = splitMarker(digest.text);
      expect(markers).toBeLessThanOrEqual(1);
      expect(budgeted.length).toBeLessThanOrEqual(digest.budget);
    }
    // Pings: one line each, counts and author names, never a body.
    expect(intake.pings.length).toBeGreaterThan(0);
    for (const ping of intake.pings) {
      expect(ping).toMatch(/^\[roundtable\] webhook-retries: \d+ new from [a-z]+(, [a-z]+)* — digest to read$/);
    }
    // None landed between a tool call and its result.
    stored.forEach((message, index) => {
      if (message.role !== "custom") return;
      const before = stored[index - 1];
      expect(before?.role === "assistant" && before.toolCalls.length > 0).toBe(false);
    });
    const total = intakeChars(intake);
    const share = total / roomChars;
    expect(share).toBeLessThan(0.3);
    const sum = (texts: readonly string[]): number => texts.reduce((n, text) => n + text.length, 0);
    rows.push(
      `${role.padEnd(8)} pings ${intake.pings.length} = ${sum(intake.pings)}, digests ${intake.digests.length} = ` +
        `${sum(intake.digests.map((d) => d.text))}, fetches ${intake.fetches.length} = ${sum(intake.fetches)}, replies ` +
        `${intake.replies.length} = ${sum(intake.replies)}; in context ${total} of ${roomChars} (${(share * 100).toFixed(1)}%)`,
    );
  }
  expect(roundtableIntake(seat("reviewer").storedMessages(), DEMO_DIGEST_BUDGET).fetches).toHaveLength(1);
  process.stdout.write(`what reached each pi session's context from the roundtable:\n  ${rows.join("\n  ")}\n`);

  // Clean shutdown: the sessions let go, and their broker, left alone, exits by itself.
  for (const session of sessions.values()) await session.shutdown();
  for (const pid of broker.spawned) await gone(pid);
});
