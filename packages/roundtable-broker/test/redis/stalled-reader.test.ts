// A member that stops reading, on a broker whose rooms are in a real Redis: each post is answered in a turn of its
// own there, so what merges a stalled reader's pings is holding them behind its unfinished write, not the turn.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { openRedisRoomStore } from "@orphus/rooms-redis";
import { startRedisServer, type RedisServer } from "../../../../test-support/redis-server.js";
import { startTestBroker } from "../helpers.js";
import { stalledReaderTests, type BrokerStarter } from "../stalled-reader.js";

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.close();
});

/** A broker on the Redis store, under a key prefix of its own, so each test starts with no rooms. */
const onRedis: BrokerStarter = async ({ maxRooms, ...options } = {}) => {
  const keyPrefix = `t:${randomBytes(6).toString("hex")}:`;
  const store = await openRedisRoomStore({
    url: redis.url,
    keyPrefix,
    ...(maxRooms === undefined ? {} : { maxRooms }),
  });
  return await startTestBroker({ ...options, store });
};

stalledReaderTests(onRedis, { numRuns: 10 });
