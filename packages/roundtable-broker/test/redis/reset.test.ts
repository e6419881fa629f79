// Two brokers on one redis-server without persistence, and a raw peer on each: Redis is killed and restarted empty.
// The broker that never saw the room is the first to be asked for it, and its post still continues past the room's
// seqs; every connection that said hello before the loss is refused once, on its next request naming a room, with
// a refusal its version can parse (ERR_STORE_RESET, or ERR_NOT_MEMBER for version 1), and status and rooms are not.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startRedisServer, type RedisServer } from "../../../../test-support/redis-server.js";
import { RawPeer, hello, startTestBroker } from "../helpers.js";
import { eventually } from "../../../../test-support/poll.js";

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer({ persistence: false });
});
afterAll(async () => {
  await redis?.close();
});

type Frame = Record<string, unknown>;
const codeOf = (reply: Frame): unknown => (reply["error"] as { code?: unknown } | undefined)?.code;

/** Sends `request` (a fresh id each time) until the store is back and the reply is not about the loss itself. */
function served(peer: RawPeer, request: Frame, next: () => number): Promise<Frame> {
  return eventually(
    async () => {
      const reply = await peer.request({ ...request, id: next() });
      const code = codeOf(reply);
      if (code === "ERR_STORE_UNAVAILABLE" || code === "ERR_STORE_RESET")
        throw new Error(`still refused: ${String(code)}`);
      return reply;
    },
    { everyMs: 20, what: `${String(request["op"])} is served again` },
  );
}

test("Redis killed and restarted empty: the broker that never saw the room continues it, and every connection is told", async () => {
  const c = await startTestBroker({ store: redis.url });
  const d = await startTestBroker({ store: redis.url });
  let id = 10;
  const next = (): number => ++id;
  const carl = await RawPeer.hello(c.socketPath, "carl");
  const old = new RawPeer(c.socketPath);
  expect(await old.request(hello(1, "olga", 1))).toMatchObject({ ok: true });
  const dora = await RawPeer.hello(d.socketPath, "dora");
  for (const peer of [carl, old])
    expect(await peer.request({ id: next(), op: "join", room: "r" })).toMatchObject({ ok: true });
  for (let i = 1; i <= 10; i++) {
    expect(await carl.request({ id: next(), op: "post", room: "r", body: `#${i}` })).toMatchObject({
      result: { seq: i },
    });
  }

  await redis.kill();
  await redis.start();

  // At once, through the broker that never saw the room: its first request about a room meets the reset.
  const joined = await served(dora, { op: "join", room: "r" }, next);
  expect(joined).toMatchObject({ ok: true, result: { room: "r", newestSeq: 10 } });
  const posted = await dora.request({ id: next(), op: "post", room: "r", body: "after the loss" });
  expect(posted).toMatchObject({ ok: true, result: { seq: 11 } });

  // carl read nothing since: rooms and status are served as usual, then its post is refused, nothing done.
  expect(await served(carl, { op: "rooms" }, next)).toMatchObject({ ok: true });
  expect(await carl.request({ id: next(), op: "status" })).toMatchObject({
    ok: true,
    result: { storeAvailable: true },
  });
  const refused = await carl.request({ id: next(), op: "post", room: "r", body: "as if nothing happened" });
  expect(refused).toMatchObject({
    ok: false,
    error: {
      code: "ERR_STORE_RESET",
      message: expect.stringContaining("join the room again, then repeat the request") as unknown,
    },
  });
  // The version-1 connection gets the code it knows for "join again", with the same words.
  const oldRefused = await old.request({ id: next(), op: "post", room: "r", body: "old client" });
  expect(oldRefused).toMatchObject({
    ok: false,
    error: {
      code: "ERR_NOT_MEMBER",
      message: (refused["error"] as { message: string }).message,
      details: { room: "r" },
    },
  });
  expect(carl.events()).toContainEqual({ event: "reset", seq: 0, store: redis.url.replace(/:[^:@/]+@/, ":***@") });
  expect(old.events().filter((event) => event["event"] === "reset")).toEqual([]);

  // Joined again, carl's next post continues after dora's.
  expect(await carl.request({ id: next(), op: "join", room: "r" })).toMatchObject({
    ok: true,
    result: { newestSeq: 11 },
  });
  expect(await carl.request({ id: next(), op: "post", room: "r", body: "c after" })).toMatchObject({
    result: { seq: 12 },
  });
});
