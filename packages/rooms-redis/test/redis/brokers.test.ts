// What only a shared backend shows: a broker that stops beating loses its roles to the others' sweeps, and brokers
// configured with other limits cannot share a store.
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import type { RedisRoomStore } from "@orphus/rooms-redis";
import { startRedisServer, type RedisServer } from "../../../../test-support/redis-server.js";
import { eventually } from "../../../../test-support/poll.js";
import { codeOf, openStore, record } from "./support.js";

let server: RedisServer;
const opened: RedisRoomStore[] = [];
beforeAll(async () => {
  server = await startRedisServer();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  await server?.close();
});

test("a broker whose heartbeat expires loses its roles: the others sweep them and hear them disconnect", async () => {
  // a never beats again after opening, and its roles are held for 300 ms; b beats every 100 ms and sweeps.
  const a = await openStore(
    server.url,
    { keyPrefix: "expiry:", brokerId: "a", heartbeatMs: 3_600_000, memberTtlMs: 300 },
    opened,
  );
  const b = await openStore(
    server.url,
    { keyPrefix: "expiry:", brokerId: "b", heartbeatMs: 100, watchBlockMs: 200 },
    opened,
  );
  const heard = record(b);
  await a.join("hall", "ann");
  await b.join("hall", "bob");
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
  expect(await codeOf(() => a.post("hall", "ann", "still here?"))).toBe("ERR_NOT_MEMBER");
});

test("brokers with other limits cannot open the same store", async () => {
  await openStore(server.url, { keyPrefix: "limits:", capacity: 100 }, opened);
  expect(await codeOf(() => openStore(server.url, { keyPrefix: "limits:", capacity: 200 }, opened))).toBe(
    "ERR_STORE_LIMITS_MISMATCH",
  );
});

test("options are checked before anything connects", async () => {
  expect(await codeOf(() => openStore(server.url, { timeoutMs: 0 }, opened))).toBe("ERR_ROOMS_INVALID_OPTION");
  expect(await codeOf(() => openStore(server.url, { maxPostKeys: -1 }, opened))).toBe("ERR_ROOMS_INVALID_OPTION");
  expect(await codeOf(() => openStore(server.url, { recoveryWindowMs: 0 }, opened))).toBe("ERR_ROOMS_INVALID_OPTION");
  expect(await codeOf(() => openStore(server.url, { recoveryWindowMs: 1.5 }, opened))).toBe("ERR_ROOMS_INVALID_OPTION");
});
