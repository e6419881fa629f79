import { existsSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage } from "@mariozechner/pi-ai";
import { expect, test } from "vitest";
import { createRoundtableExtension, sharedClientCount } from "@orphus/pi-roundtable";
import { until } from "../../../test-support/poll.js";
import { gone } from "../../../test-support/processes.js";
import { useBroker } from "./support/broker.js";
import { callRoundtable, type PiSession, useSessions } from "./support/pi.js";

const broker = useBroker();
const openSession = useSessions();

async function seat(name: string): Promise<PiSession> {
  const session = await openSession({ extensions: [createRoundtableExtension(broker.extensionOptions())], name });
  return session;
}

const socketPath = (): string => join(broker.dir(), "roundtable", "broker.sock");

test("lazy: a session that never calls the tool starts nothing, even when asked for its status", async () => {
  const planner = await seat("planner");
  await planner.prompt("Say hello.", [fauxAssistantMessage("Hello.")]);
  await planner.command("/roundtable");
  expect(planner.notices.at(-1)?.text).toContain("broker: not connected; this session has not used the roundtable");
  expect(broker.spawned).toEqual([]);
  expect(existsSync(socketPath())).toBe(false);
  expect(sharedClientCount()).toBe(0);

  await planner.prompt("List the rooms.", [callRoundtable({ action: "rooms" })]);
  expect(broker.spawned).toHaveLength(1);
  expect(existsSync(socketPath())).toBe(true);
  expect(planner.storedMessages().at(-2)).toMatchObject({
    role: "toolResult",
    text: "No rooms yet: join one to create it.",
  });
});

test("clean shutdown: each session's shutdown closes its connection, and the broker leaves when the last one has", async () => {
  const planner = await seat("planner");
  const critic = await seat("critic");
  for (const session of [planner, critic])
    await session.prompt("Join.", [callRoundtable({ action: "join", room: "design" })]);
  expect(sharedClientCount()).toBe(2);
  const observer = broker.observer({ role: "observer" });
  expect((await observer.status()).connections).toBe(3);

  await planner.shutdown();
  expect(sharedClientCount()).toBe(1);
  await until(async () => (await observer.status()).connections === 2);

  await critic.shutdown();
  expect(sharedClientCount()).toBe(0);
  await until(async () => (await observer.status()).connections === 1);
  observer.close();
  for (const pid of broker.spawned) await gone(pid);
  expect(existsSync(socketPath())).toBe(false);
});

test("/reload: the old copy lets its client go, the new copy connects lazily, and the session still has one", async () => {
  const planner = await seat("planner");
  await planner.prompt("Join.", [callRoundtable({ action: "join", room: "design" })]);
  const observer = broker.observer({ role: "observer" });
  expect((await observer.status()).connections).toBe(2);

  await planner.reload();
  expect(sharedClientCount()).toBe(0); // the old copy's shutdown let its client go; the new copy is lazy again
  await planner.prompt("Join again.", [callRoundtable({ action: "join", room: "design" })]);
  expect(sharedClientCount()).toBe(1);
  await until(async () => (await observer.status()).connections === 2);
  expect(planner.storedMessages().at(-2)).toMatchObject({ role: "toolResult", isError: false });
  expect(
    planner.session.extensionRunner.getAllRegisteredTools().filter((tool) => tool.definition.name === "roundtable"),
  ).toHaveLength(1);
});

test("after the broker is killed, the model's first call says it restarted, and join that the room was recreated", async () => {
  const planner = await seat("planner");
  await planner.prompt("Join.", [callRoundtable({ action: "join", room: "design" })]);
  const [first] = broker.spawned;
  process.kill(first as number, "SIGKILL");
  // The session's client heard of the kill once its status says so.
  await until(async () => {
    await planner.command("/roundtable");
    return planner.notices.at(-1)?.text.includes("broker: not connected") === true;
  });
  await planner.prompt("Post.", [callRoundtable({ action: "post", room: "design", body: "still there?" })]);
  const second = broker.spawned[1];
  expect(planner.storedMessages().at(-2)).toMatchObject({
    role: "toolResult",
    isError: true,
    text:
      `The roundtable broker restarted (pid ${first} before, pid ${second} now) and kept its rooms in memory, so every ` +
      "room started empty: your memberships and the rooms' history are gone. Join your rooms again: design.\n" +
      'roundtable post: Not a member of room "design"; join it first',
  });
  await planner.prompt("Join again.", [callRoundtable({ action: "join", room: "design" })]);
  expect(planner.storedMessages().at(-2)).toMatchObject({
    role: "toolResult",
    text: 'Joined "design" as planner (room recreated: the broker restarted, and its earlier history is gone). Members: planner. Nothing unread.',
  });
});
