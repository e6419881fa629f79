// How brokers sharing one Redis scale: with 1, 2, 4 and 8 brokers (the bin as it ships) on one redis-server this
// benchmark starts, three series (bench-support/series.ts), each point against a floor measured in the same blocks:
// - posts per second in total, every broker's author pipelining into a room of its own with one listener on the same
//   broker (so a post is the same work at every point, and what changes is how many brokers share Redis and the
//   machine), against a bare Redis client pipelining the store's EVALSHA for a post (the ceiling Redis itself gives
//   here); judged by the figure beside it: the total with 8 brokers at least 0.8x that of 1 broker;
// - cross-broker post-to-event latency, p50 and p99: one post on the first broker until a listener on every other
//   broker (on the same broker with one) has its post event, against the bare EVALSHA round trip (informative);
// - Redis commands per post, counted from INFO commandstats around each throughput block (every command the brokers
//   sent meanwhile, their blocking reads and member refreshes included, and the calls a script makes), a bare figure
//   per point with its breakdown by command; Redis's own CPU per post (INFO cpu) and the brokers' (/proc) (informative).
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { encodeFrame } from "@orphus/framing";
import { DEFAULT_RING_CAPACITY } from "@orphus/rooms";
import { DEFAULT_ACTIVITY_RETAINED, DEFAULT_KEY_PREFIX, DEFAULT_MEMBER_TTL_MS } from "@orphus/rooms-redis";
import { Redis } from "ioredis";
import { benchCpu } from "../../../bench-support/cpu.js";
import { alternateBlocks, blockRatios } from "../../../bench-support/harness.js";
import { benchNotes, reportRatio } from "../../../bench-support/report.js";
import { reportSeries, type SeriesPointReport } from "../../../bench-support/series.js";
import { quantile } from "../../../bench-support/stats.js";
import { startRedisServer } from "../../../test-support/redis-server.js";
// The store's script, for the floor to send the very command the store sends (bench code, never published).
import { STORE_SCRIPT } from "../../rooms-redis/src/script.js";
import {
  type BenchClient,
  POST_BODY,
  brokerSocket,
  bundledBin,
  member,
  spawnBroker,
  tempDir,
  withBenchScope,
} from "./support.js";

benchNotes([
  "Every broker's author pipelines with a window of 32 and each post is heard by one listener on its broker, so " +
    "a point's total is what the brokers, Redis and the clients get through together on this machine's two cores: a " +
    "point is bounded by CPU, and the ratio to the bare EVALSHA ceiling says what the brokers add to Redis's own work.",
]);

const BROKERS = [1, 2, 4, 8];
const BLOCKS = 7;
/** How long each throughput block runs, the posts each author keeps in flight, and the floor's EVALSHAs a block. */
const BLOCK_MS = 600;
const WINDOW = 32;
const FLOOR_POSTS = 3_000;
const LATENCY_PER_BLOCK = 150;

const cpu = benchCpu();
const where = cpu === undefined ? "unpinned" : `pinned to CPU ${cpu}`;

/** Calls Redis has run so far by command (INFO commandstats), those scripts make included, INFO's own left out. */
async function commandsServed(client: Redis): Promise<Map<string, number>> {
  const info = String(await client.info("commandstats"));
  const calls = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([a-z|_-]+):calls=(\d+)/gm)) {
    if (match[1] !== "info") calls.set(match[1] as string, Number(match[2]));
  }
  return calls;
}

/** Microseconds of CPU, user and system, the Redis server has used so far (INFO cpu). */
async function redisCpuMicros(client: Redis): Promise<number> {
  const info = String(await client.info("cpu"));
  const seconds = (field: string): number => Number(new RegExp(`^${field}:([0-9.]+)`, "m").exec(info)?.[1] ?? NaN);
  return (seconds("used_cpu_user") + seconds("used_cpu_sys")) * 1e6;
}

/**
 * Microseconds of CPU, user and system, the processes `pids` have used so far, from /proc (clock ticks of 10 ms:
 * coarse for one process, enough summed over the brokers in a block of 600 ms); NaN where /proc is not there.
 */
function processCpuMicros(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return Number.NaN;
    }
  }
  return ticks * 10_000;
}

/** The calls of each command between two readings, per post: "evalsha 1.00, xread 0.50". */
function perPost(before: Map<string, number>, after: Map<string, number>, posts: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const [name, calls] of after) {
    const delta = calls - (before.get(name) ?? 0);
    if (delta > 0) out.set(name, delta / posts);
  }
  return out;
}

const server = await startRedisServer();
const bare = new Redis(server.url, { protocol: 2, lazyConnect: true });
const counter = new Redis(server.url, { protocol: 2, lazyConnect: true });
try {
  await withBenchScope(async ({ children, cleanups }) => {
    const bin = await bundledBin(cleanups);
    const env = { ORPHUS_ROUNDTABLE_STORE: server.url };
    await bare.connect();
    await counter.connect();

    // The floor: the store's EVALSHA for a post, from a bare client, into a room of its own.
    const agentDirs: string[] = [];
    const addBroker = async (): Promise<void> => {
      const dir = tempDir(cleanups);
      children.push(await spawnBroker(bin, dir, env));
      agentDirs.push(dir);
    };
    await addBroker();
    // The first broker made the store's epoch; the floor reads it, and loads the script as the store does.
    const sha = String(await bare.call("SCRIPT", "LOAD", STORE_SCRIPT));
    const epoch = String(await bare.call("HGET", `${DEFAULT_KEY_PREFIX}meta`, "epoch"));
    const limits = [DEFAULT_RING_CAPACITY, 64, 32, 256, 1024, DEFAULT_ACTIVITY_RETAINED, DEFAULT_MEMBER_TTL_MS].map(
      String,
    );
    const head = [DEFAULT_KEY_PREFIX, epoch, "bench-floor", ...limits];
    const joined = (await bare.evalsha(sha, 0, "join", ...head, "flr", "floorr")) as unknown[];
    if (joined[0] !== "ok") throw new Error(`the floor's join was refused: ${JSON.stringify(joined[0])}`);
    const floorPost = (): Promise<unknown> =>
      bare.evalsha(sha, 0, "post", ...head, "0", "flr", "floorr", POST_BODY, "", "");
    /** The bare client's pipelined EVALSHA rate over `count` posts, `WINDOW` in flight. */
    const floorRate = async (count: number): Promise<number> => {
      const start = performance.now();
      let sent = 0;
      const lane = async (): Promise<void> => {
        while (sent < count) {
          sent++;
          await floorPost();
        }
      };
      await Promise.all(Array.from({ length: WINDOW }, lane));
      return count / ((performance.now() - start) / 1000);
    };
    const floorLatency = async (): Promise<number[]> => {
      const samples: number[] = [];
      for (let i = 0; i < LATENCY_PER_BLOCK; i++) {
        const start = performance.now();
        await floorPost();
        samples.push(performance.now() - start);
      }
      return samples;
    };

    let id = 100;
    const throughput: SeriesPointReport[] = [];
    const p50s: SeriesPointReport[] = [];
    const p99s: SeriesPointReport[] = [];
    const commands: SeriesPointReport[] = [];
    const breakdowns: string[] = [];
    const redisCpu: SeriesPointReport[] = [];
    const brokerCpu: SeriesPointReport[] = [];
    const clients: BenchClient[] = [];
    for (const n of BROKERS) {
      while (agentDirs.length < n) await addBroker();
      // Room "t<n>-<i>": the author and its listener on broker i.
      const authors: BenchClient[] = [];
      for (let i = 0; i < n; i++) {
        const room = `t${n}-${i}`;
        authors.push(await member(brokerSocket(agentDirs[i] as string), `author-${i}`, room));
        clients.push(await member(brokerSocket(agentDirs[i] as string), `listener-${i}`, room));
      }
      // Room "l<n>": the latency author on broker 0, a listener on every other broker (broker 0 itself with one).
      const latencyRoom = `l${n}`;
      const latencyAuthor = await member(brokerSocket(agentDirs[0] as string), "lat-author", latencyRoom);
      const latencyListeners: BenchClient[] = [];
      for (let i = 0; i < Math.max(1, n - 1); i++) {
        latencyListeners.push(
          await member(brokerSocket(agentDirs[n === 1 ? 0 : i + 1] as string), `lat-listener-${i}`, latencyRoom),
        );
      }
      // Join events from the listeners just added land before anything counts.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const post = (room: string) => (): Buffer => encodeFrame({ id: ++id, op: "post", room, body: POST_BODY });
      const blockCommands: Map<string, number>[] = [];
      const blockRedisCpu: number[] = [];
      const blockBrokerCpu: number[] = [];
      /**
       * Every author keeps WINDOW posts in flight for BLOCK_MS; the rate is the replies that came back in that time,
       * over it (a fixed time rather than a fixed count, so authors the scheduler serves last do not leave a tail
       * that only some of them run in).
       */
      const brokerRate = async (): Promise<number> => {
        const before = await commandsServed(counter);
        const cpuBefore = await redisCpuMicros(counter);
        const brokerPids = children.map((child) => child.pid as number);
        const brokersBefore = processCpuMicros(brokerPids);
        let stopped = false;
        const bases = authors.map((author) => author.tally.total);
        const start = performance.now();
        const lanes = authors.map(async (author, i) => {
          const base = author.tally.total;
          let sent = 0;
          const refill = (): void => {
            const batch: Buffer[] = [];
            while (!stopped && sent - (author.tally.total - base) < WINDOW) {
              batch.push(post(`t${n}-${i}`)());
              sent++;
            }
            if (batch.length > 0) author.socket.write(Buffer.concat(batch));
          };
          refill();
          while (!stopped) {
            await author.until(author.tally.total + WINDOW / 2);
            refill();
          }
          await author.until(base + sent);
        });
        await new Promise((resolve) => setTimeout(resolve, BLOCK_MS));
        const answered = authors.reduce((sum, author, i) => sum + author.tally.total - (bases[i] as number), 0);
        const elapsed = performance.now() - start;
        stopped = true;
        await Promise.all(lanes);
        const all = authors.reduce((sum, author, i) => sum + author.tally.total - (bases[i] as number), 0);
        blockCommands.push(perPost(before, await commandsServed(counter), all));
        blockRedisCpu.push(((await redisCpuMicros(counter)) - cpuBefore) / all);
        blockBrokerCpu.push((processCpuMicros(brokerPids) - brokersBefore) / all);
        return answered / (elapsed / 1000);
      };
      const latencyOf = async (): Promise<number[]> => {
        const samples: number[] = [];
        for (let i = 0; i < LATENCY_PER_BLOCK; i++) {
          const waits = latencyListeners.map((listener) => listener.until(listener.tally.total + 1));
          const replied = latencyAuthor.until(latencyAuthor.tally.total + 1);
          const start = performance.now();
          latencyAuthor.socket.write(post(latencyRoom)());
          await Promise.all(waits);
          samples.push(performance.now() - start);
          await replied;
        }
        return samples;
      };
      await brokerRate();
      await latencyOf();
      blockCommands.length = 0;
      blockRedisCpu.length = 0;
      blockBrokerCpu.length = 0;
      const rates = await alternateBlocks(
        { brokers: brokerRate, bare: () => floorRate(FLOOR_POSTS) },
        { blocks: BLOCKS, warmupBlocks: 0 },
      );
      throughput.push({
        size: n,
        ratio: blockRatios(rates.brokers, rates.bare),
        sides: { subject: quantile(rates.brokers, 0.5), baseline: quantile(rates.bare, 0.5) },
      });
      redisCpu.push({ size: n, ratio: quantile(blockRedisCpu, 0.5) });
      brokerCpu.push({ size: n, ratio: quantile(blockBrokerCpu, 0.5) });
      const totals = blockCommands.map((calls) => [...calls.values()].reduce((a, b) => a + b, 0));
      commands.push({ size: n, ratio: quantile(totals, 0.5) });
      // The block whose total is the median, by command.
      const middle = blockCommands[totals.indexOf(quantile(totals, 0.5))] ?? new Map<string, number>();
      breakdowns.push(
        `${n}: ${[...middle.entries()]
          .sort((a, b) => b[1] - a[1])
          .map(([name, calls]) => `${name} ${calls.toFixed(2)}`)
          .join(", ")}`,
      );
      const latency = await alternateBlocks(
        { brokers: latencyOf, bare: floorLatency },
        { blocks: BLOCKS, warmupBlocks: 0 },
      );
      for (const [list, q] of [
        [p50s, 0.5],
        [p99s, 0.99],
      ] as const) {
        const subjects = latency.brokers.map((samples) => quantile(samples, q));
        const floors = latency.bare.map((samples) => quantile(samples, q));
        list.push({
          size: n,
          ratio: blockRatios(subjects, floors),
          sides: { subject: quantile(subjects, 0.5), baseline: quantile(floors, 0.5) },
        });
      }
      for (const client of [...authors, latencyAuthor, ...latencyListeners]) client.close();
    }
    for (const client of clients) client.close();

    const detail = `${BLOCKS} blocks a point; ${where}`;
    reportSeries({
      name: "roundtable-broker.redis-scaling-posts-per-second-vs-brokers",
      about:
        "Posts per second in total with 1 to 8 brokers on one Redis, each broker's author pipelining (window 32) into " +
        "a room of its own with one listener on the same broker, each point as a ratio to a bare client pipelining the store's EVALSHA for a " +
        "post (informative; the target is on the figure below).",
      sizeUnit: "brokers",
      unit: "posts/s vs EVALSHA/s",
      points: throughput,
      detail,
    });
    const one = throughput.find((p) => p.size === 1);
    const eight = throughput.find((p) => p.size === 8);
    const median = (p: SeriesPointReport | undefined): number =>
      p === undefined ? Number.NaN : typeof p.ratio === "number" ? p.ratio : p.ratio.median;
    reportRatio({
      name: "roundtable-broker.redis-throughput-8-vs-1-brokers",
      about:
        "Posts per second in total with 8 brokers on one Redis as a share of the same with 1 broker, each as its " +
        "ratio to the bare EVALSHA ceiling measured in the same blocks (the series above, its last point over its first).",
      ratio: median(eight) / median(one),
      target: { kind: "at-least", value: 0.8 },
      detail:
        `8 brokers ${Math.round(eight?.sides?.subject ?? 0)} posts/s, 1 broker ${Math.round(one?.sides?.subject ?? 0)} ` +
        `posts/s (median blocks); ${detail}`,
    });
    for (const [list, q] of [
      [p50s, "p50"],
      [p99s, "p99"],
    ] as const) {
      reportSeries({
        name: `roundtable-broker.redis-scaling-cross-broker-${q}-vs-brokers`,
        about:
          `One post on the first broker until a listener on every other broker has its post event (on the same broker ` +
          `with one), ${q}, with 1 to 8 brokers on one Redis, as a ratio to the bare EVALSHA round trip's ${q} ` +
          `(informative).`,
        sizeUnit: "brokers",
        unit: `ms (${q} per block)`,
        points: list,
        detail,
      });
    }
    reportSeries({
      name: "roundtable-broker.redis-scaling-commands-per-post-vs-brokers",
      about:
        "Redis commands per post (INFO commandstats around each throughput block: every command the brokers sent, " +
        "blocking reads and member refreshes included, and the calls a script makes, over the posts answered), with 1 " +
        "to 8 brokers (informative; a count, not a ratio).",
      sizeUnit: "brokers",
      points: commands,
      detail: `per post by command, per broker count: ${breakdowns.join("; ")}; ${detail}`,
    });
    reportSeries({
      name: "roundtable-broker.redis-scaling-redis-cpu-per-post-vs-brokers",
      about:
        "The Redis server's CPU per post (INFO cpu, user and system, around each throughput block, over the posts " +
        "answered) with 1 to 8 brokers: whether sharing one Redis costs Redis more per post (informative; " +
        "microseconds, not a ratio).",
      sizeUnit: "brokers",
      unit: "µs of Redis CPU per post",
      points: redisCpu,
      detail,
    });
    reportSeries({
      name: "roundtable-broker.redis-scaling-broker-cpu-per-post-vs-brokers",
      about:
        "The brokers' CPU per post, all of them together (/proc, around each throughput block, over the posts " +
        "answered), with 1 to 8 brokers: what more brokers cost per post on their side (informative; microseconds).",
      sizeUnit: "brokers",
      unit: "µs of broker CPU per post",
      points: brokerCpu,
      detail,
    });
  });
} finally {
  bare.disconnect();
  counter.disconnect();
  await server.close();
}
