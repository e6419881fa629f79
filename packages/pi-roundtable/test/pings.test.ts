import { fauxAssistantMessage, type FauxResponseFactory } from "@mariozechner/pi-ai";
import type { ExtensionFactory } from "@mariozechner/pi-coding-agent";
import { expect, test } from "vitest";
import { createRoundtableExtension } from "@orphus/pi-roundtable";
import { manualTimers } from "../../../test-support/manual-timers.js";
import { useBroker } from "./support/broker.js";
import { callRoundtable, callTool, caughtUp, useSessions, pingsOf } from "./support/pi.js";

const broker = useBroker();
const openSession = useSessions();

// Time is the test's: the extension's timers (the client's coalescing window, the outlet's window and rechecks) move
// only when the test advances them, once `caughtUp` has shown that every event sent so far reached the session's
// client. Windows then hold exactly what was sent into them, however loaded the machine.
const WINDOW_MS = 500;

/** A planner session in room design, on manual timers, and a critic (a plain client) in the same room. */
async function plannerAndCritic(extra: readonly ExtensionFactory[] = []) {
  const clock = manualTimers();
  const planner = await openSession({
    extensions: [
      createRoundtableExtension(broker.extensionOptions({ pingWindowMs: WINDOW_MS, timers: clock })),
      ...extra,
    ],
    name: "planner",
  });
  await planner.prompt("Join.", [callRoundtable({ action: "join", room: "design" })]);
  const critic = broker.observer({ role: "critic" });
  await critic.join("design");
  return { planner, critic, clock };
}

/** A promise the test resolves, and the function that resolves it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

test("many posts in one window reach an idle session as one line of counts and names, never bodies", async () => {
  const { planner, critic, clock } = await plannerAndCritic();
  const secret = "the-body-text-must-never-reach-a-ping";
  await Promise.all(Array.from({ length: 20 }, (_, i) => critic.post("design", `${secret} ${i}`)));
  await caughtUp(planner); // all 20 heard, inside one window: the clock has not moved
  expect(pingsOf(planner.storedMessages())).toEqual([]);
  clock.advance(WINDOW_MS);
  expect(pingsOf(planner.storedMessages())).toEqual(["[roundtable] design: 20 new from critic — digest to read"]);
  clock.advance(WINDOW_MS * 3);
  expect(pingsOf(planner.storedMessages())).toEqual(["[roundtable] design: 20 new from critic — digest to read"]);

  await critic.post("design", secret);
  await caughtUp(planner);
  clock.advance(WINDOW_MS);
  expect(pingsOf(planner.storedMessages())).toEqual([
    "[roundtable] design: 20 new from critic — digest to read",
    "[roundtable] design: 1 new from critic — digest to read",
  ]);
  expect(JSON.stringify(planner.storedMessages())).not.toContain(secret);
});

test("a ping does not interrupt a running tool call: it enters after the call, before the run's next model call", async () => {
  const slow = gate();
  const running = gate();
  const slowTool: ExtensionFactory = (pi) =>
    pi.registerTool({
      name: "build",
      label: "Build",
      description: "Runs the build.",
      parameters: { type: "object", properties: {} },
      async execute() {
        running.open();
        await slow.opened;
        return { content: [{ type: "text", text: "build ok" }], details: {} };
      },
    });
  const { planner, critic, clock } = await plannerAndCritic([slowTool]);
  const turn = planner.prompt("Build.", [callTool("build", {})]);
  await running.opened;
  await critic.post("design", "while you build");
  await caughtUp(planner);
  clock.advance(WINDOW_MS * 4); // the notice is out long before the build ends
  expect(pingsOf(planner.storedMessages())).toEqual([]);
  const callsBefore = planner.faux.state.callCount;
  slow.open();
  await turn;

  const stored = planner.storedMessages();
  const at = stored.findIndex((m) => m.role === "custom");
  expect(stored[at - 1]).toMatchObject({ role: "toolResult", toolName: "build", text: "build ok" });
  expect(stored[at]).toMatchObject({ text: "[roundtable] design: 1 new from critic — digest to read" });
  expect(stored[at + 1]).toMatchObject({ role: "assistant", text: "Done." });
  expect(planner.faux.state.callCount - callsBefore).toBe(1); // the closing answer only: no call for the ping
});

test("a ping during the model's last answer waits for the run to end, and starts no model call of its own", async () => {
  const answering = gate();
  const streaming = gate();
  const lastAnswer: FauxResponseFactory = async () => {
    streaming.open();
    await answering.opened;
    return fauxAssistantMessage("All done.");
  };
  const { planner, critic, clock } = await plannerAndCritic();
  const turn = planner.prompt("Wrap up.", [lastAnswer]);
  await streaming.opened;
  await critic.post("design", "one more thing");
  await caughtUp(planner);
  clock.advance(WINDOW_MS * 4); // the notice is out while the model still streams: it waits
  expect(pingsOf(planner.storedMessages())).toEqual([]);
  answering.open();
  await turn;
  const calls = planner.faux.state.callCount;
  clock.advance(WINDOW_MS); // the outlet looks again: the run has ended, so the line enters
  // A model call the line had started would be running now; waiting for the agent to be idle lets it show.
  await planner.session.agent.waitForIdle();

  const stored = planner.storedMessages();
  expect(stored.slice(-2)).toMatchObject([
    { role: "assistant", text: "All done." },
    { role: "custom", text: "[roundtable] design: 1 new from critic — digest to read" },
  ]);
  expect(planner.faux.state.callCount).toBe(calls);
  expect(planner.session.isStreaming).toBe(false);
});

test("a post the session's wait reported is not pinged again, pending in the client or held by the outlet", async () => {
  const { planner, critic, clock } = await plannerAndCritic();
  // Pending in the client: the post is heard, the wait answers at once, then the window passes.
  await critic.post("design", "first");
  await caughtUp(planner);
  await planner.prompt("Wait for the others.", [callRoundtable({ action: "wait", room: "design" })]);
  expect(
    planner
      .storedMessages()
      .filter((m) => m.role === "toolResult")
      .at(-1),
  ).toMatchObject({
    text: "design: 1 unread. Digest to read.",
  });
  clock.advance(WINDOW_MS * 4);
  expect(pingsOf(planner.storedMessages())).toEqual([]);
  await planner.prompt("Read.", [callRoundtable({ action: "digest", room: "design" })]);

  // Held by the outlet: the notice comes out while the model streams, and its wait answers before the line enters.
  const answering = gate();
  const streaming = gate();
  const thenWait: FauxResponseFactory = async () => {
    streaming.open();
    await answering.opened;
    return callRoundtable({ action: "wait", room: "design" });
  };
  const turn = planner.prompt("Wait again.", [thenWait]);
  await streaming.opened;
  await critic.post("design", "second");
  await caughtUp(planner);
  clock.advance(WINDOW_MS * 4);
  answering.open();
  await turn;
  clock.advance(WINDOW_MS * 4);
  await caughtUp(planner);
  expect(pingsOf(planner.storedMessages())).toEqual([]);
  // A post after what a wait reported still pings.
  await critic.post("design", "third");
  await caughtUp(planner);
  clock.advance(WINDOW_MS);
  expect(pingsOf(planner.storedMessages())).toEqual(["[roundtable] design: 1 new from critic — digest to read"]);
});
