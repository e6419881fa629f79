// Idempotent posts: a post carrying a key the room remembers is answered with the original seq and stores nothing.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { RawPeer, startTestBroker } from "./helpers.js";
import { until } from "../../../test-support/poll.js";

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
    await until(() => reader.events().filter((e) => e["event"] === "post").length === 1);
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
    await until(() => broker.stats().connections === 0);
    const second = await RawPeer.hello(broker.socketPath, "planner");
    expect(
      await second.request({ id: 2, op: "post", room: "r", body: "hello", idempotencyKey: "retry-me" }),
    ).toMatchObject({
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
    expect(
      await planner.request({ id: 5, op: "post", room: "r", body: "one", headline: "h", idempotencyKey: "k" }),
    ).toEqual({ id: 5, ...refusal });
    expect(await planner.request({ id: 6, op: "status" })).toMatchObject({ ok: true });
    const fetched = await planner.request({ id: 7, op: "fetch", room: "r", afterSeq: 0 });
    expect((fetched["result"] as { newestSeq: number }).newestSeq).toBe(1);
  });

  test("the window is bounded: past postKeyWindow keyed posts, the oldest key is forgotten", async () => {
    const broker = await startTestBroker({ postKeyWindow: 2 });
    const peer = await RawPeer.hello(broker.socketPath, "planner");
    await peer.request({ id: 2, op: "join", room: "r" });
    for (const [id, key] of [
      [3, "a"],
      [4, "b"],
      [5, "c"],
    ] as const) {
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

describe("post keys against a naive model, over the wire", () => {
  test("property: a repeat within the window answers with the original, a reuse is refused, the rest is stored", async () => {
    // One broker for every run, a fresh room per run: its window and ring are small, so runs reach both bounds.
    const capacity = 3;
    const window = 2;
    const broker = await startTestBroker({ roomCapacity: capacity, postKeyWindow: window, maxRooms: 1000 });
    const peers = { a: await RawPeer.hello(broker.socketPath, "a"), b: await RawPeer.hello(broker.socketPath, "b") };
    const op = fc.record({
      role: fc.constantFrom("a" as const, "b" as const),
      key: fc.option(fc.constantFrom("k1", "k2", "k3", "k4", "k5"), { nil: undefined }),
      body: fc.constantFrom("x", "y"),
    });
    let run = 0;
    let id = 100;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        const room = `keys-${++run}`;
        await peers.a.request({ id: ++id, op: "join", room });
        await peers.b.request({ id: ++id, op: "join", room });
        // The model: every keyed post in order; a key is remembered while it is among the last `window` keyed ones.
        const keyed: { key: string; role: string; body: string; seq: number }[] = [];
        let seq = 0;
        for (const { role, key, body } of ops) {
          const request = { id: ++id, op: "post", room, body, ...(key === undefined ? {} : { idempotencyKey: key }) };
          const reply = await peers[role].request(request);
          const remembered = key === undefined ? undefined : keyed.slice(-window).find((k) => k.key === key);
          if (remembered === undefined) {
            seq++;
            expect(reply).toMatchObject({ ok: true, result: { seq } });
            if (key !== undefined) keyed.push({ key, role, body, seq });
            continue;
          }
          const retained = remembered.seq > seq - capacity;
          const same = remembered.role === role && (!retained || remembered.body === body);
          expect(reply).toMatchObject(
            same
              ? { ok: true, result: { seq: remembered.seq, repeated: true } }
              : { ok: false, error: { code: "ERR_IDEMPOTENCY_KEY_REUSED", details: { seq: remembered.seq } } },
          );
        }
      }),
      { numRuns: 60 },
    );
  });
});
