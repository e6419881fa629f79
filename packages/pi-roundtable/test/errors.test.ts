import type { ExtensionFactory } from "@mariozechner/pi-coding-agent";
import { expect, test } from "vitest";
import { MAX_ERROR_TEXT_CHARS } from "@orphus/roundtable-client";
import { createRoundtableExtension, registerSharedTools } from "@orphus/pi-roundtable";
import { expectShowable } from "../../../test-support/hostile-text.js";
import { useBroker } from "./support/broker.js";
import { callRoundtable, callTool, type StoredMessage, useSessions } from "./support/pi.js";

const broker = useBroker();
const openSession = useSessions();

const results = (messages: readonly StoredMessage[]) => messages.filter((m) => m.role === "toolResult");

test("a bad roundtable call is answered by the tool's own check, not pi's: the nearest argument named, nothing raw", async () => {
  const planner = await openSession({
    extensions: [createRoundtableExtension(broker.extensionOptions())],
    name: "planner",
  });
  await planner.prompt("Try things.", [
    callRoundtable({ action: "digest", room: "design", bugdet: 300 }),
    callRoundtable({ action: "rooms", "ex\u200btra": `\u001b[31m${"x".repeat(50_000)}` }),
  ]);
  const [misspelled, hostile] = results(planner.storedMessages());
  expect(misspelled).toMatchObject({
    isError: true,
    text: expect.stringMatching(
      /^Invalid roundtable call: digest: unknown argument "bugdet" \(nearest known: "budget"\); digest takes /,
    ),
  });
  expect(hostile?.isError).toBe(true);
  expectShowable(hostile?.text ?? "");
  expect(hostile?.text).toMatch(
    /^Invalid roundtable call: rooms: unknown argument "ex\\u\{200B\}tra"; rooms takes no arguments; got /,
  );
  expect(hostile?.text.length).toBeLessThanOrEqual(MAX_ERROR_TEXT_CHARS);
});

test("every failure of a call is the tool's error result; the run goes on and the next call works", async () => {
  const planner = await openSession({
    extensions: [createRoundtableExtension(broker.extensionOptions())],
    name: "planner",
  });
  await planner.prompt("Try things.", [
    callRoundtable({ action: "digest" }), // refused by the shared tool's own check, before pi's: details are pi's own
    callRoundtable({ action: "post", room: "design", body: "hello" }), // the broker refuses: not a member
    callRoundtable({ action: "join", room: "design" }),
    callRoundtable({ action: "post", room: "design", body: "hello" }),
  ]);
  expect(results(planner.storedMessages())).toEqual([
    {
      role: "toolResult",
      toolName: "roundtable",
      toolCallId: expect.any(String),
      text: 'Invalid roundtable call: digest: room: Invalid input: expected string, received undefined; got {"action":"digest"}',
      isError: true,
      details: {},
    },
    {
      role: "toolResult",
      toolName: "roundtable",
      toolCallId: expect.any(String),
      text: 'roundtable post: Not a member of room "design"; join it first',
      isError: true,
      details: { tool: "roundtable", isError: true },
    },
    expect.objectContaining({
      isError: false,
      text: 'Joined "design" as planner (new room). Members: planner. Nothing unread.',
    }),
    expect.objectContaining({ isError: false, text: 'Posted #1 to "design".' }),
  ]);
  expect(planner.storedMessages().at(-1)).toMatchObject({ role: "assistant", text: "Done." });
});

test("input the published schema refuses is refused by the tool's own check, in its words, before anything starts", async () => {
  const planner = await openSession({
    extensions: [createRoundtableExtension(broker.extensionOptions())],
    name: "planner",
  });
  await planner.prompt("Digest.", [callRoundtable({ action: "digest", room: "design", budget: "lots" })]);
  const [result] = results(planner.storedMessages());
  expect(result).toMatchObject({
    isError: true,
    details: {},
    text:
      "Invalid roundtable call: digest: budget: Invalid input: expected number, received string; got " +
      '{"action":"digest","room":"design","budget":"lots"}',
  });
  expect(broker.spawned).toEqual([]); // refused before anything was started
});

test("no broker to reach, or a role name that cannot be, is an error result too", async () => {
  const noSpawn = await openSession({
    extensions: [createRoundtableExtension(broker.extensionOptions({ client: { spawnBroker: false } }))],
    name: "planner",
  });
  const badRole = await openSession({
    extensions: [createRoundtableExtension(broker.extensionOptions())],
    flags: { "roundtable-role": "not a role" },
  });
  await noSpawn.prompt("Rooms?", [callRoundtable({ action: "rooms" })]);
  await badRole.prompt("Rooms?", [callRoundtable({ action: "rooms" })]);
  expect(results(noSpawn.storedMessages())).toEqual([
    expect.objectContaining({
      isError: true,
      text: `roundtable rooms: No roundtable broker is running on ${broker.dir()}/roundtable/broker.sock; the first session to use a room starts one`,
    }),
  ]);
  expect(results(badRole.storedMessages())).toEqual([
    expect.objectContaining({
      isError: true,
      text:
        "roundtable call: Invalid roundtable client option role: expected 1 to 64 letters, digits, '.', '_' or '-', " +
        'starting with a letter or digit, got "not a role"',
    }),
  ]);
});

test("a shared tool whose runner throws anyway still yields an error result, not an exception in pi", async () => {
  const boom: ExtensionFactory = (pi) =>
    registerSharedTools(pi, [
      {
        name: "boom",
        label: "Boom",
        description: "Fails.",
        parameters: { type: "object", properties: {} },
        run: () => Promise.reject(new Error("kaput")),
      },
    ]);
  const session = await openSession({ extensions: [boom] });
  const errors: unknown[] = [];
  session.session.extensionRunner.onError((error) => errors.push(error));
  await session.prompt("Boom.", [callTool("boom", {})]);
  expect(results(session.storedMessages())).toEqual([
    expect.objectContaining({
      toolName: "boom",
      isError: true,
      text: "boom failed: kaput",
      details: { tool: "boom", isError: true },
    }),
  ]);
  expect(errors).toEqual([]);
});
