// The memory tool in real pi sessions: the shared tool of @orphus/memory beside `roundtable`, on the store of the
// sessions' agent directory. A librarian session ingests a note and another role's session queries it; the store
// opens on a session's first memory call only and closes with the session; without the package, the tool says how
// to install it. The model is pi-ai's faux provider, scripted per test.
import { readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { MAX_MEMORY_ERROR_CHARS, openMemory } from "@orphus/memory";
import { expectShowable } from "../../../test-support/hostile-text.js";
import {
  createRoundtableExtension,
  memoryUnavailableText,
  type RoundtableExtensionOptions,
} from "@orphus/pi-roundtable";
import { useBroker } from "./support/broker.js";
import { callRoundtable, callTool, type PiSession, useSessions } from "./support/pi.js";

const broker = useBroker();
const openSession = useSessions();

/** Extension options for these sessions: the test's agent directory, and no memory directory of the machine's. */
function options(extra: Partial<RoundtableExtensionOptions> = {}): RoundtableExtensionOptions {
  const base = broker.extensionOptions(extra);
  return { ...base, env: { ...base.env, ORPHUS_MEMORY_DIR: undefined } };
}

const storePath = (): string => join(broker.dir(), "memory", "memory.db");

/** Descriptors this process holds open on `file`: SQLite's connection to the store, when one is open. */
function openHandles(file: string): number {
  return readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false; // the descriptor readdir itself used, closed by now
    }
  }).length;
}

/** The session's last tool result (the model's closing text follows it). */
function lastResult(session: PiSession): { text: string; isError: boolean } {
  const stored = session.storedMessages().at(-2);
  if (stored?.role !== "toolResult") throw new Error(`no tool result last: ${JSON.stringify(stored)}`);
  return { text: stored.text, isError: stored.isError };
}

async function memoryCall(
  session: PiSession,
  input: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  await session.prompt("Use the memory.", [callTool("memory", input)]);
  return lastResult(session);
}

test(
  "the librarian ingests a note and another role's session finds it; the store's three empty answers",
  { timeout: 60_000 },
  async () => {
    const critic = await openSession({ extensions: [createRoundtableExtension(options())], name: "critic" });
    const librarian = await openSession({ extensions: [createRoundtableExtension(options())], name: "librarian" });

    const missing = await memoryCall(critic, { action: "query", query: "changesets" });
    expect(missing.isError).toBe(true);
    // The sessions get their agent directory from the extension's agentDir option, not from the variable.
    expect(missing.text).toBe(
      `[memory ${storePath()}] no memory store exists here (location from the agentDir option); a librarian's first ` +
        "ingest creates it: orphus-memory --as librarian ingest <file or folder…>. Sessions that have a store resolve " +
        "another location: give all the same ORPHUS_MEMORY_DIR or ORPHUS_CODING_AGENT_DIR, or, where a host passes no " +
        "variables on, the same orphus-roundtable-mcp --agent-dir or orphus-memory --dir",
    );

    const ingested = await memoryCall(librarian, {
      action: "ingest",
      title: "Release plan\u200bner",
      body: "We release with changesets, one per package change.",
      tags: ["release"],
      source: "adr-release",
    });
    expect(ingested).toEqual({
      isError: false,
      text: `[memory ${storePath()}] ingested: 1 new source, 0 changed sources replaced, 0 unchanged sources left as they were; 1 entry added`,
    });

    const hits = await memoryCall(critic, { action: "query", query: "changesets", budget: null });
    expect(hits).toEqual({
      isError: false,
      text:
        `[memory ${storePath()}] hits 1–1 of 1 for "changesets"; get <id> reads an entry in full\n` +
        "[#1] Release plan\\u{200B}ner · adr-release\n" +
        "  We release with changesets, one per package change.",
    });
    const page = await memoryCall(critic, { action: "get", id: 1 });
    expect(page.text.split("\n").slice(1, 3)).toEqual([
      expect.stringMatching(/^\[#1\] Release plan\\u\{200B\}ner · source adr-release · tags: release · ingested /),
      "We release with changesets, one per package change.",
    ]);

    const refused = await memoryCall(critic, { action: "forget", source: "adr-release" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(
      `is for the librarian role only; this session's role is "critic" (from the session name)`,
    );
    expect(refused.text).toContain("--roundtable-role librarian for pi");

    expect((await memoryCall(critic, { action: "query", query: "kubernetes" })).text).toContain(
      'no entry matches "kubernetes" among 1 entry',
    );
    expect((await memoryCall(librarian, { action: "forget", source: "adr-release" })).text).toContain("forgot 1 entry");
    const empty = await memoryCall(critic, { action: "query", query: "changesets" });
    expect(empty.isError).toBe(true);
    expect(empty.text).toContain("the memory store is empty");
  },
);

test(
  "a bad memory call is answered by the tool's own check, not pi's: the nearest argument named, nothing raw",
  { timeout: 60_000 },
  async () => {
    const critic = await openSession({ extensions: [createRoundtableExtension(options())], name: "critic" });
    expect(await memoryCall(critic, { action: "query", qeury: "release" })).toEqual({
      isError: true,
      text:
        'Invalid memory call: query: unknown argument "qeury" (nearest known: "query"); query takes query, budget, limit, ' +
        'offset; a query needs words; got {"action":"query","qeury":"release"}',
    });
    const long = await memoryCall(critic, { action: "query", query: "word ".repeat(201) });
    expect(long.isError).toBe(true);
    expect(long.text).toMatch(
      /^Invalid memory call: query: the query is longer than 1000 characters; got \{"action":"query","query":"word word /,
    );
    // pi would turn "1" into 1 before its own check; the tool refuses it, as it does over MCP.
    const get = await memoryCall(critic, { action: "get", id: "1" });
    expect(get.isError).toBe(true);
    expect(get.text).toMatch(/^Invalid memory call: get: id: .*; got \{"action":"get","id":"1"\}$/);
    // A hostile argument: an invisible character in its name, escape sequences and 50,000 characters in its value.
    const hostile = await memoryCall(critic, {
      action: "stats",
      "ver\u200bbose": `\u001b[31m${"x".repeat(50_000)}\u202e`,
    });
    expect(hostile.isError).toBe(true);
    expectShowable(hostile.text);
    expect(hostile.text).toMatch(
      /^Invalid memory call: stats: unknown argument "ver\\u\{200B\}bose"; stats takes no arguments; got /,
    );
    expect(hostile.text.length).toBeLessThanOrEqual(MAX_MEMORY_ERROR_CHARS);
    // A null member counts as absent: the call goes through to the (missing) store.
    expect((await memoryCall(critic, { action: "query", query: "release", budget: null })).text).toContain(
      "no memory store exists here",
    );
    expect(critic.storedMessages().at(-1)).toMatchObject({ role: "assistant", text: "Done." });
  },
);

test(
  "lazy: a session that never calls memory opens no database; the one that did closes it on shutdown",
  { timeout: 60_000 },
  async () => {
    const seed = openMemory({ role: "librarian", env: { ORPHUS_CODING_AGENT_DIR: broker.dir() } });
    seed.ingestTexts([{ title: "Seed", body: "seeded words" }]);
    seed.close();
    expect(openHandles(storePath())).toBe(0);

    const planner = await openSession({ extensions: [createRoundtableExtension(options())], name: "planner" });
    await planner.prompt("Rooms.", [callRoundtable({ action: "rooms" })]);
    await planner.command("/roundtable");
    expect(planner.notices.at(-1)?.text).toContain(
      `memory: store ${storePath()} (not opened: this session has made no memory call)`,
    );
    expect(openHandles(storePath())).toBe(0);

    const critic = await openSession({ extensions: [createRoundtableExtension(options())], name: "critic" });
    expect((await memoryCall(critic, { action: "query", query: "seeded" })).text).toContain("[#1] Seed");
    expect(openHandles(storePath())).toBe(1);
    await critic.command("/roundtable");
    expect(critic.notices.at(-1)?.text).toContain(`memory: store ${storePath()} (open)`);
    await critic.shutdown();
    expect(openHandles(storePath())).toBe(0);
    await planner.shutdown();
    expect(openHandles(storePath())).toBe(0);
  },
);

test("without @orphus/memory the tool is there and every call says what is missing and how to install it", async () => {
  const notInstalled = Object.assign(new Error("Cannot find package '@orphus/memory'"), {
    code: "ERR_MODULE_NOT_FOUND",
  });
  const session = await openSession({
    extensions: [createRoundtableExtension(options({ loadMemory: () => Promise.reject(notInstalled) }))],
    name: "critic",
  });
  const tools = session.session.extensionRunner.getAllRegisteredTools().map((tool) => tool.definition.name);
  expect(tools).toEqual(["roundtable", "memory"]);
  const reason = "@orphus/memory is not installed beside @orphus/pi-roundtable";
  expect(await memoryCall(session, { action: "query", query: "anything" })).toEqual({
    isError: true,
    text: memoryUnavailableText(reason),
  });
  expect(memoryUnavailableText(reason)).toBe(
    "memory is not available in this pi: @orphus/memory is not installed beside @orphus/pi-roundtable. Install it " +
      "where pi installed @orphus/pi-roundtable: npm install -g @orphus/memory for a global install (pi install), npm " +
      "install --prefix .pi/npm @orphus/memory for a project one (pi install -l); it also brings the orphus-memory " +
      "command a librarian ingests with",
  );
  await session.command("/roundtable");
  expect(session.notices.at(-1)?.text).toContain(
    `memory: not available (${reason}); the memory tool says how to install it`,
  );

  const broken = await openSession({
    extensions: [
      createRoundtableExtension(options({ loadMemory: () => Promise.reject(new Error("addon \u001b[31mboom")) })),
    ],
    name: "planner",
  });
  const failed = await memoryCall(broken, { action: "stats" });
  expect(failed).toEqual({
    isError: true,
    text: memoryUnavailableText("@orphus/memory could not be loaded: addon boom"),
  });
  // The reason reaches the model in the tool's description as well: sanitised there too.
  const description = broken.session.extensionRunner
    .getAllRegisteredTools()
    .find((tool) => tool.definition.name === "memory")?.definition.description;
  expect(description).toContain("@orphus/memory could not be loaded: addon boom.");
});
