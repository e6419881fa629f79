// A Redis restarted with and without persistence under two brokers' stores: with it, rooms, members and seqs are
// all there; without it, each store detects the reset (a typed error once, a reset event) and continues every room
// past the seqs it had seen, so no number is handed out twice, whichever broker meets the empty Redis first.
import { Redis } from "ioredis";
import { afterEach, describe, expect, test } from "vitest";
import type { RedisRoomStore } from "@orphus/rooms-redis";
import { startRedisServer, type RedisServer } from "../../../../test-support/redis-server.js";
import { eventually } from "../../../../test-support/poll.js";
import { codeOf, openStore, record } from "./support.js";

const opened: RedisRoomStore[] = [];
let server: RedisServer | undefined;
let admin: Redis | undefined;
afterEach(async () => {
  admin?.disconnect();
  admin = undefined;
  await Promise.all(opened.splice(0).map((store) => store.close()));
  await server?.close();
});

/** Runs `action` again while the store is still reconnecting or has just found the reset; any other error fails at once. */
async function served<T>(action: () => Promise<T>): Promise<T> {
  const outcome = await eventually(
    () =>
      action().then(
        (value) => ({ value }),
        (error: unknown) => {
          const code = (error as { code?: unknown }).code;
          if (code === "ERR_STORE_UNAVAILABLE" || code === "ERR_STORE_RESET") throw error;
          return { error };
        },
      ),
    { everyMs: 20, what: "the store serves again" },
  );
  if ("error" in outcome) throw outcome.error;
  return outcome.value;
}

describe("a Redis restart", () => {
  test("with persistence keeps rooms, members and seqs: nothing is reported and numbering goes on", async () => {
    server = await startRedisServer({ persistence: true });
    const a = await openStore(server.url, { keyPrefix: "p:", brokerId: "a" }, opened);
    await a.join("kept", "ann");
    for (let i = 0; i < 3; i++) await a.post("kept", "ann", `m${i}`);
    const events = record(a);
    await server.stop();
    await server.start();
    const posted = await eventually(() => a.post("kept", "ann", "after"));
    expect(posted.seq).toBe(4);
    expect(await a.members("kept")).toEqual(["ann"]);
    expect(events.filter((e) => e.type === "reset")).toEqual([]);
  });

  test("without persistence is detected by every store, reported once, and seqs are never reused", async () => {
    server = await startRedisServer({ persistence: false });
    const a = await openStore(server.url, { keyPrefix: "r:", brokerId: "a" }, opened);
    const b = await openStore(server.url, { keyPrefix: "r:", brokerId: "b" }, opened);
    await a.join("lost", "ann");
    await b.join("lost", "bob");
    for (let i = 0; i < 5; i++) await a.post("lost", "ann", `m${i}`);
    const heardByA = record(a);
    const heardByB = record(b);
    await server.stop();
    await server.start();

    // The store looks at the epoch as soon as it is connected again; a call that meets the reset first fails with
    // ERR_STORE_RESET. Either way the store has then taken up a new epoch and reported the reset once.
    const first = await eventually(async () => {
      const code = await codeOf(() => a.list("ann"));
      if (code === "ERR_STORE_UNAVAILABLE") throw new Error("not back yet");
      return code;
    });
    expect(["ok", "ERR_STORE_RESET"]).toContain(first);
    expect(heardByA.filter((e) => e.type === "reset")).toEqual([
      { type: "reset", epoch: expect.any(String), rooms: [{ room: "lost", continuesAfter: 5 }] },
    ]);
    // Members were lost with the data: a post is refused until the role joins again, and then numbering goes on.
    expect(await codeOf(() => a.post("lost", "ann", "x"))).toBe("ERR_NOT_MEMBER");
    const joined = await a.join("lost", "ann");
    expect(joined).toMatchObject({ created: false, joined: true, newestSeq: 5 });
    expect((await a.post("lost", "ann", "after the reset")).seq).toBe(6);
    const page = await a.read("lost", "ann", { afterSeq: 0 });
    expect(page).toMatchObject({ newestSeq: 6, oldestSeq: 6, evicted: { count: 5, fromSeq: 1, toSeq: 5 } });
    expect(page.messages.map((m) => m.body)).toEqual(["after the reset"]);

    // The other broker finds the epoch changed as well, reports it once, and takes up the same one.
    expect(["ok", "ERR_STORE_RESET"]).toContain(await codeOf(() => b.list("bob")));
    const resets = heardByB.filter((e) => e.type === "reset");
    expect(resets).toHaveLength(1);
    expect(resets[0]).toMatchObject({ epoch: (heardByA.find((e) => e.type === "reset") as { epoch: string }).epoch });
    await b.join("lost", "bob");
    expect((await b.post("lost", "bob", "b after")).seq).toBe(7);
  });
});

describe("Redis lost its data, and the broker that never saw the room joins it first", () => {
  for (const loss of ["kill -9 and a restart", "FLUSHALL"] as const) {
    test(`after ${loss}, its post continues past the room's seqs, never reusing one (three times)`, async () => {
      server = await startRedisServer({ persistence: false });
      const redis = server;
      // c beats every second, so a FLUSHALL (which drops no connection) is found within one; the window is then
      // heartbeatMs + timeoutMs = 3 s.
      const c = await openStore(redis.url, { keyPrefix: "w:", brokerId: "c", heartbeatMs: 1_000 }, opened);
      const d = await openStore(redis.url, { keyPrefix: "w:", brokerId: "d", heartbeatMs: 1_000 }, opened);
      admin = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
      admin.on("error", () => undefined);
      const lose = async (): Promise<void> => {
        if (loss === "FLUSHALL") {
          if (admin?.status !== "ready") await admin?.connect();
          await admin?.flushall();
          return;
        }
        await redis.kill();
        await redis.start();
      };
      for (let round = 1; round <= 3; round++) {
        const room = `round-${round}`;
        // Members only on c, which holds #1-#10; d has never seen the room.
        await served(() => c.join(room, "carl"));
        for (let i = 1; i <= 10; i++) expect((await c.post(room, "carl", `#${i}`)).seq).toBe(i);
        await lose();
        // At once (well within 0.3 s of the loss): d joins first and posts.
        await served(() => d.join(room, "dora"));
        const posted = await served(() => d.post(room, "dora", `after loss ${round}`));
        expect(posted.seq, `round ${round}: d's post after the loss`).toBeGreaterThan(10);
        // c's membership went with the data: it joins again, and its next post continues after d's.
        await served(() => c.join(room, "carl"));
        expect((await c.post(room, "carl", "c after")).seq, `round ${round}: c's next post`).toBe(posted.seq + 1);
      }
    });
  }
});

describe("the recovery window", () => {
  test("a room no running broker knew is created once it closes; a join waiting in it ends when its store closes", async () => {
    server = await startRedisServer({ persistence: false });
    const redis = server;
    const c = await openStore(redis.url, { keyPrefix: "win:", brokerId: "c", recoveryWindowMs: 300 }, opened);
    const d = await openStore(redis.url, { keyPrefix: "win:", brokerId: "d", recoveryWindowMs: 60_000 }, opened);
    admin = new Redis(redis.url, { maxRetriesPerRequest: 0 });
    await admin.flushall();
    // c meets the loss first, so its window (300 ms) is the store's: after it, a new room is created from 1.
    expect(await codeOf(() => c.list("carl"))).toBe("ERR_STORE_RESET");
    expect(await c.join("fresh", "carl")).toMatchObject({ created: true, newestSeq: 0 });
    expect((await c.post("fresh", "carl", "first")).seq).toBe(1);

    await admin.flushall();
    // Now d opens a window of a minute; a join of a room nobody seeded waits in it until d closes.
    expect(await codeOf(() => d.list("dora"))).toBe("ERR_STORE_RESET");
    const waiting = codeOf(() => d.join("unknown", "dora"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await d.close();
    expect(await waiting).toBe("ERR_STORE_CLOSED");
  });
});
