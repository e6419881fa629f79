import { describe, expect, test } from "vitest";
import { z } from "zod";
import { WireRefusalError, type PostEvent, type ResultFor } from "@orphus/roundtable-protocol";
import {
  ConnectionLostError,
  ROUNDTABLE_ACTIONS,
  ROUNDTABLE_TOOL_DESCRIPTION,
  ROUNDTABLE_TOOL_NAME,
  parseRoundtableToolInput,
  roundtableActionSchemas,
  roundtableToolJsonSchema,
  runRoundtableTool,
  type RoundtableToolClient,
} from "@orphus/roundtable-client";

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
      nextAfterSeq: 4,
      maxChars: 8000,
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
    "maxChars",
    "timeoutSeconds",
  ]);
  expect((schema["properties"] as Record<string, { enum?: string[] }>)["action"]?.enum).toEqual([
    ...ROUNDTABLE_ACTIONS,
  ]);
  expect(schema).not.toHaveProperty("$schema");
});

test("each action's result reads well", async () => {
  const client = fakeClient();
  const run = async (input: unknown) => (await runRoundtableTool(client, input)).text;
  expect(await run({ action: "join", room: "design" })).toBe(
    'Joined "design" as planner (new room). Members: critic, planner. 4 unread messages: digest to catch up.',
  );
  expect(await run({ action: "leave", room: "design" })).toBe('Left room "design".');
  expect(await run({ action: "post", room: "design", body: "Ship it.", headline: null })).toBe(
    'Posted #5 to "design".',
  );
  expect(await run({ action: "digest", room: "design" })).toBe("[#4 critic] Looks right.");
  expect(await run({ action: "fetch", room: "design", afterSeq: 2 })).toBe(
    [
      "(2 messages #1–#2 left the room's buffer and cannot be fetched.)",
      "[#3 critic] line one\n  line two",
      "[#4 reviewer] ok",
      "(more after #4: fetch again with afterSeq=4; pages hold up to 8000 characters)",
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
    digest: async () => ({
      room: "design",
      text: "",
      full: 0,
      excerpted: 0,
      headlined: 0,
      collapsed: 0,
      evicted: 0,
      throughSeq: 7,
      fetchAfterSeq: null,
    }),
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
  expect((await runRoundtableTool(busy, { action: "wait", room: "design" })).text).toBe(
    "design: 1 unread. Digest to read.",
  );
  const notJoined = await runRoundtableTool(quiet, { action: "wait", room: "ops" });
  expect(notJoined).toEqual({ text: 'roundtable wait: Not a member of room "ops"; join it first', isError: true });
});

test("bad input comes back as readable text naming what is wrong", async () => {
  const client = fakeClient();
  expect(await runRoundtableTool(client, { action: "shout" })).toEqual({
    text: 'Invalid roundtable call: action must be one of join, leave, post, digest, fetch, rooms, members, wait; got "shout"',
    isError: true,
  });
  expect(await runRoundtableTool(client, { room: "design" })).toEqual({
    text:
      "Invalid roundtable call: action is missing; it must be one of join, leave, post, digest, fetch, rooms, " +
      'members, wait; got {"room":"design"}',
    isError: true,
  });
  // Arguments that are not an object: one sentence saying what a call is, not an action error.
  expect(await runRoundtableTool(client, [1, 2])).toEqual({
    text:
      "Invalid roundtable call: the arguments must be a JSON object with an action, one of join, leave, post, " +
      "digest, fetch, rooms, members, wait; got [1,2]",
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
      throw new WireRefusalError(
        { code: "ERR_NOT_MEMBER", message: 'Not a member of room "design"; join it first' },
        "post",
      );
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

test("fetch: a cap passes through, a first message over it is explained, and the text says how to read on", async () => {
  const long = "x".repeat(9000);
  const client = fakeClient({
    fetch: async (...args: unknown[]) => {
      client.calls.push(["fetch", ...args]);
      return {
        room: "design",
        messages: [{ seq: 7, author: "critic", body: long, headline: "long", postedAt: 1 }],
        newestSeq: 9,
        more: true,
        nextAfterSeq: 7,
        maxChars: 8000,
      };
    },
  });
  expect((await runRoundtableTool(client, { action: "fetch", room: "design" })).text).toBe(
    [
      `[#7 critic] ${long}`,
      "(#7 is 9004 characters, over the page's 8000: the first message of a page always comes whole.)",
      "(more after #7: fetch again with afterSeq=7; pages hold up to 8000 characters)",
    ].join("\n"),
  );
  await runRoundtableTool(client, { action: "fetch", room: "design", maxChars: 20_000, limit: 3 });
  // No cap named: none is sent, so the broker's default applies (and a broker serving less lowers it).
  expect(client.calls).toEqual([
    ["fetch", "design", { limit: 10 }],
    ["fetch", "design", { limit: 3, maxChars: 20_000 }],
  ]);
  for (const maxChars of [0, 524_289, 2.5]) {
    const refused = await runRoundtableTool(client, { action: "fetch", room: "design", maxChars });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^Invalid roundtable call: fetch: maxChars: /);
  }
  expect(ROUNDTABLE_TOOL_DESCRIPTION).toContain(
    "fetch (messages in full after a sequence number, a page at a time: by default up to 10 messages and 8000 " +
      "characters, though a longer message still comes whole when it is first; the result says how to read on;",
  );
});

describe("arguments the tool does not take", () => {
  test("a misspelled argument is refused by name with the nearest known one, and nothing is called", async () => {
    const client = fakeClient();
    expect(await runRoundtableTool(client, { action: "wait", room: "design", timeout: 1 })).toEqual({
      text:
        'Invalid roundtable call: wait: unknown argument "timeout" (nearest known: "timeoutSeconds"); ' +
        'wait takes room, timeoutSeconds; got {"action":"wait","room":"design","timeout":1}',
      isError: true,
    });
    expect((await runRoundtableTool(client, { action: "digest", room: "design", bugdet: 500 })).text).toBe(
      'Invalid roundtable call: digest: unknown argument "bugdet" (nearest known: "budget"); digest takes room, ' +
        'budget; got {"action":"digest","room":"design","bugdet":500}',
    );
    // A member of the flat schema that this action does not take is refused too, not dropped.
    expect((await runRoundtableTool(client, { action: "digest", room: "design", limit: 5 })).text).toMatch(
      /^Invalid roundtable call: digest: unknown argument "limit" \(nearest known: "[a-z]+"\); digest takes room, budget;/,
    );
    expect((await runRoundtableTool(client, { action: "rooms", room: "design" })).text).toBe(
      'Invalid roundtable call: rooms: unknown argument "room"; rooms takes no arguments; got {"action":"rooms","room":"design"}',
    );
    expect(client.calls).toEqual([]);
  });

  test("one tool per action: the arguments come without `action`, and the texts name only that action's arguments", async () => {
    const client = fakeClient();
    const wait = await runRoundtableTool(client, { room: "design", timeout: 1 }, { action: "wait" });
    expect(wait).toEqual({
      text:
        'Invalid roundtable call: wait: unknown argument "timeout" (nearest known: "timeoutSeconds"); ' +
        'wait takes room, timeoutSeconds; got {"room":"design","timeout":1}',
      isError: true,
    });
    const missing = await runRoundtableTool(client, { room: "design" }, { action: "post" });
    expect(missing.text).toMatch(/^Invalid roundtable call: post: body: .*; got \{"room":"design"\}$/);
    expect(missing.text).not.toContain("action");
    expect((await runRoundtableTool(client, [1, 2], { action: "join" })).text).toBe(
      "Invalid roundtable call: join: the arguments must be a JSON object; got [1,2]",
    );
    expect((await runRoundtableTool(client, { room: "design", action: "post" }, { action: "join" })).text).toBe(
      'Invalid roundtable call: join: unknown argument "action" (this tool runs join already; leave it out); ' +
        'got {"room":"design","action":"post"}',
    );
    expect(client.calls).toEqual([]);
    expect(await runRoundtableTool(client, { room: "design", headline: null }, { action: "join" })).toMatchObject({
      isError: false,
    });
    expect(await runRoundtableTool(client, undefined, { action: "rooms" })).toMatchObject({ isError: false });
  });

  test("a room name the broker would refuse is refused here, with the broker's pattern", async () => {
    const client = fakeClient();
    expect((await runRoundtableTool(client, { action: "join", room: "Design" })).text).toBe(
      "Invalid roundtable call: join: room: a room name is lower-case letters, digits, '.', '_' or '-', starting " +
        'with a letter or digit (^[a-z0-9][a-z0-9._-]{0,63}$); got {"action":"join","room":"Design"}',
    );
    expect((await runRoundtableTool(client, { action: "join", room: "x".repeat(65) })).text).toContain(
      "room: a room name is at most 64 characters",
    );
    expect(client.calls).toEqual([]);
  });

  test("the JSON schemas are closed and carry the room syntax", () => {
    const schema = roundtableToolJsonSchema();
    expect(schema["additionalProperties"]).toBe(false);
    expect((schema["properties"] as Record<string, unknown>)["room"]).toMatchObject({
      type: "string",
      minLength: 1,
      maxLength: 64,
      pattern: "^[a-z0-9][a-z0-9._-]{0,63}$",
    });
    for (const action of ROUNDTABLE_ACTIONS) {
      expect(z.toJSONSchema(roundtableActionSchemas[action])).toMatchObject({ additionalProperties: false });
    }
  });
});

describe("wait polls as well as listening", () => {
  test("a post whose event never arrives wakes the wait at the next poll", async () => {
    let looks = 0;
    const client = fakeClient({
      rooms: async () => ({
        rooms: [{ room: "design", members: 2, newestSeq: 3, joined: true, unread: looks++ >= 2 ? 1 : 0 }],
      }),
      // The event was lost (dropped for a slow reader): the wait itself would only run out its timeout.
      waitForPost: ({ signal }) =>
        new Promise((resolve) => signal?.addEventListener("abort", () => resolve(undefined), { once: true })),
    });
    const result = await runRoundtableTool(
      client,
      { action: "wait", room: "design", timeoutSeconds: 60 },
      { waitPollMs: 5 },
    );
    expect(result).toEqual({ text: "design: 1 unread. Digest to read.", isError: false });
    expect(looks).toBe(3);
  });

  test("a role taken out of the room by another of its connections ends the wait with the not-member text", async () => {
    let looks = 0;
    const client = fakeClient({
      rooms: async () => ({
        rooms: [{ room: "design", members: 1, newestSeq: 3, joined: looks++ === 0, unread: 0 }],
      }),
      waitForPost: ({ signal }) =>
        new Promise((resolve) => signal?.addEventListener("abort", () => resolve(undefined), { once: true })),
    });
    expect(await runRoundtableTool(client, { action: "wait", room: "design" }, { waitPollMs: 5 })).toEqual({
      text: 'roundtable wait: Not a member of room "design"; join it first',
      isError: true,
    });
  });
});
