// A watch against a scripted version-3 broker over a real socket: how each wire event reaches a listener, the events
// heard before the first listener (and their bound), and an abort while the watch is still starting.
import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { attachFrameDecoder, encodeFrame } from "@orphus/framing";
import { watchBroker, type BrokerWatch, type WatchEvent } from "@orphus/roundtable-client";
import { until } from "../../../test-support/poll.js";
import { shortTempDir } from "../../../test-support/tmp.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** What the scripted broker answers a hello with. */
const HELLO_RESULT = {
  protocol: "orphus-roundtable",
  version: 3,
  role: "viewer",
  brokerPid: 4100,
  brokerVersion: "0.1.0",
  store: "memory",
  brokerInstance: "9f2c41d07ab35e68",
};

interface ScriptedBroker {
  readonly socketPath: string;
  /** Every connection the broker accepted, with the ops it was asked and whether it has closed. */
  readonly connections: { socket: Socket; ops: string[]; closed: boolean }[];
}

/**
 * A broker that answers hello and watch as a version-3 broker does, and sends `afterSnapshot` right behind the
 * snapshot, in the same write; a peek's empty reply follows whatever was sent before it. With `silent` it answers
 * nothing.
 */
async function scriptedBroker(
  afterSnapshot: object[] = [],
  silent = false,
  replies: { hello?: object; watch?: object; peek?: object } = {},
): Promise<ScriptedBroker> {
  const dir = shortTempDir("rtwe-");
  const socketPath = join(dir.dir, "broker.sock");
  const connections: ScriptedBroker["connections"] = [];
  const server = createServer((socket) => {
    const seen = { socket, ops: [] as string[], closed: false };
    connections.push(seen);
    socket.on("close", () => (seen.closed = true));
    socket.on("error", () => undefined);
    attachFrameDecoder(socket, {
      onFrame: (value) => {
        const { id, op } = value as { id: number; op: string };
        seen.ops.push(op);
        if (silent) return;
        if (op === "hello" && replies.hello !== undefined) {
          socket.write(encodeFrame({ id, op, ...replies.hello }));
        } else if (op === "hello") {
          socket.write(encodeFrame({ id, ok: true, op, result: HELLO_RESULT }));
        } else if (op === "watch" && replies.watch !== undefined) {
          socket.write(encodeFrame({ id, ...replies.watch }));
        } else if (op === "watch") {
          const result = {
            broker: { pid: 4100, instance: "9f2c41d07ab35e68", store: "memory", protocol: 3, startedAt: 1796000000000 },
            rooms: [],
          };
          const frames = [{ id, ok: true, op, result }, ...afterSnapshot.map((e) => ({ event: "watch", ...e }))];
          socket.write(Buffer.concat(frames.map((frame) => encodeFrame(frame))));
        } else if (op === "peek") {
          // Answered behind every event sent before it: a client whose peek resolved has heard them all.
          const result = replies.peek ?? { room: "none", messages: [], newestSeq: 0, more: false };
          socket.write(encodeFrame({ id, ok: true, op, result }));
        }
      },
      onError: () => socket.destroy(),
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  cleanups.push(async () => {
    for (const { socket } of connections) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
    dir.remove();
  });
  return { socketPath, connections };
}

test("every kind of wire event, heard before the first listener, reaches it converted and in order", async () => {
  const broker = await scriptedBroker([
    { kind: "post", room: "design", seq: 43, author: "critic", postedAt: 1796000005000, headline: "a nit", chars: 120 },
    { kind: "members", room: "design", members: [{ role: "critic", unread: 2 }] },
    {
      kind: "served",
      room: "design",
      role: "planner",
      digestChars: 353,
      fetchChars: 7,
      pingChars: 2296,
      at: 1796000006000,
    },
    { kind: "room", room: "design", lastSeq: 43, held: { messages: 43, chars: 2430 } },
    { kind: "gap", dropped: 517 },
    { kind: "reset", room: "design" },
    { kind: "reset" },
  ]);
  const watch = await watchBroker({ socketPath: broker.socketPath });
  cleanups.push(() => watch.close());
  await watch.peek("none");
  expect(watch.snapshot).toEqual({
    broker: {
      pid: 4100,
      instance: "9f2c41d07ab35e68",
      store: "memory",
      protocol: 3,
      startedAt: "2026-11-30T00:53:20.000Z",
    },
    rooms: [],
  });
  const events: WatchEvent[] = [];
  // A listener that throws keeps nothing from the others.
  watch.onEvent(() => {
    throw new Error("a listener's own failure");
  });
  watch.onEvent((event) => events.push(event));
  await until(() => events.length === 7);
  expect(events).toEqual([
    {
      kind: "post",
      room: "design",
      seq: 43,
      author: "critic",
      at: "2026-11-30T00:53:25.000Z",
      headline: "a nit",
      chars: 120,
    },
    { kind: "members", room: "design", members: [{ role: "critic", unread: 2 }] },
    {
      kind: "served",
      room: "design",
      at: "2026-11-30T00:53:26.000Z",
      role: "planner",
      digestChars: 353,
      fetchChars: 7,
      pingChars: 2296,
    },
    { kind: "room", room: "design", held: { messages: 43, chars: 2430 }, lastSeq: 43 },
    { kind: "gap", dropped: 517 },
    { kind: "reset", room: "design" },
    { kind: "reset" },
  ]);
  expect(Object.keys(events[6] ?? {})).toEqual(["kind"]);
});

/** A watch of a broker that sends `sent` behind the snapshot, and what its first listener heard once all arrived. */
async function heardEarly(sent: object[]): Promise<{ watch: BrokerWatch; events: WatchEvent[] }> {
  const broker = await scriptedBroker(sent);
  const watch = await watchBroker({ socketPath: broker.socketPath });
  cleanups.push(() => watch.close());
  // The peek's reply comes behind every event: all have arrived, still before any listener.
  expect(await watch.peek("none")).toEqual({ room: "none", messages: [], more: false });
  const events: WatchEvent[] = [];
  watch.onEvent((event) => events.push(event));
  await until(() => events.length > 0);
  return { watch, events };
}

test("past 1024 early events the newest are replaced by one gap that counts them", async () => {
  const posts = Array.from({ length: 1030 }, (_, i) => ({
    kind: "room",
    room: "busy",
    lastSeq: i + 1,
    held: { messages: i + 1, chars: 10 * (i + 1) },
  }));
  const { events } = await heardEarly(posts);
  // 1023 kept as they came; #1024 to #1030 (7 events) are one gap.
  expect(events.length).toBe(1024);
  expect(events[0]).toEqual({ kind: "room", room: "busy", held: { messages: 1, chars: 10 }, lastSeq: 1 });
  expect(events[1022]).toEqual({ kind: "room", room: "busy", held: { messages: 1023, chars: 10230 }, lastSeq: 1023 });
  expect(events[1023]).toEqual({ kind: "gap", dropped: 7 });
});

test("one event past the bound makes a gap of the two events it replaces", async () => {
  const events1025 = Array.from({ length: 1025 }, (_, i) => ({ kind: "reset", room: `r${i + 1}` }));
  const { watch, events } = await heardEarly(events1025);
  expect(events.slice(-2)).toEqual([
    { kind: "reset", room: "r1023" },
    { kind: "gap", dropped: 2 },
  ]);
  // A later listener hears only what comes after it: the early events went to the first.
  const later: WatchEvent[] = [];
  const stop = watch.onEvent((event) => later.push(event));
  stop();
  expect(later).toEqual([]);
});

test("a gap from the broker past the bound adds its own count to the gap that replaces it", async () => {
  const resets = Array.from({ length: 1024 }, (_, i) => ({ kind: "reset", room: `r${i + 1}` }));
  const { events } = await heardEarly([...resets, { kind: "gap", dropped: 40 }, { kind: "gap", dropped: 5 }]);
  // The 1024th event and the broker's 40 and 5 dropped ones: 46.
  expect(events.length).toBe(1024);
  expect(events.slice(-2)).toEqual([
    { kind: "reset", room: "r1023" },
    { kind: "gap", dropped: 46 },
  ]);
});

test("an abort while the socket is opening rejects with its reason and closes the late socket", async () => {
  const broker = await scriptedBroker();
  const stop = new AbortController();
  const starting = watchBroker({ socketPath: broker.socketPath, signal: stop.signal });
  stop.abort(new Error("stopped while opening"));
  await expect(starting).rejects.toThrow("stopped while opening");
  await until(() => broker.connections.length === 1 && broker.connections[0]?.closed === true);
  expect(broker.connections[0]?.ops).toEqual([]);
});

test("an abort while the broker has not answered hello rejects with its reason and closes the connection", async () => {
  const broker = await scriptedBroker([], true);
  const stop = new AbortController();
  const starting = watchBroker({ socketPath: broker.socketPath, signal: stop.signal });
  await until(() => broker.connections[0]?.ops.length === 1);
  stop.abort(new Error("stopped during hello"));
  await expect(starting).rejects.toThrow("stopped during hello");
  await until(() => broker.connections[0]?.closed === true);
  expect(broker.connections[0]?.ops).toEqual(["hello"]);
});

test("a signal that never aborts: a failed open still rejects by code; a later abort ends the watch quietly", async () => {
  const dir = shortTempDir("rtwe-");
  cleanups.push(() => dir.remove());
  const stop = new AbortController();
  await expect(watchBroker({ socketPath: join(dir.dir, "none.sock"), signal: stop.signal })).rejects.toMatchObject({
    code: "ERR_BROKER_NOT_RUNNING",
  });
  const broker = await scriptedBroker();
  const watch = await watchBroker({ socketPath: broker.socketPath, signal: stop.signal });
  const ended: unknown[] = [];
  watch.onClose(() => {
    throw new Error("a close listener's own failure");
  });
  watch.onClose((error) => ended.push(error));
  const removed: unknown[] = [];
  const unsubscribe = watch.onClose((error) => removed.push(error));
  unsubscribe();
  stop.abort(new Error("done"));
  await until(() => ended.length === 1);
  expect(ended).toEqual([undefined]);
  expect(removed).toEqual([]);
  await expect(watch.resnapshot()).rejects.toMatchObject({ code: "ERR_CLIENT_CLOSED" });
  watch.close();
  expect(ended).toEqual([undefined]);
});

test("a label that is no string is refused before anything is opened", async () => {
  await expect(watchBroker({ label: 7 as unknown as string })).rejects.toMatchObject({
    code: "ERR_CLIENT_INVALID_OPTION",
  });
});

test("a peek page: headlines and the evicted range are converted; the options go to the broker as given", async () => {
  const broker = await scriptedBroker([], false, {
    peek: {
      room: "design",
      messages: [
        { seq: 7, author: "critic", body: "One nit.\nOn cursors.", headline: "One nit.", postedAt: 1796000005000 },
        { seq: 8, author: "planner", body: "ok", postedAt: 1796000006000 },
      ],
      newestSeq: 8,
      more: true,
      evicted: { count: 6, fromSeq: 1, toSeq: 6 },
    },
  });
  const watch = await watchBroker({ socketPath: broker.socketPath, startTimeoutMs: 5000, requestTimeoutMs: 5000 });
  cleanups.push(() => watch.close());
  expect(await watch.peek("design", { afterSeq: 0, limit: 2 })).toEqual({
    room: "design",
    messages: [
      { seq: 7, author: "critic", at: "2026-11-30T00:53:25.000Z", text: "One nit.\nOn cursors.", headline: "One nit." },
      { seq: 8, author: "planner", at: "2026-11-30T00:53:26.000Z", text: "ok" },
    ],
    more: true,
    evicted: { from: 1, to: 6 },
  });
});

test("a full broker's refusal of the hello is a BrokerFullError, with or without its details", async () => {
  const full = { ok: false, error: { code: "ERR_TOO_MANY_CONNECTIONS", message: "Too many connections" } };
  const bare = await scriptedBroker([], false, { hello: full });
  await expect(watchBroker({ socketPath: bare.socketPath })).rejects.toMatchObject({
    code: "ERR_BROKER_FULL",
    maxConnections: undefined,
    brokerPid: undefined,
  });
  const detailed = await scriptedBroker([], false, {
    hello: { ...full, error: { ...full.error, details: { maxConnections: 64, brokerPid: 4100 } } },
  });
  await expect(watchBroker({ socketPath: detailed.socketPath })).rejects.toMatchObject({
    code: "ERR_BROKER_FULL",
    maxConnections: 64,
    brokerPid: 4100,
  });
  await until(() => detailed.connections[0]?.closed === true);
});

test("a requestTimeoutMs out of range is refused by name, and the socket opened for it is closed", async () => {
  const broker = await scriptedBroker();
  await expect(watchBroker({ socketPath: broker.socketPath, requestTimeoutMs: 0 })).rejects.toMatchObject({
    code: "ERR_CLIENT_INVALID_OPTION",
  });
  await until(() => broker.connections.length === 0 || broker.connections[0]?.closed === true);
});

test("a reply to the watch request that names another op fails the start as an invalid frame", async () => {
  const broker = await scriptedBroker([], false, { watch: { ok: true, op: "hello", result: HELLO_RESULT } });
  await expect(watchBroker({ socketPath: broker.socketPath })).rejects.toMatchObject({
    code: "ERR_SERVER_FRAME_INVALID",
  });
  await until(() => broker.connections[0]?.closed === true);
});

test("a peek too large to send is refused by code before it is sent; the watch goes on", async () => {
  const broker = await scriptedBroker();
  const watch = await watchBroker({ socketPath: broker.socketPath });
  cleanups.push(() => watch.close());
  // Over the 16 MiB a frame may hold.
  await expect(watch.peek("r".repeat(17 * 1024 * 1024))).rejects.toMatchObject({ code: "ERR_FRAME_TOO_LARGE" });
  expect(broker.connections[0]?.ops).toEqual(["hello", "watch"]);
  expect(await watch.peek("none")).toEqual({ room: "none", messages: [], more: false });
});
