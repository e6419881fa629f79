import { expect, test } from "vitest";
import { createRoundtableExtension, ephemeralRoleWarning, resolveSessionRole } from "@orphus/pi-roundtable";
import { useBroker } from "./support/broker.js";
import { callRoundtable, useSessions } from "./support/pi.js";

const broker = useBroker();
const openSession = useSessions();

const none = { flag: undefined, sessionName: undefined, env: {}, pid: 4242 };

test("the role comes from --roundtable-role, then the session name, then ORPHUS_ROUNDTABLE_ROLE, then session-<pid>", () => {
  const env = { ORPHUS_ROUNDTABLE_ROLE: "critic" };
  expect(resolveSessionRole({ ...none, flag: "reviewer", sessionName: "planner", env })).toEqual({
    role: "reviewer",
    source: "flag",
    ephemeral: false,
  });
  expect(resolveSessionRole({ ...none, sessionName: "planner", env })).toEqual({
    role: "planner",
    source: "session-name",
    ephemeral: false,
  });
  expect(resolveSessionRole({ ...none, env })).toEqual({ role: "critic", source: "env", ephemeral: false });
  expect(resolveSessionRole(none)).toEqual({ role: "session-4242", source: "fallback", ephemeral: true });
  // pi's session names are free text: one that is not a role name is passed over, not refused.
  expect(resolveSessionRole({ ...none, sessionName: "Refactor the auth module", env })).toMatchObject({
    role: "critic",
    source: "env",
  });
  expect(resolveSessionRole({ ...none, sessionName: "  ", flag: "" })).toMatchObject({ source: "fallback" });
});

test("a flag or variable that names an impossible role is refused with the client's option error", () => {
  expect(() => resolveSessionRole({ ...none, flag: "not a role" })).toThrow(
    expect.objectContaining({ code: "ERR_CLIENT_INVALID_OPTION" }),
  );
  expect(() => resolveSessionRole({ ...none, env: { ORPHUS_ROUNDTABLE_ROLE: "-dash" } })).toThrow(
    expect.objectContaining({ code: "ERR_CLIENT_INVALID_OPTION" }),
  );
});

test("the warning says why and what to do, in one line", () => {
  expect(ephemeralRoleWarning("session-4242", undefined)).toBe(
    "[roundtable] speaking as session-4242: this session has no role name, so its read positions will not survive " +
      "a restart. Name it (/name planner), start pi with --roundtable-role planner, or set ORPHUS_ROUNDTABLE_ROLE=planner.",
  );
  expect(ephemeralRoleWarning("session-4242", "Fix the build")).toContain(
    `this session's name "Fix the build" is not a role name (letters, digits, '.', '_', '-')`,
  );
});

test("in a session: the flag wins over the session name", async () => {
  const session = await openSession({
    extensions: [createRoundtableExtension(broker.extensionOptions())],
    name: "planner",
    flags: { "roundtable-role": "reviewer" },
  });
  await session.prompt("Join.", [callRoundtable({ action: "join", room: "design" })]);
  expect(session.storedMessages().at(-2)).toMatchObject({
    text: 'Joined "design" as reviewer (new room). Members: reviewer. Nothing unread.',
  });
});

test("in a session without a role: session-<pid>, and one warning line in the session, once", async () => {
  const session = await openSession({
    extensions: [createRoundtableExtension(broker.extensionOptions({ pid: 4242 }))],
  });
  await session.prompt("Join, then list rooms.", [
    callRoundtable({ action: "join", room: "design" }),
    callRoundtable({ action: "rooms" }),
  ]);
  await session.prompt("Rooms again.", [callRoundtable({ action: "rooms" })]);
  const stored = session.storedMessages();
  const notes = stored.filter((m) => m.role === "custom");
  expect(notes).toEqual([
    {
      role: "custom",
      customType: "roundtable",
      text: ephemeralRoleWarning("session-4242", undefined),
      details: { kind: "warning" },
    },
  ]);
  // It enters right after the call that fixed the role, before the model reads on.
  const at = stored.indexOf(notes[0] as (typeof stored)[number]);
  expect(stored[at - 1]).toMatchObject({
    role: "toolResult",
    text: 'Joined "design" as session-4242 (new room). Members: session-4242. Nothing unread.',
  });
});

test("in a session: ORPHUS_ROUNDTABLE_ROLE when there is no flag and no usable name", async () => {
  const options = broker.extensionOptions();
  const session = await openSession({
    extensions: [createRoundtableExtension({ ...options, env: { ...options.env, ORPHUS_ROUNDTABLE_ROLE: "critic" } })],
    name: "Review the plan",
  });
  await session.prompt("Join.", [callRoundtable({ action: "join", room: "design" })]);
  expect(session.storedMessages().at(-2)).toMatchObject({
    text: 'Joined "design" as critic (new room). Members: critic. Nothing unread.',
  });
  expect(session.storedMessages().filter((m) => m.role === "custom")).toEqual([]);
});
