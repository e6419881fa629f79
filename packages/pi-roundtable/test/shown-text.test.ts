// Nothing reaches a pi session unsanitised: tool results, ping lines, the one-time role warning and /roundtable all
// pass the one sanitiser (@orphus/digest), names escaped rather than stripped, each within its bound.
import { join } from "node:path";
import { expect, test } from "vitest";
import type { ActivityNotice } from "@orphus/roundtable-client";
import { HOSTILE_BODY, HOSTILE_BODY_LINES, HOSTILE_NAMES, expectShowable } from "../../../test-support/hostile-text.js";
import { SessionOutlet, createRoundtableExtension } from "@orphus/pi-roundtable";
import { useBroker } from "./support/broker.js";
import { callRoundtable, pingsOf, useSessions } from "./support/pi.js";

const broker = useBroker();
const openSession = useSessions();

test("a fetched body a peer filled with escapes and invisible text reaches the model stripped", async () => {
  const session = await openSession({
    extensions: [createRoundtableExtension(broker.extensionOptions())],
    name: "planner",
  });
  await session.prompt("Join.", [callRoundtable({ action: "join", room: "design" })]);
  const critic = broker.observer({ role: "critic" });
  await critic.join("design");
  await critic.post("design", HOSTILE_BODY);
  await session.prompt("Read it.", [callRoundtable({ action: "fetch", room: "design" })]);
  const results = session.storedMessages().flatMap((m) => (m.role === "toolResult" ? [m.text] : []));
  expect(results[1]).toBe(`[#1 critic] ${HOSTILE_BODY_LINES.join("\n  ")}`);
  for (const text of results) expectShowable(text);
});

test("a session name holding invisible characters and escapes is shown escaped in the warning, never stripped", async () => {
  const session = await openSession({
    extensions: [createRoundtableExtension(broker.extensionOptions({ pid: 4242 }))],
    name: "plan\u200bner\u001b[31m",
  });
  await session.prompt("Rooms?", [callRoundtable({ action: "rooms" })]);
  const [warning] = pingsOf(session.storedMessages());
  expect(warning).toContain(`this session's name "plan\\u{200B}ner\\u{1B}[31m" is not a role name`);
  expectShowable(warning ?? "");
});

test("ping lines: names escaped, one line, at most 4200 characters however many notices fold into one", () => {
  const lines: string[] = [];
  const outlet = new SessionOutlet({ windowMs: 1, host: { send: (text) => lines.push(text), isIdle: () => false } });
  const [planner, critic] = HOSTILE_NAMES.map(([name]) => name) as [string, string];
  const notice = (i: number): ActivityNotice => ({
    rooms: Array.from({ length: 8 }, (_, r) => ({
      room: `${critic}${"\u200b".repeat(60)}${i}-${r}`,
      count: Number.MAX_SAFE_INTEGER,
      authors: Array.from({ length: 6 }, (_, a) => `${planner}${"\u202e".repeat(60)}${i}-${a}`),
      otherAuthors: 3,
    })),
    otherMessages: 5,
    total: Number.MAX_SAFE_INTEGER,
  });
  // A busy session: the notices wait and fold into one, then enter after a tool call.
  for (let i = 0; i < 5; i++) outlet.ping(notice(i));
  outlet.toolFinished();
  outlet.dispose();
  expect(lines).toHaveLength(1);
  const [line] = lines as [string];
  expect(line.startsWith("[roundtable] crit\\u{202E}ic\\u{200B}")).toBe(true);
  expect(line).toContain(" new from plan\\u{200B}ner\\u{202E}");
  expect(line).not.toContain("\n");
  expect(line.length).toBeLessThanOrEqual(4200);
  expectShowable(line);
});

test("/roundtable: an agent directory and a role flag holding invisible characters are shown escaped", async () => {
  const agentDir = join(broker.dir(), "age\u200bnt\u001b[2J");
  const session = await openSession({
    extensions: [createRoundtableExtension(broker.extensionOptions({ agentDir }))],
    flags: { "roundtable-role": "plan\u200bner" },
  });
  await session.command("/roundtable");
  const [notice] = session.notices;
  expect(notice?.text.split("\n")).toEqual([
    `roundtable: agent directory ${broker.dir()}/age\\u{200B}nt\\u{1B}[2J`,
    "role: Invalid roundtable client option role: expected 1 to 64 letters, digits, '.', '_' or '-', starting with " +
      'a letter or digit, got "plan\\u{200B}ner"',
    `memory: store ${broker.dir()}/age\\u{200B}nt\\u{1B}[2J/memory/memory.db (not opened: this session has made no memory call)`,
    "broker: not connected; this session has not used the roundtable, so nothing was started",
  ]);
  expectShowable(notice?.text ?? "");
});
