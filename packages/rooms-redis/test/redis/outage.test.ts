// Redis away in the middle of use: paused (it holds the connection and answers nothing) and stopped (connections
// refused). Calls fail with ERR_STORE_UNAVAILABLE within their timeout, subscribers hear it once, and everything
// works again when Redis returns; a post retried with its key after a timeout is stored once.
import { afterEach, expect, test } from "vitest";
import type { RedisRoomStore } from "@orphus/rooms-redis";
import { startRedisServer, type RedisServer } from "../../../../test-support/redis-server.js";
import { eventually } from "../../../../test-support/poll.js";
import { openStore, record } from "./support.js";

const TIMEOUT_MS = 500;
/** Generous room above the timeout for a loaded machine: this bounds the wait, it measures nothing. */
const SLACK_MS = 2_500;
const opened: RedisRoomStore[] = [];
let server: RedisServer | undefined;
afterEach(async () => {
  server?.resume();
  await Promise.all(opened.splice(0).map((store) => store.close()));
  await server?.close();
});

/** What `action` settled with, and how long it took. */
async function timed(action: () => Promise<unknown>): Promise<{ code: string; ms: number }> {
  const start = Date.now();
  try {
    await action();
    return { code: "ok", ms: Date.now() - start };
  } catch (error) {
    return { code: String((error as { code?: unknown }).code), ms: Date.now() - start };
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test("a paused Redis fails calls within the timeout; when it resumes they work, and a retried post is stored once", async () => {
  server = await startRedisServer();
  const store = await openStore(server.url, { timeoutMs: TIMEOUT_MS }, opened);
  const events = record(store);
  await store.join("ops", "ann");
  server.pause();
  const started = Date.now();
  const post = await timed(() => store.post("ops", "ann", "during the pause", { key: "retry-me" }));
  expect(post.code).toBe("ERR_STORE_UNAVAILABLE");
  expect(post.ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
  const read = await timed(() => store.read("ops", "ann"));
  expect(read.code).toBe("ERR_STORE_UNAVAILABLE");
  expect(read.ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
  await sleep(Math.max(0, 3_000 - (Date.now() - started)));
  server.resume();
  const retried = await eventually(() => store.post("ops", "ann", "during the pause", { key: "retry-me" }));
  expect(retried.seq).toBe(1);
  const page = await store.read("ops", "ann", { afterSeq: 0 });
  expect(page.messages.map((m) => m.body)).toEqual(["during the pause"]);
  expect(events.filter((e) => e.type !== "activity").map((e) => e.type)).toEqual(["unavailable", "available"]);
  const [down] = events;
  expect(down).toMatchObject({ type: "unavailable", error: { code: "ERR_STORE_UNAVAILABLE", timeoutMs: TIMEOUT_MS } });
});

test("a stopped Redis fails calls at once; when it is back (with its data) the store reconnects by itself", async () => {
  server = await startRedisServer({ persistence: true });
  const store = await openStore(server.url, { timeoutMs: TIMEOUT_MS }, opened);
  await store.join("ops", "ann");
  await store.post("ops", "ann", "before");
  await server.stop();
  for (let i = 0; i < 3; i++) {
    const call = await timed(() => store.post("ops", "ann", "while down"));
    expect(call.code).toBe("ERR_STORE_UNAVAILABLE");
    expect(call.ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
    await sleep(1_000);
  }
  await server.start();
  const after = await eventually(() => store.post("ops", "ann", "after"));
  expect(after.seq).toBe(2);
});

test("a detach lost while Redis was away is made good by the broker's next heartbeat", async () => {
  // Stopped, not paused: a paused Redis still runs what was sent once it resumes, so the detach would not be lost.
  server = await startRedisServer({ persistence: true });
  const a = await openStore(
    server.url,
    { keyPrefix: "hb:", brokerId: "a", timeoutMs: TIMEOUT_MS, heartbeatMs: 200 },
    opened,
  );
  const b = await openStore(server.url, { keyPrefix: "hb:", brokerId: "b", watchBlockMs: 200 }, opened);
  const heard = record(b);
  await a.join("hall", "ann");
  await b.join("hall", "bob");
  await server.stop();
  const lost = await timed(() => a.detach("ann"));
  expect(lost.code).toBe("ERR_STORE_UNAVAILABLE");
  await server.start();
  await eventually(async () => {
    expect(await b.members("hall")).toEqual(["bob"]);
  });
  await eventually(async () => {
    expect(heard).toContainEqual({
      type: "activity",
      kind: "disconnect",
      room: "hall",
      seq: 0,
      role: "ann",
      recipients: ["bob"],
    });
  });
});
