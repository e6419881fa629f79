// The room-store contract (the same suite the memory store passes) against the Redis store on a real redis-server:
// each backend is a fresh key prefix on one server, each store a broker with its own connections.
import { randomBytes } from "node:crypto";
import type { RoomStore, RoomStoreOptions } from "@orphus/rooms";
import { openRedisRoomStore } from "@orphus/rooms-redis";
import { afterAll, beforeAll } from "vitest";
import { describeRoomStoreContract, type StoreBackend } from "../../../../test-support/room-store-contract.js";
import { startRedisServer, type RedisServer } from "../../../../test-support/redis-server.js";

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.close();
});

describeRoomStoreContract({
  name: "redis",
  modelRuns: 100,
  async open(options: RoomStoreOptions): Promise<StoreBackend> {
    const keyPrefix = `contract:${randomBytes(6).toString("hex")}:`;
    const stores: RoomStore[] = [];
    return {
      async store(brokerId) {
        const store = await openRedisRoomStore({
          ...options,
          url: server.url,
          keyPrefix,
          brokerId,
          watchBlockMs: 1_000,
        });
        stores.push(store);
        return store;
      },
      async close() {
        await Promise.all(stores.map((store) => store.close()));
      },
    };
  },
});
