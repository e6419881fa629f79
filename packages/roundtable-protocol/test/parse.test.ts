import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  PROTOCOL_EXAMPLES,
  ServerFrameInvalidError,
  WireRefusalError,
  announcedPosts,
  errorReplySchema,
  eventSchema,
  isCompatiblePeer,
  okReplySchemas,
  parseRequest,
  parseServerFrame,
  readPeerProtocol,
  readsPostsEvents,
  requestSchemas,
  watchEventSchema,
  type RoundtableRequest,
} from "@orphus/roundtable-protocol";

describe("examples", () => {
  test.each(PROTOCOL_EXAMPLES.map((e) => [e.title, e] as const))("%s satisfies its schema", (_title, example) => {
    const { kind, value } = example;
    if (kind === "error") expect(errorReplySchema.parse(value)).toEqual(value);
    else if (kind === "event" && "kind" in value) expect(watchEventSchema.parse(value)).toEqual(value);
    else if (kind === "event") expect(eventSchema.parse(value)).toEqual(value);
    else if ("request" in kind) expect(requestSchemas[kind.request].parse(value)).toEqual(value);
    else expect(okReplySchemas[kind.reply].parse(value)).toEqual(value);
  });

  test("every op has a request and a reply example", () => {
    const requests = PROTOCOL_EXAMPLES.flatMap((e) =>
      typeof e.kind === "object" && "request" in e.kind ? [e.kind.request] : [],
    );
    const replies = PROTOCOL_EXAMPLES.flatMap((e) =>
      typeof e.kind === "object" && "reply" in e.kind ? [e.kind.reply] : [],
    );
    const ops = ["hello", "join", "leave", "post", "digest", "fetch", "rooms", "members", "status"];
    // hello has two requests: a member's, and a watcher's (version 3), followed by the watcher's ops.
    expect(requests).toEqual([...ops, "hello", "watch", "peek"]);
    // post has two: a first post, and a retry with the same idempotency key.
    expect(replies).toEqual([...ops.slice(0, 4), "post", ...ops.slice(4), "watch", "peek"]);
  });
});

describe("parseRequest", () => {
  test("a valid request comes back typed", () => {
    expect(parseRequest({ id: 7, op: "post", room: "r", body: "hi" })).toEqual({
      ok: true,
      request: { id: 7, op: "post", room: "r", body: "hi" },
    });
  });

  test("unknown members are stripped, so a newer client's extra fields do not break an older broker", () => {
    expect(parseRequest({ id: 1, op: "status", verbose: true })).toEqual({
      ok: true,
      request: { id: 1, op: "status" },
    });
  });

  test("not an object", () => {
    expect(parseRequest([1, 2])).toEqual({
      ok: false,
      id: null,
      op: undefined,
      error: {
        code: "ERR_INVALID_REQUEST",
        message: "Invalid request: expected a JSON object with id and op, got an array",
      },
    });
    expect(parseRequest(null)).toMatchObject({ ok: false, id: null, error: { code: "ERR_INVALID_REQUEST" } });
    // Named by kind in the one wording every package uses (typeName of @orphus/internal).
    expect(
      [null, "status", 7].map((value) => parseRequest(value)).map((parsed) => !parsed.ok && parsed.error.message),
    ).toEqual([
      "Invalid request: expected a JSON object with id and op, got null",
      "Invalid request: expected a JSON object with id and op, got a string",
      "Invalid request: expected a JSON object with id and op, got a number",
    ]);
  });

  test("an unreadable id is refused with id null", () => {
    expect(parseRequest({ id: -1, op: "status" })).toEqual({
      ok: false,
      id: null,
      op: "status",
      error: { code: "ERR_INVALID_REQUEST", message: "Invalid request: id must be an integer from 0 to 2^53-1" },
    });
    expect(parseRequest({ id: "1", op: "status" })).toMatchObject({ ok: false, id: null });
    expect(parseRequest({ id: 1.5, op: "status" })).toMatchObject({ ok: false, id: null });
  });

  test("an unknown op", () => {
    expect(parseRequest({ id: 3, op: "shout" })).toEqual({
      ok: false,
      id: 3,
      op: "shout",
      error: {
        code: "ERR_UNKNOWN_OP",
        message:
          'Unknown op "shout": expected one of hello, join, leave, post, digest, fetch, rooms, members, status, ' +
          "watch, peek",
      },
    });
    expect(parseRequest({ id: 3 })).toMatchObject({ ok: false, id: 3, error: { code: "ERR_UNKNOWN_OP" } });
  });

  test("a schema-invalid request names the field", () => {
    const parsed = parseRequest({ id: 4, op: "post", room: "r", body: 12 });
    expect(parsed).toMatchObject({ ok: false, id: 4, op: "post", error: { code: "ERR_INVALID_REQUEST" } });
    if (parsed.ok) throw new Error("unreachable");
    expect(parsed.error.message).toMatch(/^Invalid post request: body: /);
    const fetch = parseRequest({ id: 5, op: "fetch", room: "r", limit: 201 });
    expect(fetch).toMatchObject({ ok: false, error: { code: "ERR_INVALID_REQUEST" } });
    for (const maxChars of [0, 524_289, 1.5, "8000"]) {
      const capped = parseRequest({ id: 7, op: "fetch", room: "r", maxChars });
      expect(capped).toMatchObject({ ok: false, id: 7, op: "fetch", error: { code: "ERR_INVALID_REQUEST" } });
      if (capped.ok) throw new Error("unreachable");
      expect(capped.error.message).toMatch(/^Invalid fetch request: maxChars: /);
    }
    expect(parseRequest({ id: 8, op: "fetch", room: "r", maxChars: 524_288 })).toMatchObject({ ok: true });
    const hello = parseRequest({
      id: 6,
      op: "hello",
      protocol: "orphus-roundtable",
      version: 1,
      role: "bad role",
      pid: 1,
    });
    if (hello.ok) throw new Error("expected a refusal");
    expect(hello.error.message).toContain("role: a role name is 1 to 64 letters");
  });

  test("an idempotency key outside its syntax is refused, naming the syntax", () => {
    for (const idempotencyKey of ["", "x".repeat(65), "has space", "a/b", 42]) {
      const parsed = parseRequest({ id: 8, op: "post", room: "r", body: "b", idempotencyKey });
      if (parsed.ok) throw new Error(`expected a refusal for ${JSON.stringify(idempotencyKey)}`);
      expect(parsed.error.code).toBe("ERR_INVALID_REQUEST");
      expect(parsed.error.message).toMatch(/^Invalid post request: idempotencyKey: /);
    }
    expect(parseRequest({ id: 8, op: "post", room: "r", body: "b", idempotencyKey: "a" })).toMatchObject({ ok: true });
    const uuid = parseRequest({
      id: 9,
      op: "post",
      room: "r",
      body: "b",
      idempotencyKey: "0b6f1f1e-5c7a-4d55-9a4e-2a8d1c0f9b3e",
    });
    expect(uuid).toMatchObject({ ok: true, request: { idempotencyKey: "0b6f1f1e-5c7a-4d55-9a4e-2a8d1c0f9b3e" } });
  });

  test("a long refusal is cut to the wire's message limit", () => {
    const issues = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    const parsed = parseRequest({ id: 1, op: "x".repeat(5000), ...issues });
    if (parsed.ok) throw new Error("expected a refusal");
    expect(parsed.error.message.length).toBeLessThanOrEqual(1000);
    expect(parsed.op).toHaveLength(64);
  });

  const role = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/);
  const room = fc.string({ minLength: 1, maxLength: 128 });
  const id = fc.nat({ max: Number.MAX_SAFE_INTEGER });
  const seq = fc.nat({ max: Number.MAX_SAFE_INTEGER });
  const request: fc.Arbitrary<RoundtableRequest> = fc.oneof(
    fc.record({
      id,
      op: fc.constant("hello" as const),
      protocol: fc.string({ maxLength: 64 }),
      version: fc.nat(),
      role,
      pid: fc.nat(),
    }),
    fc.record({ id, op: fc.constantFrom("join" as const, "leave" as const, "members" as const), room }),
    fc.record(
      {
        id,
        op: fc.constant("post" as const),
        room,
        body: fc.string(),
        headline: fc.string(),
        idempotencyKey: fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
      },
      { requiredKeys: ["id", "op", "room", "body"] },
    ),
    fc.record(
      { id, op: fc.constant("digest" as const), room, budget: fc.nat({ max: 100_000 }) },
      { requiredKeys: ["id", "op", "room"] },
    ),
    fc.record(
      {
        id,
        op: fc.constant("fetch" as const),
        room,
        afterSeq: seq,
        limit: fc.integer({ min: 1, max: 200 }),
        maxChars: fc.integer({ min: 1, max: 524_288 }),
      },
      { requiredKeys: ["id", "op", "room"] },
    ),
    fc.record({ id, op: fc.constantFrom("rooms" as const, "status" as const) }),
  );

  test("property: every valid request survives JSON and parses back to itself", () => {
    fc.assert(
      fc.property(request, (req) => {
        expect(parseRequest(JSON.parse(JSON.stringify(req)))).toEqual({ ok: true, request: req });
      }),
    );
  });

  test("property: a post request parses to exactly what the post schema gives it, or is refused as before", () => {
    // Posts are checked by hand where plainly valid (src/plain-post.ts); the schema stays the reference. Each field
    // is valid, absent, undefined, just past a limit, or any other value, and strangers ride along to be dropped.
    const either = <T>(valid: fc.Arbitrary<T>) =>
      fc.oneof(
        { arbitrary: valid, weight: 6 },
        fc.constant(undefined),
        fc.anything(),
        fc.double(),
        fc.string({ maxLength: 140 }),
        // Just past each limit: a negative or unsafe id, an empty or over-long room name, a bad key.
        fc.constantFrom(-1, -0, 0.5, 2 ** 53, "", "r".repeat(129), "key with spaces", null),
      );
    const post = fc.record(
      {
        id: either(id),
        op: fc.constant("post"),
        room: either(room),
        body: either(fc.string()),
        headline: either(fc.string()),
        idempotencyKey: either(fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/)),
        stranger: fc.anything(),
      },
      { requiredKeys: ["op"] },
    );
    let accepted = 0;
    fc.assert(
      fc.property(post, (value) => {
        const reference = requestSchemas.post.safeParse(value);
        const parsed = parseRequest(value);
        if (!reference.success) {
          expect(parsed.ok).toBe(false);
          return;
        }
        accepted++;
        expect(parsed).toStrictEqual({ ok: true, request: reference.data });
        if (parsed.ok) expect(Object.keys(parsed.request)).toEqual(Object.keys(reference.data));
      }),
      { numRuns: 2000 },
    );
    // Both sides of the schema were reached: enough valid posts to try the hand check on.
    expect(accepted).toBeGreaterThan(50);
  });

  test("property: any JSON value gives a request or a refusal that is itself a valid error reply", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), fc.record({ id: fc.jsonValue(), op: fc.jsonValue() }, { requiredKeys: [] })),
        (value) => {
          const parsed = parseRequest(value);
          if (parsed.ok) return;
          const reply = { id: parsed.id, ok: false as const, op: parsed.op, error: parsed.error };
          expect(errorReplySchema.safeParse(reply).success).toBe(true);
        },
      ),
    );
  });
});

describe("peer protocol", () => {
  test("read loosely from a hello of any shape", () => {
    expect(readPeerProtocol({ op: "hello", protocol: "orphus-roundtable", version: 2, name: "new-field" })).toEqual({
      protocol: "orphus-roundtable",
      version: 2,
    });
    expect(readPeerProtocol({ protocol: "orphus-roundtable" })).toBeUndefined();
    expect(readPeerProtocol("hello")).toBeUndefined();
  });

  test("compatible with the same name at versions 1 to 3: a version-3 broker still serves version-1 and -2 clients", () => {
    expect(isCompatiblePeer({ protocol: "orphus-roundtable", version: 1 })).toBe(true);
    expect(isCompatiblePeer({ protocol: "orphus-roundtable", version: 2 })).toBe(true);
    expect(isCompatiblePeer({ protocol: "orphus-roundtable", version: 3 })).toBe(true);
    expect(isCompatiblePeer({ protocol: "orphus-roundtable", version: 4 })).toBe(false);
    expect(isCompatiblePeer({ protocol: "orphus-roundtable", version: 0 })).toBe(false);
    expect(isCompatiblePeer({ protocol: "orphus-roundtable", version: 1.5 })).toBe(false);
    expect(isCompatiblePeer({ protocol: "orphus-intercom", version: 1 })).toBe(false);
  });
});

describe("parseServerFrame", () => {
  test("events and replies come back typed", () => {
    expect(parseServerFrame({ event: "post", room: "r", seq: 3, author: "critic" })).toEqual({
      event: "post",
      room: "r",
      seq: 3,
      author: "critic",
    });
    expect(parseServerFrame({ event: "disconnect", room: "r", seq: 0, role: "critic" })).toMatchObject({ seq: 0 });
    const reply = parseServerFrame({ id: 2, ok: true, op: "post", result: { room: "r", seq: 9, postedAt: 5 } });
    expect(reply).toEqual({ id: 2, ok: true, op: "post", result: { room: "r", seq: 9, postedAt: 5 } });
  });

  test("a hello result may name the broker's instance; a broker before it leaves it out", () => {
    const result = {
      protocol: "orphus-roundtable",
      version: 2,
      role: "critic",
      brokerPid: 4100,
      brokerVersion: "0.1.0",
      store: "memory",
    };
    expect(parseServerFrame({ id: 1, ok: true, op: "hello", result })).toEqual({
      id: 1,
      ok: true,
      op: "hello",
      result,
    });
    const withInstance = { ...result, brokerInstance: "9f2c41d07ab35e68" };
    expect(parseServerFrame({ id: 1, ok: true, op: "hello", result: withInstance })).toMatchObject({
      result: withInstance,
    });
    expect(() =>
      parseServerFrame({ id: 1, ok: true, op: "hello", result: { ...result, brokerInstance: "Not hex" } }),
    ).toThrow(ServerFrameInvalidError);
  });

  test("a post event never carries a seq of 0 and a member event never anything else", () => {
    expect(() => parseServerFrame({ event: "post", room: "r", seq: 0, author: "a" })).toThrow(ServerFrameInvalidError);
    expect(() => parseServerFrame({ event: "join", room: "r", seq: 4, role: "a" })).toThrow(ServerFrameInvalidError);
  });

  test("a posts event lists one to 1024 posts of one room, each with a seq above 0 and an author, never a body", () => {
    const posts = [
      { seq: 7, author: "critic" },
      { seq: 8, author: "reviewer" },
    ];
    expect(parseServerFrame({ event: "posts", room: "r", posts })).toEqual({ event: "posts", room: "r", posts });
    // A body is not part of the event: it is stripped, never passed on.
    expect(
      parseServerFrame({ event: "posts", room: "r", posts: [{ seq: 7, author: "critic", body: "secret" }] }),
    ).toEqual({ event: "posts", room: "r", posts: [{ seq: 7, author: "critic" }] });
    const many = Array.from({ length: 1025 }, (_, i) => ({ seq: i + 1, author: "a" }));
    expect(() => parseServerFrame({ event: "posts", room: "r", posts: many })).toThrow(ServerFrameInvalidError);
    expect(parseServerFrame({ event: "posts", room: "r", posts: many.slice(0, 1024) })).toMatchObject({
      event: "posts",
    });
    expect(() => parseServerFrame({ event: "posts", room: "r", posts: [] })).toThrow(ServerFrameInvalidError);
    expect(() => parseServerFrame({ event: "posts", room: "r", posts: [{ seq: 0, author: "a" }] })).toThrow(
      ServerFrameInvalidError,
    );
  });

  test("an entry's count stands for that many posts in a row; 1024 posts at most in all, counts counted", () => {
    const posts = [
      { seq: 7, author: "critic", count: 3 },
      { seq: 10, author: "reviewer" },
    ];
    expect(parseServerFrame({ event: "posts", room: "r", posts })).toEqual({ event: "posts", room: "r", posts });
    // A count is 2 or more: one post is an entry without one.
    for (const count of [0, 1, 2.5, -3, "3"]) {
      expect(() => parseServerFrame({ event: "posts", room: "r", posts: [{ seq: 7, author: "a", count }] })).toThrow(
        ServerFrameInvalidError,
      );
    }
    const full = [
      { seq: 1, author: "a", count: 1000 },
      { seq: 1001, author: "b", count: 24 },
    ];
    expect(parseServerFrame({ event: "posts", room: "r", posts: full })).toMatchObject({ event: "posts" });
    expect(() => parseServerFrame({ event: "posts", room: "r", posts: [...full, { seq: 1025, author: "a" }] })).toThrow(
      /more than 1024 posts/,
    );
    expect(() =>
      parseServerFrame({ event: "posts", room: "r", posts: [{ seq: 1, author: "a", count: 1025 }] }),
    ).toThrow(ServerFrameInvalidError);
    const last = Number.MAX_SAFE_INTEGER;
    expect(
      parseServerFrame({ event: "posts", room: "r", posts: [{ seq: last - 1, author: "a", count: 2 }] }),
    ).toMatchObject({
      event: "posts",
    });
    expect(() =>
      parseServerFrame({ event: "posts", room: "r", posts: [{ seq: last, author: "a", count: 2 }] }),
    ).toThrow(/run past the largest seq/);
  });

  test("a reset event names the store, never a room, at seq 0", () => {
    expect(parseServerFrame({ event: "reset", seq: 0, store: "redis://h:6379" })).toEqual({
      event: "reset",
      seq: 0,
      store: "redis://h:6379",
    });
    expect(() => parseServerFrame({ event: "reset", seq: 1, store: "redis://h:6379" })).toThrow(
      ServerFrameInvalidError,
    );
    expect(() => parseServerFrame({ event: "reset", seq: 0 })).toThrow(ServerFrameInvalidError);
  });

  test("junk is a typed error", () => {
    const error = (() => {
      try {
        parseServerFrame({ hello: "there" });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ServerFrameInvalidError);
    expect((error as ServerFrameInvalidError).code).toBe("ERR_SERVER_FRAME_INVALID");
    expect((error as Error).message).toBe(
      "Invalid frame from the broker: expected a reply or an event ((request): Invalid input), got an object",
    );
    expect((error as ServerFrameInvalidError).value).toEqual({ hello: "there" });
  });
});

describe("reading activity", () => {
  test("announcedPosts reads one post, a merged list, and nothing from churn", () => {
    expect(announcedPosts({ event: "post", room: "r", seq: 3, author: "critic" })).toEqual([
      { seq: 3, author: "critic" },
    ]);
    const posts = [
      { seq: 4, author: "critic" },
      { seq: 5, author: "planner" },
    ];
    expect(announcedPosts({ event: "posts", room: "r", posts })).toEqual(posts);
    expect(announcedPosts({ event: "leave", room: "r", seq: 0, role: "critic" })).toEqual([]);
  });

  test("announcedPosts reads an entry with a count as that many posts, and at most 1024 of an unchecked event", () => {
    const event = {
      event: "posts" as const,
      room: "r",
      posts: [
        { seq: 4, author: "critic", count: 3 },
        { seq: 8, author: "planner" },
      ],
    };
    expect(announcedPosts(event)).toEqual([
      { seq: 4, author: "critic" },
      { seq: 5, author: "critic" },
      { seq: 6, author: "critic" },
      { seq: 8, author: "planner" },
    ]);
    const unchecked = { event: "posts" as const, room: "r", posts: [{ seq: 1, author: "a", count: 1e9 }] };
    expect(announcedPosts(unchecked)).toHaveLength(1024);
    const posts = Array.from({ length: 5000 }, (_, i) => ({ seq: i + 1, author: "a" }));
    const many = { event: "posts" as const, room: "r", posts };
    expect(announcedPosts(many).at(-1)).toEqual({ seq: 1024, author: "a" });
  });

  test("posts events go to version-2 peers only: a version-1 client never sees one", () => {
    expect(readsPostsEvents(1)).toBe(false);
    expect(readsPostsEvents(2)).toBe(true);
  });
});

test("WireRefusalError carries the wire code, details and op", () => {
  const error = new WireRefusalError(
    { code: "ERR_NOT_MEMBER", message: 'Not a member of room "r"; join it first', details: { room: "r" } },
    "post",
  );
  expect(error).toMatchObject({
    name: "WireRefusalError",
    code: "ERR_WIRE_REFUSED",
    wireCode: "ERR_NOT_MEMBER",
    op: "post",
    details: { room: "r" },
  });
  expect(error.message).toBe('Not a member of room "r"; join it first');
});
