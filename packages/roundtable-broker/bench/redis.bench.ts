// The broker on the Redis store. Post round trip: a client's post through a broker process on a Redis store, against
// a bare Redis client sending the same command to the same Redis (the floor): the store's one EVALSHA of its script
// with a post's arguments, for another room of the same shape. The ratio is what the broker adds on top of the one
// Redis round trip a post needs (framing, parsing, the service, the store's argument building and reply parsing).
// Beside it, informative: a minimal proxy (evalsha-proxy.ts: decode, one bare EVALSHA, reply) against the same
// floor, the least any process between a client and Redis adds here, so the broker's own cost is the gap between
// the two ratios; and cross-broker ping delivery, a post on one broker until a member on another broker of the same
// Redis receives its post event (the other broker's blocking read of activity, then its push). Broker, proxy and
// floor are measured in alternating blocks (bench-support/harness.ts); each figure is the median of per-block p50
// ratios with its spread. Run it pinned, `pnpm bench roundtable-broker --cpu 0`: Redis, the brokers and this process
// then share one CPU, since a latency figure here swings 3x with placement.
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { encodeFrame } from "@orphus/framing";
import { DEFAULT_RING_CAPACITY } from "@orphus/rooms";
import { DEFAULT_ACTIVITY_RETAINED, DEFAULT_KEY_PREFIX, DEFAULT_MEMBER_TTL_MS } from "@orphus/rooms-redis";
import { Redis } from "ioredis";
import { benchCpu } from "../../../bench-support/cpu.js";
import { alternateBlocks, blockRatios } from "../../../bench-support/harness.js";
import { benchNotes, reportRatio } from "../../../bench-support/report.js";
import { quantile } from "../../../bench-support/stats.js";
import { startRedisServer } from "../../../test-support/redis-server.js";
// The store's script, for the floor to send the very command the store sends (bench code, never published).
import { STORE_SCRIPT } from "../../rooms-redis/src/script.js";
import {
  BenchClient,
  POST_BODY,
  brokerSocket,
  bundledBin,
  member,
  micros,
  spawnBroker,
  spawnFloor,
  tempDir,
  withBenchScope,
} from "./support.js";

benchNotes([
  "A post through a broker needs two more process wake-ups on the pinned CPU than the floor (client, broker, Redis, " +
    "broker, client, against client, Redis, client): those alone put a do-nothing proxy at about 1.45x, and the " +
    "broker's own work (zod, the room service, the store's checks and reply parsing) added 0.15x to 0.6x on top of it " +
    "in the same run. A CPU profile of the broker over 20,000 posts showed it idle two thirds of the time and, of its " +
    "busy time, about half in the two socket writes a post takes: the JavaScript left on the path is small, so the " +
    "2x target holds on a machine that is not otherwise busy and is at the edge on one that is (2.08x, 2.00x and " +
    "1.59x at load averages of 6.6 to 10.8 on 2 cores).",
  "The first version of the Redis integration measured 3.0x to 3.3x: every post woke its own broker's blocking read " +
    "of the room's activity stream, only to be dropped as its own. Activity now goes only to the inbox of each broker " +
    "that holds a recipient, which took about 130 µs off each post here.",
  "Cross-broker pings take a blocking XREAD wake-up and a push on the second broker: about a millisecond at p50, and " +
    "tens of milliseconds at worst under load; clients coalesce pings over 1.5 s anyway.",
]);

const WARMUP = 2_000;
const BLOCKS = 11;
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

/** The p50, in milliseconds, of `count` sequential calls of `action`. */
async function p50Of(action: () => Promise<void>, count: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await action();
    samples.push(performance.now() - start);
  }
  return quantile(samples, 0.5);
}

const cpu = benchCpu();
const where = cpu === undefined ? "unpinned (pnpm bench --cpu 0 pins it)" : `pinned to CPU ${cpu}`;
// Started from this process, Redis inherits its CPU when the runner pinned it.
const server = await startRedisServer();
const bare = new Redis(server.url, { protocol: 2, lazyConnect: true });
try {
  // The brokers and the proxy stop before Redis does.
  await withBenchScope(async ({ children, cleanups }) => {
    const bin = await bundledBin(cleanups);
    const env = { ORPHUS_ROUNDTABLE_STORE: server.url };
    const [east, west] = [tempDir(cleanups), tempDir(cleanups)];
    children.push(await spawnBroker(bin, east, env), await spawnBroker(bin, west, env));

    // --- the subject: a post through the broker ------------------------------------------------------------------
    const poster = await member(brokerSocket(east), "poster", "rtt");
    let id = 10;
    let key = 0;
    // Every post carries a fresh idempotency key of 16 characters, as the client's do.
    const nextKey = (): string => `k${String(++key).padStart(15, "0")}`;
    const post = (): Buffer =>
      encodeFrame({ id: ++id, op: "post", room: "rtt", body: POST_BODY, idempotencyKey: nextKey() });

    // --- the floor: the same EVALSHA from a bare client, into a room of the same shape -----------------------------
    await bare.connect();
    const sha = String(await bare.call("SCRIPT", "LOAD", STORE_SCRIPT));
    const epoch = String(await bare.call("HGET", `${DEFAULT_KEY_PREFIX}meta`, "epoch"));
    // op, prefix, epoch, broker, the limits the broker's store sends (its defaults), then the op's own arguments.
    const limits = [DEFAULT_RING_CAPACITY, 64, 32, 256, 1024, DEFAULT_ACTIVITY_RETAINED, DEFAULT_MEMBER_TTL_MS].map(
      String,
    );
    const head = [DEFAULT_KEY_PREFIX, epoch, "bench-floor", ...limits];
    for (const [room, role] of [
      ["flr", "floorr"],
      ["prx", "proxyy"],
    ] as const) {
      const joined = (await bare.evalsha(sha, 0, "join", ...head, room, role)) as unknown[];
      if (joined[0] !== "ok") throw new Error(`the join of ${room} was refused: ${JSON.stringify(joined[0])}`);
    }
    const floorArgv = (): string[] => ["post", ...head, "0", "flr", "floorr", POST_BODY, "", nextKey()];
    const check = (await bare.evalsha(sha, 0, ...floorArgv())) as unknown[];
    if (check[0] !== "ok") throw new Error(`the floor's post was refused: ${JSON.stringify(check[0])}`);

    // --- the least a process in between costs: a proxy doing only the floor's EVALSHA -------------------------------
    const proxySocket = join(tempDir(cleanups), "proxy.sock");
    const proxyArgv = ["post", ...head, "0", "prx", "proxyy", POST_BODY, "", "key"];
    children.push(
      await spawnFloor(
        { program: "evalsha-proxy.ts", args: [server.url, sha, JSON.stringify(proxyArgv)] },
        proxySocket,
      ),
    );
    const proxy = await BenchClient.connect(proxySocket);

    const viaBroker = async (): Promise<void> => {
      await poster.roundTrip(post());
    };
    const viaProxy = async (): Promise<void> => {
      await proxy.roundTrip(encodeFrame({ id: ++id, op: "post" }));
    };
    const viaBare = async (): Promise<void> => {
      await bare.evalsha(sha, 0, ...floorArgv());
    };
    for (let i = 0; i < WARMUP; i++) {
      await viaBroker();
      await viaProxy();
      await viaBare();
    }
    const blocks = await alternateBlocks(
      {
        broker: () => p50Of(viaBroker, PER_BLOCK),
        proxy: () => p50Of(viaProxy, PER_BLOCK),
        bare: () => p50Of(viaBare, PER_BLOCK),
      },
      { blocks: BLOCKS, warmupBlocks: 0 },
    );
    const floor = quantile(blocks.bare, 0.5);
    reportRatio({
      name: "roundtable-broker.redis-post-round-trip-p50",
      about:
        "A post through a broker on the Redis store, p50 round trip, against the same EVALSHA of the store's script sent " +
        "by a bare Redis client to the same Redis (the one Redis round trip a post needs).",
      ratio: blockRatios(blocks.broker, blocks.bare),
      target: { kind: "at-most", value: 2 },
      sides: { subject: quantile(blocks.broker, 0.5), baseline: floor, unit: "ms (median block p50)" },
      detail:
        `post through a broker on Redis ${micros(quantile(blocks.broker, 0.5))} vs the same EVALSHA from a bare client ` +
        `${micros(floor)} (median block p50s, ${BLOCKS} blocks of ${PER_BLOCK}), ${where}`,
    });
    reportRatio({
      name: "roundtable-broker.redis-proxy-round-trip-p50",
      about:
        "A minimal proxy process (decode, the same EVALSHA, reply) against the same bare client (informative: the " +
        "least any process between a client and Redis adds; the broker's own cost is the gap to the figure above).",
      ratio: blockRatios(blocks.proxy, blocks.bare),
      sides: { subject: quantile(blocks.proxy, 0.5), baseline: floor, unit: "ms (median block p50)" },
      detail:
        `a minimal proxy (decode, the same EVALSHA, reply) ${micros(quantile(blocks.proxy, 0.5))} vs the bare client ` +
        `${micros(floor)}: the least a process in between adds here; informative, no target`,
    });
    poster.close();
    proxy.close();

    // --- cross-broker ping delivery: a post on east until its event reaches a member on west ------------------------
    const author = await member(brokerSocket(east), "author", "ping");
    const listener = await member(brokerSocket(west), "listener", "ping");
    // The listener's join reaches the author as an event: let it land, so it is not taken for the author's reply.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const delivery: number[] = [];
    for (let i = 0; i < PINGS; i++) {
      const heard = listener.received + 1;
      const replied = author.received + 1;
      const start = performance.now();
      author.socket.write(
        encodeFrame({ id: ++id, op: "post", room: "ping", body: POST_BODY, idempotencyKey: nextKey() }),
      );
      await bounded(listener.until(heard));
      delivery.push(performance.now() - start);
      // The author's reply lands before the next post, so two posts never overlap.
      await author.until(replied);
    }
    const warm = delivery.slice(PINGS / 6);
    reportRatio({
      name: "roundtable-broker.redis-cross-broker-ping-p50",
      about:
        "A post on one broker until a member on another broker of the same Redis has its post event, p50, as a ratio " +
        "to the bare EVALSHA floor above (informative; a single figure, not blocks).",
      ratio: quantile(warm, 0.5) / floor,
      sides: { subject: quantile(warm, 0.5), baseline: floor, unit: "ms (p50)" },
      detail:
        `a post on one broker until a member on another broker of the same Redis has its post event: p50 ` +
        `${micros(quantile(warm, 0.5))}, p99 ${micros(quantile(warm, 0.99))} (${warm.length} pings after ${PINGS - warm.length} ` +
        `warm-up), as a ratio to the bare EVALSHA floor above; informative, no target`,
    });
    author.close();
    listener.close();
  });
} finally {
  bare.disconnect();
  await server.close();
}
