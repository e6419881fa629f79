// The broker on the Redis store. Post round trip: a client's post through a broker process on a Redis store, against
// a bare Redis client sending the same command to the same Redis (the floor): the store's one EVALSHA of its script
// with a post's arguments, for another room of the same shape. The ratio is what the broker adds on top of the one
// Redis round trip a post needs (framing, parsing, the service, the store's argument building and reply parsing).
// Beside it, cross-broker ping delivery: a post on one broker until a member on another broker of the same Redis
// receives its post event (the other broker's blocking read of activity, then its push). And, informative, a minimal
// proxy (evalsha-proxy.ts: decode, one bare EVALSHA, reply) against the same floor: the least any process between a
// client and Redis adds here, so the broker's own cost is the gap between its ratio and the proxy's. Subject and
// floor alternate in blocks; figures are the median of the blocks' p50s, with their spread. Redis, the brokers and
// this process are pinned to CPU 0 with taskset where it exists, since a latency figure here swings 3x with placement.
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { encodeFrame } from "@orphus/framing";
import { DEFAULT_RING_CAPACITY } from "@orphus/rooms";
import { DEFAULT_ACTIVITY_RETAINED, DEFAULT_KEY_PREFIX, DEFAULT_MEMBER_TTL_MS } from "@orphus/rooms-redis";
import { Redis } from "ioredis";
import { alternate, pinToCpu0 } from "../../../bench-support/alternate.js";
import { quantile, reportRatio } from "../../../bench-support/report.js";
import { startRedisServer } from "../../../test-support/redis-server.js";
// The store's script, for the floor to send the very command the store sends (bench code, never published).
import { STORE_SCRIPT } from "../../rooms-redis/src/script.js";
import { BenchClient, bundledBinWithRedisStore, member, spawnBroker, spawnEcho, stop, tempDir } from "./support.js";

const taskset = pinToCpu0();

const BODY = "The ring keeps 500 messages; sequence numbers are never reused, so afterSeq stays stable. ".repeat(2);
const WARMUP = 2_000;
const BLOCKS = 12;
const PER_BLOCK = 400;
const PINGS = 600;

/** `promise`, or a failure after 5 s: a ping that never comes fails the benchmark instead of hanging it. */
function bounded(promise: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("a ping did not arrive within 5 s")), 5_000);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const cleanups: (() => void)[] = [];
const children: Awaited<ReturnType<typeof spawnBroker>>[] = [];
const server = await startRedisServer(taskset === "" ? {} : { pinCpu: 0 });
const bare = new Redis(server.url, { protocol: 2, lazyConnect: true });
try {
  const bin = await bundledBinWithRedisStore(cleanups);
  const env = { ORPHUS_ROUNDTABLE_STORE: server.url };
  const [east, west] = [tempDir(cleanups), tempDir(cleanups)];
  children.push(await spawnBroker(bin, east, env), await spawnBroker(bin, west, env));
  const socket = (agentDir: string): string => join(agentDir, "roundtable", "broker.sock");

  // --- the subject: a post through the broker ------------------------------------------------------------------
  const poster = await member(socket(east), "poster", "rtt");
  let id = 10;
  let key = 0;
  // Every post carries a fresh idempotency key of 16 characters, as the client's do.
  const nextKey = (): string => `k${String(++key).padStart(15, "0")}`;
  const post = (): Buffer => encodeFrame({ id: ++id, op: "post", room: "rtt", body: BODY, idempotencyKey: nextKey() });

  // --- the floor: the same EVALSHA from a bare client, into a room of the same shape -----------------------------
  await bare.connect();
  const sha = String(await bare.call("SCRIPT", "LOAD", STORE_SCRIPT));
  const epoch = String(await bare.call("HGET", `${DEFAULT_KEY_PREFIX}meta`, "epoch"));
  // op, prefix, epoch, broker, the limits the broker's store sends (its defaults), then the op's own arguments.
  const limits = [DEFAULT_RING_CAPACITY, 64, 32, 256, 1024, DEFAULT_ACTIVITY_RETAINED, DEFAULT_MEMBER_TTL_MS].map(String);
  const head = [DEFAULT_KEY_PREFIX, epoch, "bench-floor", ...limits];
  const joined = (await bare.evalsha(sha, 0, "join", ...head, "flr", "floorr")) as unknown[];
  if (joined[0] !== "ok") throw new Error(`the floor's join was refused: ${JSON.stringify(joined[0])}`);
  const floorArgv = (): string[] => ["post", ...head, "0", "flr", "floorr", BODY, "", nextKey()];
  const check = (await bare.evalsha(sha, 0, ...floorArgv())) as unknown[];
  if (check[0] !== "ok") throw new Error(`the floor's post was refused: ${JSON.stringify(check[0])}`);

  const viaBroker = async (): Promise<void> => {
    await poster.roundTrip(post());
  };
  const viaBare = async (): Promise<void> => {
    await bare.evalsha(sha, 0, ...floorArgv());
  };
  const { ratios, subject: brokerP50, floor: bareP50 } = await alternate(viaBroker, viaBare, {
    blocks: BLOCKS,
    perBlock: PER_BLOCK,
    warmup: WARMUP,
  });
  const us = (ms: number): string => `${(ms * 1000).toFixed(0)} µs`;
  const floor = quantile(bareP50, 0.5);
  const where = taskset === "" ? "unpinned (no taskset)" : "pinned to CPU 0";
  reportRatio({
    name: "roundtable-broker.redis-post-round-trip-p50",
    ratio: quantile(ratios, 0.5),
    target: { kind: "at-most", value: 2 },
    detail:
      `post through a broker on Redis ${us(quantile(brokerP50, 0.5))} vs the same EVALSHA from a bare client ` +
      `${us(floor)}; block ratios ${quantile(ratios, 0).toFixed(2)}–${quantile(ratios, 1).toFixed(2)} over ` +
      `${BLOCKS} blocks of ${PER_BLOCK}, ${where}`,
  });
  poster.close();

  // --- the least a process in between costs: a proxy doing only the floor's EVALSHA -------------------------------
  const proxySocket = join(tempDir(cleanups), "proxy.sock");
  const proxied = (await bare.evalsha(sha, 0, "join", ...head, "prx", "proxyy")) as unknown[];
  if (proxied[0] !== "ok") throw new Error(`the proxy's join was refused: ${JSON.stringify(proxied[0])}`);
  const proxyArgv = ["post", ...head, "0", "prx", "proxyy", BODY, "", "key"];
  children.push(await spawnEcho(proxySocket, { program: "evalsha-proxy.ts", args: [server.url, sha, JSON.stringify(proxyArgv)] }));
  const proxy = await BenchClient.connect(proxySocket);
  const viaProxy = async (): Promise<void> => {
    await proxy.roundTrip(encodeFrame({ id: ++id, op: "post" }));
  };
  const least = await alternate(viaProxy, viaBare, { blocks: BLOCKS, perBlock: PER_BLOCK, warmup: WARMUP });
  reportRatio({
    name: "roundtable-broker.redis-proxy-round-trip-p50",
    ratio: quantile(least.ratios, 0.5),
    detail:
      `a minimal proxy (decode, the same EVALSHA, reply) ${us(quantile(least.subject, 0.5))} vs the bare client ` +
      `${us(quantile(least.floor, 0.5))}; block ratios ${quantile(least.ratios, 0).toFixed(2)}–` +
      `${quantile(least.ratios, 1).toFixed(2)}: the least a process in between adds here; informative, no target`,
  });
  proxy.close();

  // --- cross-broker ping delivery: a post on east until its event reaches a member on west ------------------------
  const author = await member(socket(east), "author", "ping");
  const listener = await member(socket(west), "listener", "ping");
  // The listener's join reaches the author as an event: let it land, so it is not taken for the author's reply.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const delivery: number[] = [];
  for (let i = 0; i < PINGS; i++) {
    const heard = listener.received + 1;
    const replied = author.received + 1;
    const start = performance.now();
    author.socket.write(encodeFrame({ id: ++id, op: "post", room: "ping", body: BODY, idempotencyKey: nextKey() }));
    await bounded(listener.until(heard));
    delivery.push(performance.now() - start);
    // The author's reply lands before the next post, so two posts never overlap.
    await author.until(replied);
  }
  const warm = delivery.slice(PINGS / 6);
  reportRatio({
    name: "roundtable-broker.redis-cross-broker-ping-p50",
    ratio: quantile(warm, 0.5) / floor,
    detail:
      `a post on one broker until a member on another broker of the same Redis has its post event: p50 ` +
      `${us(quantile(warm, 0.5))}, p99 ${us(quantile(warm, 0.99))} (${warm.length} pings after ${PINGS - warm.length} ` +
      `warm-up), as a ratio to the bare EVALSHA floor above; informative, no target`,
  });
  author.close();
  listener.close();
} finally {
  bare.disconnect();
  await Promise.all(children.map(stop));
  await server.close();
  for (const cleanup of cleanups.reverse()) cleanup();
}
