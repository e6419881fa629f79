// The broker on a room store that answers later (as Redis does): replies stay in request order, each request sees
// the ones before it, a connection's queue is bounded, the store's failures and resets reach clients as coded
// refusals and events their version can parse, and other brokers' activity reaches local members.
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { MemoryRoomStore, StoreUnavailableError } from "@orphus/rooms";
import { StoreOpenError, startBroker } from "@orphus/roundtable-broker";
import { HeldStore } from "./held-store.js";
import { RawPeer, capturingLogger, frame, hello, startTestBroker } from "./helpers.js";
import { tempDir } from "../../../test-support/tmp.js";
import { until } from "../../../test-support/poll.js";

const ids = (frames: readonly Record<string, unknown>[]): unknown[] =>
  frames.filter((f) => "ok" in f).map((f) => f["id"]);

describe("a store that answers later", () => {
  test("replies come in request order, and each request sees what the ones before it did", async () => {
    const store = new HeldStore();
    const broker = await startTestBroker({ store });
    const peer = new RawPeer(broker.socketPath);
    await peer.connected;
    store.hold();
    await peer.write(
      Buffer.concat([
        frame(hello(1, "planner")),
        frame({ id: 2, op: "join", room: "r" }),
        frame({ id: 3, op: "post", room: "r", body: "first" }),
        frame({ id: 4, op: "status" }),
        frame({ id: 5, op: "fetch", room: "r", afterSeq: 0 }),
        frame({ id: 6, op: "digest", room: "r" }),
        frame({ id: 7, op: "rooms" }),
      ]),
    );
    // hello is answered at once (its attach is not waited for); join waits, and everything behind it waits too.
    await peer.until((frames) => ids(frames).length === 1);
    await until(() => store.waiting === 2);
    expect(ids(peer.frames)).toEqual([1]);
    expect(store.calls).toEqual(["attach planner", "join r planner"]);
    store.release();
    await peer.until((frames) => ids(frames).length === 7);
    expect(ids(peer.frames)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const reply = (id: number): Record<string, unknown> => peer.frames.find((f) => f["id"] === id) ?? {};
    expect(reply(5)).toMatchObject({ ok: true, result: { messages: [{ seq: 1, body: "first" }] } });
    // fetch moved the cursor before digest ran, so the digest has nothing new.
    expect(reply(6)).toMatchObject({ ok: true, result: { throughSeq: 1, full: 0 } });
    expect(reply(4)).toMatchObject({ ok: true, result: { store: "held://test", storeAvailable: true } });
  });

  test("a connection pipelining past maxQueuedRequests is served whole and in order", async () => {
    const store = new HeldStore();
    const broker = await startTestBroker({ store, maxQueuedRequests: 4 });
    const peer = await RawPeer.hello(broker.socketPath, "planner");
    await peer.request({ id: 2, op: "join", room: "r" });
    store.hold();
    for (let i = 0; i < 40; i++) {
      await peer.write(
        Buffer.concat(
          Array.from({ length: 5 }, (_, j) => frame({ id: 100 + i * 5 + j, op: "post", room: "r", body: "x" })),
        ),
      );
    }
    await until(() => store.waiting === 1);
    store.release();
    await peer.until((frames) => ids(frames).length === 202);
    const posts = peer.frames.filter((f) => typeof f["id"] === "number" && (f["id"] as number) >= 100);
    expect(posts.map((f) => f["id"])).toEqual(Array.from({ length: 200 }, (_, i) => 100 + i));
    expect(posts.map((f) => (f["result"] as { seq: number }).seq)).toEqual(
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
  });

  test("requests still queued when the connection closes are dropped unserved", async () => {
    const store = new HeldStore();
    const broker = await startTestBroker({ store });
    const keeper = await RawPeer.hello(broker.socketPath, "planner");
    await keeper.request({ id: 2, op: "join", room: "r" });
    const peer = await RawPeer.hello(broker.socketPath, "planner");
    store.hold();
    await peer.write(
      Buffer.concat(
        [1, 2, 3].map((n) => frame({ id: 10 + n, op: "post", room: "r", body: `m${n}`, idempotencyKey: `k${n}` })),
      ),
    );
    await until(() => store.waiting === 1);
    peer.socket.destroy();
    await until(() => broker.stats().connections === 1);
    store.release();
    await until(() => store.waiting === 0);
    expect(store.calls.filter((call) => call.startsWith("post"))).toEqual(["post r planner"]);
    const page = await keeper.request({ id: 3, op: "fetch", room: "r", afterSeq: 0 });
    expect((page["result"] as { messages: { body: string }[] }).messages.map((m) => m.body)).toEqual(["m1"]);
  });
});

/** A broker on a held store, with a version-2 peer (planner) and a version-1 peer (critic), both members of "r". */
async function currentAndOld(): Promise<{ store: HeldStore; current: RawPeer; old: RawPeer }> {
  const store = new HeldStore();
  const broker = await startTestBroker({ store });
  const current = await RawPeer.hello(broker.socketPath, "planner");
  const old = new RawPeer(broker.socketPath);
  expect(await old.request(hello(1, "critic", 1))).toMatchObject({ ok: true });
  for (const peer of [current, old]) await peer.request({ id: 2, op: "join", room: "r" });
  return { store, current, old };
}

describe("store failures on the wire", () => {
  test("an unavailable store is ERR_STORE_UNAVAILABLE, or ERR_INTERNAL for a client older than the code", async () => {
    const { store, current, old } = await currentAndOld();
    store.fail();
    const message =
      'Room store held://test unavailable during post (timeout 2000 ms): "held store failing"; the post may or may ' +
      "not have been stored: retry it with its idempotency key";
    expect(await current.request({ id: 3, op: "post", room: "r", body: "x", idempotencyKey: "k" })).toEqual({
      id: 3,
      ok: false,
      op: "post",
      error: { code: "ERR_STORE_UNAVAILABLE", message, details: { store: "held://test", timeoutMs: 2000 } },
    });
    expect(await old.request({ id: 3, op: "post", room: "r", body: "x" })).toEqual({
      id: 3,
      ok: false,
      op: "post",
      error: { code: "ERR_INTERNAL", message, details: { store: "held://test", timeoutMs: 2000 } },
    });
    store.heal();
    expect(await current.request({ id: 4, op: "post", room: "r", body: "x", idempotencyKey: "k" })).toMatchObject({
      ok: true,
      result: { seq: 1 },
    });
    expect(await old.request({ id: 4, op: "status" })).toMatchObject({ ok: true });
  });

  test("a reset reaches every connection whose version knows the event, and no older one", async () => {
    const store = new HeldStore();
    const logger = capturingLogger();
    const broker = await startTestBroker({ store, logger });
    const current = await RawPeer.hello(broker.socketPath, "planner");
    const second = await RawPeer.hello(broker.socketPath, "critic");
    const old = new RawPeer(broker.socketPath);
    expect(await old.request(hello(1, "old", 1))).toMatchObject({ ok: true });
    store.emit({ type: "reset", epoch: "e2", rooms: [{ room: "r", continuesAfter: 7 }] });
    const reset = { event: "reset", seq: 0, store: "held://test" };
    await current.until(() => current.events().length === 1);
    await second.until(() => second.events().length === 1);
    expect(current.events()).toEqual([reset]);
    expect(second.events()).toEqual([reset]);
    expect(await old.request({ id: 2, op: "status" })).toMatchObject({ ok: true });
    expect(old.events()).toEqual([]);
    expect(logger.lines).toContain("error the room store lost its data: every membership and read position is gone");
  });

  test("after a reset, a connection's next request naming a room is refused with it, nothing done; status and rooms are not", async () => {
    const { store, current: idle, old } = await currentAndOld();
    store.emit({ type: "reset", epoch: "e2", rooms: [{ room: "r", continuesAfter: 7 }] });
    const calls = store.calls.length;
    const message =
      "Room store held://test lost its data; rooms continue past their last sequence numbers, but their history, " +
      "members and read positions are gone. Nothing was done: join the room again, then repeat the request";
    // status and rooms name no room: served as usual, and the notice is still owed.
    for (const peer of [idle, old]) {
      expect(await peer.request({ id: 3, op: "status" })).toMatchObject({ ok: true });
      expect(await peer.request({ id: 4, op: "rooms" })).toMatchObject({ ok: true });
    }
    // A version-2 connection that never read the event learns it from its next room request.
    expect(await idle.request({ id: 5, op: "post", room: "r", body: "lost?" })).toEqual({
      id: 5,
      ok: false,
      op: "post",
      error: { code: "ERR_STORE_RESET", message, details: { store: "held://test" } },
    });
    // A version-1 connection cannot parse that code: it gets the one that makes it join again, with the same words.
    expect(await old.request({ id: 5, op: "fetch", room: "r" })).toEqual({
      id: 5,
      ok: false,
      op: "fetch",
      error: { code: "ERR_NOT_MEMBER", message, details: { room: "r" } },
    });
    expect(store.calls.slice(calls)).toEqual(["list planner", "list critic"]);
    // Told once: each joins again and is served.
    for (const peer of [idle, old]) {
      expect(await peer.request({ id: 6, op: "join", room: "r" })).toMatchObject({ ok: true });
      expect(await peer.request({ id: 7, op: "post", room: "r", body: "after" })).toMatchObject({ ok: true });
    }
  });

  test("a connection whose own request met the reset has been told; the others still owe the notice", async () => {
    const store = new HeldStore();
    const broker = await startTestBroker({ store });
    const met = await RawPeer.hello(broker.socketPath, "planner");
    const other = await RawPeer.hello(broker.socketPath, "critic");
    for (const peer of [met, other]) await peer.request({ id: 2, op: "join", room: "r" });
    store.resetOnNextCall();
    expect(await met.request({ id: 3, op: "digest", room: "r" })).toMatchObject({
      ok: false,
      error: { code: "ERR_STORE_RESET", message: expect.stringContaining("join the room again") as unknown },
    });
    expect(await met.request({ id: 4, op: "post", room: "r", body: "x" })).toMatchObject({ ok: true });
    expect(await other.request({ id: 3, op: "members", room: "r" })).toMatchObject({
      ok: false,
      error: { code: "ERR_STORE_RESET" },
    });
    expect(await other.request({ id: 4, op: "members", room: "r" })).toMatchObject({ ok: true });
    await other.until(() => other.events().length >= 1);
    expect(other.events()).toContainEqual({ event: "reset", seq: 0, store: "held://test" });
  });

  test("posts another broker announces in one turn merge into one posts event for a version-2 peer, not a version-1 one", async () => {
    const store = new HeldStore();
    const broker = await startTestBroker({ store });
    const current = await RawPeer.hello(broker.socketPath, "planner");
    const old = new RawPeer(broker.socketPath);
    expect(await old.request(hello(1, "old", 1))).toMatchObject({ ok: true });
    const recipients = ["planner", "old"];
    const activity = (seq: number, role = "critic") =>
      ({ type: "activity", kind: "post", room: "r", seq, role, recipients }) as const;
    // One turn: three posts (two in a row by one author), the store's reset (which ends the run), and one more post.
    store.emit(activity(1));
    store.emit(activity(2));
    store.emit(activity(3, "reviewer"));
    store.emit({ type: "reset", epoch: "e2", rooms: [{ room: "r", continuesAfter: 3 }] });
    store.emit(activity(4));
    await current.until(() => current.events().length === 3);
    expect(current.events()).toEqual([
      {
        event: "posts",
        room: "r",
        posts: [
          { seq: 1, author: "critic", count: 2 },
          { seq: 3, author: "reviewer" },
        ],
      },
      { event: "reset", seq: 0, store: "held://test" },
      { event: "post", room: "r", seq: 4, author: "critic" },
    ]);
    await old.until(() => old.events().length === 4);
    expect(old.events()).toEqual(
      [1, 2, 3, 4].map((seq) => ({ event: "post", room: "r", seq, author: seq === 3 ? "reviewer" : "critic" })),
    );
  });

  test("status says while the store is unavailable, and the log says when it comes and goes", async () => {
    const store = new HeldStore();
    const logger = capturingLogger();
    const broker = await startTestBroker({ store, logger });
    const peer = await RawPeer.hello(broker.socketPath, "planner");
    store.emit({ type: "unavailable", error: new StoreUnavailableError("held://test", "post", 2000, "gone") });
    expect(await peer.request({ id: 2, op: "status" })).toMatchObject({ result: { storeAvailable: false } });
    store.emit({ type: "available" });
    expect(await peer.request({ id: 3, op: "status" })).toMatchObject({ result: { storeAvailable: true } });
    expect(logger.lines).toEqual(
      expect.arrayContaining([
        "error the room store is unavailable; requests fail with ERR_STORE_UNAVAILABLE until it answers",
        "info the room store answers again",
      ]),
    );
  });
});

describe("a closed store", () => {
  test("a store closed under the broker refuses every request as the broker shutting down", async () => {
    const store = new MemoryRoomStore();
    const broker = await startTestBroker({ store });
    const peer = await RawPeer.hello(broker.socketPath, "planner");
    await peer.request({ id: 2, op: "join", room: "r" });
    await store.close();
    expect(await peer.request({ id: 3, op: "post", room: "r", body: "late" })).toEqual({
      id: 3,
      ok: false,
      op: "post",
      error: { code: "ERR_SHUTTING_DOWN", message: "The broker is shutting down; reconnect and a new broker starts" },
    });
    expect(await peer.request({ id: 4, op: "status" })).toMatchObject({ ok: true });
  });
});

describe("two brokers on one store", () => {
  test("members on both hear each other: posts, joins and disconnects cross over", async () => {
    const store = new MemoryRoomStore();
    const east = await startTestBroker({ store });
    const west = await startTestBroker({ store: store.peer() });
    const planner = await RawPeer.hello(east.socketPath, "planner");
    const critic = await RawPeer.hello(west.socketPath, "critic");
    await planner.request({ id: 2, op: "join", room: "r" });
    expect(await critic.request({ id: 2, op: "join", room: "r" })).toMatchObject({
      result: { created: false, members: ["critic", "planner"] },
    });
    await planner.until(() => planner.events().length === 1);
    expect(await critic.request({ id: 3, op: "post", room: "r", body: "from the west" })).toMatchObject({
      result: { seq: 1 },
    });
    expect(await planner.request({ id: 3, op: "post", room: "r", body: "from the east" })).toMatchObject({
      result: { seq: 2 },
    });
    await planner.until(() => planner.events().length === 2);
    await critic.until(() => critic.events().length === 1);
    expect(planner.events()).toEqual([
      { event: "join", room: "r", seq: 0, role: "critic" },
      { event: "post", room: "r", seq: 1, author: "critic" },
    ]);
    expect(critic.events()).toEqual([{ event: "post", room: "r", seq: 2, author: "planner" }]);
    critic.socket.destroy();
    await planner.until(() => planner.events().length === 3);
    expect(planner.events()[2]).toEqual({ event: "disconnect", room: "r", seq: 0, role: "critic" });
  });
});

describe("opening the store", () => {
  test("a broker configured for a Redis it cannot reach refuses to start, names it masked, and claims nothing", async () => {
    const port = await closedPort();
    const agentDir = tempDir();
    const error = await startBroker({
      agentDir,
      registryDir: false,
      store: `redis://orphus:hunter2@127.0.0.1:${port}/0`,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreOpenError);
    expect(error).toMatchObject({
      code: "ERR_BROKER_STORE_OPEN_FAILED",
      storeCode: "ERR_STORE_UNAVAILABLE",
      store: `redis://orphus:***@127.0.0.1:${port}/0`,
    });
    expect((error as Error).message).toContain("does not fall back to memory");
    expect((error as Error).message).not.toContain("hunter2");
    expect(existsSync(join(agentDir, "roundtable", "broker.sock"))).toBe(false);
  });

  test("store options are checked before any I/O, URLs quoted masked", async () => {
    const agentDir = tempDir();
    await expect(startBroker({ agentDir, store: "mongodb://orphus:hunter2@db/0" })).rejects.toMatchObject({
      code: "ERR_BROKER_INVALID_OPTION",
      message: expect.stringContaining("***") as unknown,
    });
    await expect(startBroker({ agentDir, store: "not a url hunter2" })).rejects.toThrow(/\*\*\* \(17 characters\)/);
    await expect(startBroker({ agentDir, store: new MemoryRoomStore(), maxRooms: 3 })).rejects.toMatchObject({
      code: "ERR_BROKER_INVALID_OPTION",
      message: expect.stringContaining("maxRooms") as unknown,
    });
    expect(existsSync(join(agentDir, "roundtable"))).toBe(false);
  });
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  return await new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 1));
    });
  });
}
