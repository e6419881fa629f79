import { afterEach, expect, test, vi } from "vitest";
import { COMMAND_USAGE, DOCTOR_PI_ROLE_HINT, createRoundtableExtension } from "@orphus/pi-roundtable";
import { useBroker } from "./support/broker.js";
import { callRoundtable, type PiSession, useSessions } from "./support/pi.js";

const broker = useBroker();
const openSession = useSessions();
afterEach(() => {
  vi.restoreAllMocks();
});

async function planner(hasUI = true): Promise<PiSession> {
  const session = await openSession({
    extensions: [createRoundtableExtension(broker.extensionOptions())],
    name: "planner",
    hasUI,
  });
  return session;
}

test("/roundtable: the role, the broker, and every room with its unread count", async () => {
  const session = await planner();
  await session.prompt("Join two rooms.", [
    callRoundtable({ action: "join", room: "design" }),
    callRoundtable({ action: "join", room: "ops" }),
  ]);
  const critic = broker.observer({ role: "critic" });
  await critic.join("design");
  await critic.post("design", "first");
  await critic.post("design", "second");
  await critic.join("lobby");

  await session.command("/roundtable");
  const { pid } = await critic.status();
  expect(session.notices).toEqual([
    {
      level: "info",
      text: [
        `roundtable: agent directory ${broker.dir()}`,
        "role planner (the session name)",
        `memory: store ${broker.dir()}/memory/memory.db (not opened: this session has made no memory call)`,
        `broker: pid ${pid}, version 0.0.0, connected`,
        "rooms:",
        "design: 2 members, newest #2, joined, 2 unread",
        "lobby: 1 member, newest #0, not joined",
        "ops: 1 member, newest #0, joined, 0 unread",
      ].join("\n"),
    },
  ]);
  expect(session.storedMessages().filter((m) => m.role === "custom" && m.text.startsWith("roundtable:"))).toEqual([]);
});

test("/roundtable doctor runs the doctor for this session's directory and role", async () => {
  const session = await planner();
  await session.command("/roundtable doctor");
  const [notice] = session.notices;
  expect(notice?.level).toBe("info");
  expect(notice?.text.split("\n")[0]).toBe(`roundtable doctor: agent directory ${broker.dir()} (--agent-dir)`);
  expect(notice?.text).toContain("role planner");
  expect(notice?.text).not.toContain(DOCTOR_PI_ROLE_HINT);
  expect(broker.spawned).toEqual([]); // the doctor starts nothing
});

test("/roundtable doctor in a session without a role finds it, and says how a pi session gets one", async () => {
  const session = await openSession({ extensions: [createRoundtableExtension(broker.extensionOptions())] });
  await session.command("/roundtable doctor");
  const text = session.notices[0]?.text ?? "";
  expect(text).toContain("problem [ephemeral-role]");
  expect(text.endsWith(`\n${DOCTOR_PI_ROLE_HINT}`)).toBe(true);
  expect(DOCTOR_PI_ROLE_HINT).toBe(
    "in pi: /name <role>, or pi --roundtable-role <role>, gives this session a stable role",
  );
});

test("/roundtable with anything else answers with its usage; without a UI the text goes to stderr", async () => {
  const session = await planner(false);
  const written: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  await session.command("/roundtable frobnicate");
  await session.command("/roundtable");
  vi.restoreAllMocks();
  expect(written[0]).toBe(`${COMMAND_USAGE}\n`);
  expect(written[1]).toContain("broker: not connected; this session has not used the roundtable");
  expect(session.notices).toEqual([]);
});

test("the command completes its two words", () => {
  const completions = async (prefix: string) => {
    const session = await planner();
    const command = session.session.extensionRunner.getCommand("roundtable");
    return command?.getArgumentCompletions?.(prefix);
  };
  return expect(completions("d")).resolves.toEqual([{ value: "doctor", label: "doctor" }]);
});
