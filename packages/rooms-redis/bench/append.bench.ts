// Store append round trip: `store.post` (one EVALSHA of the store script, its reply parsed) against a bare client
// sending the very same EVALSHA to the same Redis (the floor), so the ratio is what the store adds on top of Redis
// and the network. Subject and floor alternate in blocks; the figure is the median of the blocks' p50 ratios, with
// their spread. Redis and this process are pinned to one CPU with taskset where it exists, since on this machine a
// latency figure swings 3x with CPU placement.
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { DEFAULT_RING_CAPACITY } from "@orphus/rooms";
import { DEFAULT_ACTIVITY_RETAINED, DEFAULT_MEMBER_TTL_MS, openRedisRoomStore } from "@orphus/rooms-redis";
import { Redis } from "ioredis";
import { compareInBlocks } from "../../../bench-support/harness.js";
import { quantile } from "../../../bench-support/stats.js";
import { startRedisServer } from "../../../test-support/redis-server.js";
import { STORE_SCRIPT } from "../src/script.js";

const PINNED_ENV = "ORPHUS_BENCH_PINNED";
const taskset = spawnSync("sh", ["-c", "command -v taskset"], { encoding: "utf8" }).stdout.trim();
if (taskset !== "" && process.env[PINNED_ENV] === undefined) {
  // Run again pinned to CPU 0, beside the Redis it starts there.
  const pinned = spawnSync(taskset, ["-c", "0", process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, [PINNED_ENV]: "1" },
  });
  process.exit(pinned.status ?? 1);
}

const BODY = "The ring keeps 500 messages; sequence numbers are never reused, so afterSeq stays stable. ".repeat(2);
const WARMUP = 2_000;
const BLOCKS = 11;
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
  const limits = [DEFAULT_RING_CAPACITY, 64, 32, 256, 1024, DEFAULT_ACTIVITY_RETAINED, DEFAULT_MEMBER_TTL_MS].map(
    String,
  );
  const argv = ["post", PREFIX, epoch, "bench", ...limits, "0", "rtt", "poster", BODY, "", ""];
  const check = (await bare.evalsha(sha, 0, ...argv)) as unknown[];
  if (check[0] !== "ok") throw new Error(`the bare post was refused: ${JSON.stringify(check[0])}`);

  const viaStore = async (): Promise<void> => {
    await store.post("rtt", "poster", BODY);
  };
  const viaBare = async (): Promise<void> => {
    await bare.evalsha(sha, 0, ...argv);
  };
  const block = async (action: () => Promise<void>): Promise<number[]> => {
    const samples: number[] = [];
    for (let i = 0; i < PER_BLOCK; i++) {
      const start = performance.now();
      await action();
      samples.push(performance.now() - start);
    }
    return samples;
  };
  for (let i = 0; i < WARMUP; i++) {
    await viaStore();
    await viaBare();
  }
  const p50 = async (action: () => Promise<void>): Promise<number> => quantile(await block(action), 0.5);
  const us = (ms: number): string => `${(ms * 1000).toFixed(0)} µs`;
  await compareInBlocks({
    name: "rooms-redis.append-round-trip",
    about:
      "store.post (one EVALSHA of the store script, its reply parsed), p50, against a bare client sending the very " +
      "same EVALSHA to the same Redis.",
    unit: "ms (p50 of a block)",
    blocks: BLOCKS,
    warmupBlocks: 0,
    collectGarbage: false,
    subject: () => p50(viaStore),
    baseline: () => p50(viaBare),
    target: { kind: "at-most", value: 1.3 },
    detail: ({ subject, baseline }) =>
      `p50 ${us(subject)} through the store vs ${us(baseline)} bare EVALSHA over blocks of ${PER_BLOCK}` +
      (taskset === "" ? ", unpinned (no taskset)" : ", pinned to CPU 0"),
  });
} finally {
  bare.disconnect();
  await store.close();
  await server.close();
}
