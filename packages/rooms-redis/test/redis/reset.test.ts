// A Redis restarted with and without persistence under two brokers' stores: with it, rooms, members and seqs are
// all there; without it, each store detects the reset (a typed error once, a reset event) and continues every room
// past the seqs it had seen, so no number is handed out twice.
import { afterEach, describe, expect, test } from "vitest";
import type { RedisRoomStore } from "@orphus/rooms-redis";
import { startRedisServer, type RedisServer } from "../../../../test-support/redis-server.js";
import { codeOf, eventually, openStore, record } from "./support.js";

const opened: RedisRoomStore[] = [];
let server: RedisServer | undefined;
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
  await server?.close();
});

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

    // The first call that reaches the new server fails with the reset; the store has then taken up a new epoch.
    const first = await eventually(async () => {
      const code = await codeOf(() => a.list("ann"));
      if (code === "ERR_STORE_UNAVAILABLE") throw new Error("not back yet");
      return code;
    });
    expect(first).toBe("ERR_STORE_RESET");
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
    expect(await codeOf(() => b.list("bob"))).toBe("ERR_STORE_RESET");
    const resets = heardByB.filter((e) => e.type === "reset");
    expect(resets).toHaveLength(1);
    expect(resets[0]).toMatchObject({ epoch: (heardByA.find((e) => e.type === "reset") as { epoch: string }).epoch });
    await b.join("lost", "bob");
    expect((await b.post("lost", "bob", "b after")).seq).toBe(7);
  });
});
