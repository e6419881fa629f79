import { expect, test } from "vitest";
import { WireRefusalError, type PostEvent, type ResultFor } from "@orphus/roundtable-protocol";
import {
  ConnectionLostError,
  ROUNDTABLE_ACTIONS,
  ROUNDTABLE_TOOL_NAME,
  parseRoundtableToolInput,
  roundtableToolJsonSchema,
  runRoundtableTool,
  type RoundtableToolClient,
} from "../src/index.js";

/** A client double for the tool's texts: the tool only sees this interface (the wire is tested end to end). */
function fakeClient(overrides: Partial<RoundtableToolClient> = {}): RoundtableToolClient & { calls: unknown[][] } {
  const calls: unknown[][] = [];
  const record =
    <T>(name: string, value: T) =>
    async (...args: unknown[]): Promise<T> => {
      calls.push([name, ...args]);
      return value;
    };
  return {
    calls,
    role: "planner",
    join: record("join", { room: "design", created: true, members: ["critic", "planner"], newestSeq: 4, unread: 4 }),
    leave: record("leave", { room: "design", left: true }),
    post: record("post", { room: "design", seq: 5, postedAt: 1 }),
    digest: record("digest", {
      room: "design",
      text: "[#4 critic] Looks right.",
      full: 1,
      excerpted: 0,
      headlined: 0,
      collapsed: 0,
      evicted: 0,
      throughSeq: 4,
      fetchAfterSeq: null,
    }),
    fetch: record("fetch", {
      room: "design",
      messages: [
        { seq: 3, author: "critic", body: "line one\nline two\u001b[31m", postedAt: 1 },
        { seq: 4, author: "reviewer", body: "ok", headline: "ok", postedAt: 2 },
      ],
      newestSeq: 9,
      more: true,
      evicted: { count: 2, fromSeq: 1, toSeq: 2 },
    } satisfies ResultFor<"fetch">),
    rooms: record("rooms", {
      rooms: [
        { room: "design", members: 3, newestSeq: 12, joined: true, unread: 2 },
        { room: "ops", members: 1, newestSeq: 0, joined: false },
      ],
    }),
    members: record("members", { room: "design", members: ["critic", "planner"] }),
    waitForPost: record<PostEvent | undefined>("waitForPost", undefined),
    ...overrides,
  };
}

test("the tool's name, actions and JSON schema are pinned", () => {
  expect(ROUNDTABLE_TOOL_NAME).toBe("roundtable");
  expect(ROUNDTABLE_ACTIONS).toEqual(["join", "leave", "post", "digest", "fetch", "rooms", "members", "wait"]);
  const schema = roundtableToolJsonSchema();
  expect(schema["type"]).toBe("object");
  expect(schema["required"]).toEqual(["action"]);
  expect(Object.keys(schema["properties"] as object)).toEqual([
    "action",
    "room",
    "body",
    "headline",
    "budget",
    "afterSeq",
    "limit",
    "timeoutSeconds",
  ]);
  expect((schema["properties"] as Record<string, { enum?: string[] }>)["action"]?.enum).toEqual([...ROUNDTABLE_ACTIONS]);
  expect(schema).not.toHaveProperty("$schema");
});

test("each action's result reads well", async () => {
  const client = fakeClient();
  const run = async (input: unknown) => (await runRoundtableTool(client, input)).text;
  expect(await run({ action: "join", room: "design" })).toBe(
    'Joined "design" as planner (new room). Members: critic, planner. 4 unread messages: digest to catch up.',
  );
  expect(await run({ action: "leave", room: "design" })).toBe('Left room "design".');
  expect(await run({ action: "post", room: "design", body: "Ship it.", headline: null })).toBe('Posted #5 to "design".');
  expect(await run({ action: "digest", room: "design" })).toBe("[#4 critic] Looks right.");
  expect(await run({ action: "fetch", room: "design", afterSeq: 2 })).toBe(
    [
      "(2 messages #1–#2 left the room's buffer and cannot be fetched.)",
      "[#3 critic] line one\nline two\ufffd[31m",
      "[#4 reviewer] ok",
      "(more after #4: fetch again with afterSeq=4)",
    ].join("\n"),
  );
  expect(await run({ action: "rooms" })).toBe(
    "design: 3 members, newest #12, joined, 2 unread\nops: 1 member, newest #0, not joined",
  );
  expect(await run({ action: "members", room: "design" })).toBe('Members of "design": critic, planner.');
  expect(client.calls).toContainEqual(["digest", "design", { budget: 1500 }]);
  expect(client.calls).toContainEqual(["fetch", "design", { limit: 10, afterSeq: 2 }]);
  expect(client.calls).toContainEqual(["post", "design", "Ship it.", {}]);
});

test("an empty digest says there is nothing unread", async () => {
  const client = fakeClient({
    digest: async () => ({ room: "design", text: "", full: 0, excerpted: 0, headlined: 0, collapsed: 0, evicted: 0, throughSeq: 7, fetchAfterSeq: null }),
  });
  expect((await runRoundtableTool(client, { action: "digest", room: "design" })).text).toBe(
    'Nothing unread in "design" (read through #7).',
  );
});

test("wait reports unread at once when there is some, else waits for a post", async () => {
  expect((await runRoundtableTool(fakeClient(), { action: "wait" })).text).toBe("design: 2 unread. Digest to read.");
  const quiet = fakeClient({
    rooms: async () => ({ rooms: [{ room: "design", members: 2, newestSeq: 3, joined: true, unread: 0 }] }),
  });
  expect((await runRoundtableTool(quiet, { action: "wait", timeoutSeconds: 1 })).text).toBe("No new posts in 1 s.");
  let looks = 0;
  const busy = fakeClient({
    rooms: async () => ({ rooms: [{ room: "design", members: 2, newestSeq: 3, joined: true, unread: looks++ }] }),
    waitForPost: async () => ({ event: "post", room: "design", seq: 4, author: "critic" }),
  });
  expect((await runRoundtableTool(busy, { action: "wait", room: "design" })).text).toBe("design: 1 unread. Digest to read.");
  const notJoined = await runRoundtableTool(quiet, { action: "wait", room: "ops" });
  expect(notJoined).toEqual({ text: 'roundtable wait: Not a member of room "ops"; join it first', isError: true });
});

test("bad input comes back as readable text naming what is wrong", async () => {
  const client = fakeClient();
  expect(await runRoundtableTool(client, { action: "shout" })).toEqual({
    text: 'Invalid roundtable call: action must be one of join, leave, post, digest, fetch, rooms, members, wait; got "shout"',
    isError: true,
  });
  const missing = await runRoundtableTool(client, { action: "post", room: "design" });
  expect(missing.isError).toBe(true);
  expect(missing.text).toMatch(/^Invalid roundtable call: post: body: /);
  const tooBig = await runRoundtableTool(client, { action: "digest", room: "design", budget: 1_000_000 });
  expect(tooBig.text).toMatch(/^Invalid roundtable call: digest: budget: Too big/);
  expect(client.calls).toEqual([]);
  expect(() => parseRoundtableToolInput(null)).toThrow(expect.objectContaining({ code: "ERR_TOOL_INVALID_INPUT" }));
});

test("broker refusals and lost connections come back as their message, never a stack", async () => {
  const refusing = fakeClient({
    post: async () => {
      throw new WireRefusalError({ code: "ERR_NOT_MEMBER", message: 'Not a member of room "design"; join it first' }, "post");
    },
    rooms: async () => {
      throw new ConnectionLostError("rooms", "the broker closed the connection");
    },
    members: async () => {
      throw new TypeError("boom");
    },
  });
  expect(await runRoundtableTool(refusing, { action: "post", room: "design", body: "x" })).toEqual({
    text: 'roundtable post: Not a member of room "design"; join it first',
    isError: true,
  });
  const lost = await runRoundtableTool(refusing, { action: "rooms" });
  expect(lost.text).toBe(
    "roundtable rooms: Lost the connection to the roundtable broker while waiting for rooms (the broker closed the " +
      "connection); the next call reconnects, and rooms must be joined again",
  );
  const odd = await runRoundtableTool(refusing, { action: "members", room: "design" });
  expect(odd).toEqual({ text: "roundtable members failed: boom", isError: true });
  expect(odd.text).not.toContain("    at ");
});
