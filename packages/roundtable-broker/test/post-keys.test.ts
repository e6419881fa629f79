// Idempotent posts: a post carrying a key the room remembers is answered with the original seq and stores nothing.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { Room } from "@orphus/rooms";
import { PostKeys } from "../src/post-keys.js";
import { RawPeer, eventually, startTestBroker } from "./helpers.js";

describe("idempotency keys on the wire", () => {
  test("a repeated key gets the original seq and postedAt, repeated: true, and no second message or ping", async () => {
    let now = 1_000;
    const broker = await startTestBroker({ clock: () => now });
    const author = await RawPeer.hello(broker.socketPath, "planner");
    const reader = await RawPeer.hello(broker.socketPath, "critic");
    await author.request({ id: 2, op: "join", room: "r" });
    await reader.request({ id: 2, op: "join", room: "r" });
    const post = { op: "post", room: "r", body: "ship it", headline: "ship", idempotencyKey: "k-1" };
    expect(await author.request({ id: 3, ...post })).toEqual({
      id: 3,
      ok: true,
      op: "post",
      result: { room: "r", seq: 1, postedAt: 1_000 },
    });
    now = 2_000;
    expect(await author.request({ id: 4, ...post })).toEqual({
      id: 4,
      ok: true,
      op: "post",
      result: { room: "r", seq: 1, postedAt: 1_000, repeated: true },
    });
    const fetched = await reader.request({ id: 3, op: "fetch", room: "r", afterSeq: 0 });
    expect((fetched["result"] as { messages: unknown[] }).messages).toHaveLength(1);
    await eventually(() => reader.events().filter((e) => e["event"] === "post").length === 1);
    expect(reader.events().filter((e) => e["event"] === "post")).toHaveLength(1);
    // Without a key, the same text is a new post.
    const again = await author.request({ id: 5, op: "post", room: "r", body: "ship it" });
    expect(again).toMatchObject({ result: { seq: 2 } });
  });

  test("a retry over a new connection finds its post though membership ended with the old one", async () => {
    const broker = await startTestBroker();
    const first = await RawPeer.hello(broker.socketPath, "planner");
    await first.request({ id: 2, op: "join", room: "r" });
    await first.request({ id: 3, op: "post", room: "r", body: "hello", idempotencyKey: "retry-me" });
    first.socket.destroy();
    await eventually(() => broker.stats().connections === 0);
    const second = await RawPeer.hello(broker.socketPath, "planner");
    expect(await second.request({ id: 2, op: "post", room: "r", body: "hello", idempotencyKey: "retry-me" })).toMatchObject({
      ok: true,
      result: { seq: 1, repeated: true },
    });
    // A new post is still refused loudly: the role must join again.
    expect(await second.request({ id: 3, op: "post", room: "r", body: "new", idempotencyKey: "fresh" })).toMatchObject({
      ok: false,
      error: { code: "ERR_NOT_MEMBER" },
    });
  });

  test("a key reused by another role, or for other text, is refused and stores nothing", async () => {
    const broker = await startTestBroker();
    const planner = await RawPeer.hello(broker.socketPath, "planner");
    const critic = await RawPeer.hello(broker.socketPath, "critic");
    await planner.request({ id: 2, op: "join", room: "r" });
    await critic.request({ id: 2, op: "join", room: "r" });
    await planner.request({ id: 3, op: "post", room: "r", body: "one", idempotencyKey: "k" });
    const refusal = {
      ok: false,
      op: "post",
      error: {
        code: "ERR_IDEMPOTENCY_KEY_REUSED",
        message:
          'Room "r" already holds idempotency key "k" for another post (#1); give every new post a fresh key, and ' +
          "repeat a key only to retry the same post",
        details: { room: "r", idempotencyKey: "k", seq: 1 },
      },
    };
    expect(await critic.request({ id: 3, op: "post", room: "r", body: "one", idempotencyKey: "k" })).toEqual({
      id: 3,
      ...refusal,
    });
    expect(await planner.request({ id: 4, op: "post", room: "r", body: "two", idempotencyKey: "k" })).toEqual({
      id: 4,
      ...refusal,
    });
    expect(await planner.request({ id: 5, op: "post", room: "r", body: "one", headline: "h", idempotencyKey: "k" })).toEqual(
      { id: 5, ...refusal }
    );
    expect(await planner.request({ id: 6, op: "status" })).toMatchObject({ ok: true });
    const fetched = await planner.request({ id: 7, op: "fetch", room: "r", afterSeq: 0 });
    expect((fetched["result"] as { newestSeq: number }).newestSeq).toBe(1);
  });

  test("the window is bounded: past postKeyWindow keyed posts, the oldest key is forgotten", async () => {
    const broker = await startTestBroker({ postKeyWindow: 2 });
    const peer = await RawPeer.hello(broker.socketPath, "planner");
    await peer.request({ id: 2, op: "join", room: "r" });
    for (const [id, key] of [[3, "a"], [4, "b"], [5, "c"]] as const) {
      await peer.request({ id, op: "post", room: "r", body: key, idempotencyKey: key });
    }
    expect(await peer.request({ id: 6, op: "post", room: "r", body: "c", idempotencyKey: "c" })).toMatchObject({
      result: { seq: 3, repeated: true },
    });
    // "a" fell out of the window of 2: its repeat is a new post (the documented bound).
    expect(await peer.request({ id: 7, op: "post", room: "r", body: "a", idempotencyKey: "a" })).toMatchObject({
      result: { seq: 4 },
    });
  });
});

describe("PostKeys against a naive model", () => {
  test("property: a repeat within the window answers with the original, a reuse is refused, the rest is stored", () => {
    const op = fc.record({
      role: fc.constantFrom("a", "b"),
      key: fc.option(fc.constantFrom("k1", "k2", "k3", "k4", "k5"), { nil: undefined }),
      body: fc.constantFrom("x", "y"),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 4 }), (ops, capacity, window) => {
        const room = new Room("r", { capacity, clock: () => 0 });
        room.join("a", 1);
        room.join("b", 2);
        const keys = new PostKeys(window);
        // The model: every keyed post in order; a key is remembered while it is among the last `window` keyed ones.
        const keyed: { key: string; role: string; body: string; seq: number }[] = [];
        let seq = 0;
        for (const { role, key, body } of ops) {
          const request = { id: 1, op: "post" as const, room: "r", body, ...(key === undefined ? {} : { idempotencyKey: key }) };
          const remembered = key === undefined || window === 0 ? undefined : keyed.slice(-window).find((k) => k.key === key);
          if (remembered === undefined) {
            expect(keys.repeatOf(room, role, request)).toBeUndefined();
            const message = room.post(role, body);
            keys.remember("r", key, message);
            seq++;
            expect(message.seq).toBe(seq);
            if (key !== undefined) keyed.push({ key, role, body, seq });
            continue;
          }
          const retained = remembered.seq > seq - capacity;
          const same = remembered.role === role && (!retained || remembered.body === body);
          if (same) {
            expect(keys.repeatOf(room, role, request)).toEqual({ room: "r", seq: remembered.seq, postedAt: 0, repeated: true });
          } else {
            expect(() => keys.repeatOf(room, role, request)).toThrow(/already holds idempotency key/);
          }
        }
        expect(keys.size("r")).toBe(Math.min(window, keyed.length));
      })
    );
  });
});
