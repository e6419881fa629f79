// Store append round trip: `store.post` (one EVALSHA of the store script, its reply parsed) against a bare client
// sending the very same EVALSHA to the same Redis (the floor), so the ratio is what the store adds on top of Redis
// and the network. Subject and floor alternate in blocks; the figure is the median of the blocks' p50 ratios, with
// their spread. Redis and this process are pinned to one CPU with taskset where it exists, since on this machine a
// latency figure swings 3x with CPU placement.
import { DEFAULT_RING_CAPACITY } from "@orphus/rooms";
import { DEFAULT_ACTIVITY_RETAINED, DEFAULT_MEMBER_TTL_MS, openRedisRoomStore } from "@orphus/rooms-redis";
import { Redis } from "ioredis";
import { alternate, pinToCpu0 } from "../../../bench-support/alternate.js";
import { quantile, reportRatio } from "../../../bench-support/report.js";
import { startRedisServer } from "../../../test-support/redis-server.js";
import { STORE_SCRIPT } from "../src/script.js";

// Run again pinned to CPU 0, beside the Redis it starts there.
const taskset = pinToCpu0();

const BODY = "The ring keeps 500 messages; sequence numbers are never reused, so afterSeq stays stable. ".repeat(2);
const WARMUP = 2_000;
const BLOCKS = 12;
const PER_BLOCK = 400;
const PREFIX = "bench:";

const server = await startRedisServer({ ...(taskset === "" ? {} : { pinCpu: 0 }) });
const store = await openRedisRoomStore({ url: server.url, keyPrefix: PREFIX, brokerId: "bench" });
const bare = new Redis(server.url, { protocol: 2, lazyConnect: true });
try {
  await store.join("rtt", "poster");
  await bare.connect();
  const sha = String(await bare.call("SCRIPT", "LOAD", STORE_SCRIPT));
  const epoch = String(await bare.call("HGET", `${PREFIX}meta`, "epoch"));
  // The argv the store sends for this post: op, prefix, epoch, broker, limits, then refuse flag, room, role, body,
  // headline and key.
  const limits = [DEFAULT_RING_CAPACITY, 64, 32, 256, 1024, DEFAULT_ACTIVITY_RETAINED, DEFAULT_MEMBER_TTL_MS].map(String);
  const argv = ["post", PREFIX, epoch, "bench", ...limits, "0", "rtt", "poster", BODY, "", ""];
  const check = (await bare.evalsha(sha, 0, ...argv)) as unknown[];
  if (check[0] !== "ok") throw new Error(`the bare post was refused: ${JSON.stringify(check[0])}`);

  const viaStore = async (): Promise<void> => {
    await store.post("rtt", "poster", BODY);
  };
  const viaBare = async (): Promise<void> => {
    await bare.evalsha(sha, 0, ...argv);
  };
  const { ratios, subject: storeP50, floor: bareP50 } = await alternate(viaStore, viaBare, {
    blocks: BLOCKS,
    perBlock: PER_BLOCK,
    warmup: WARMUP,
  });
  const us = (ms: number): string => `${(ms * 1000).toFixed(0)} µs`;
  reportRatio({
    name: "rooms-redis.append-round-trip",
    ratio: quantile(ratios, 0.5),
    target: { kind: "at-most", value: 1.3 },
    detail:
      `p50 ${us(quantile(storeP50, 0.5))} through the store vs ${us(quantile(bareP50, 0.5))} bare EVALSHA; ` +
      `block ratios ${quantile(ratios, 0).toFixed(2)}–${quantile(ratios, 1).toFixed(2)} over ${BLOCKS} blocks of ` +
      `${PER_BLOCK}${taskset === "" ? ", unpinned (no taskset)" : ", pinned to CPU 0"}`,
  });
} finally {
  bare.disconnect();
  await store.close();
  await server.close();
}
