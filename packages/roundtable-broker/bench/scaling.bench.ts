// How the broker's cost grows with the work: scaling series (bench-support/series.ts) of one post at a time, each
// point the broker's CPU per post and the post's round trip (written until its reply and every listener's post event
// are in) against a fixed floor measured in the same blocks: a raw echo, in its own process, of a post frame of the
// benchmarks' 180-character body, its CPU per frame and its round trip. Four series, each over one dimension with the others held:
// - members: listeners in the room, 1 → 32 (target: CPU exponent ≤ 1.1, the fan-out linear at worst);
// - rooms: rooms the broker holds beside the one posted to (4 listeners), 1 → 64 (target: CPU exponent ≤ 0.1, flat);
// - idle connections: connections that said hello and sit idle, 1 → 256 (target: CPU exponent ≤ 0.1, flat);
// - body size: 200 B → 32 KiB, 4 listeners (informative: the bytes are copied to each listener's socket).
// The p50 and p99 series are informative. CPU comes from each process's getrusage over an IPC channel. Client and
// servers run on one CPU (the runner's --cpu, or CPU 0 when it pins nothing; see the notes).
import { encodeFrame } from "@orphus/framing";
import { performance } from "node:perf_hooks";
import { join } from "node:path";
import { alternateBlocks, blockRatios } from "../../../bench-support/harness.js";
import { benchNotes } from "../../../bench-support/report.js";
import { reportSeries, type SeriesPointReport } from "../../../bench-support/series.js";
import { quantile } from "../../../bench-support/stats.js";
import { benchCpu, pinCurrentProcess, tasksetAvailable } from "../../../bench-support/cpu.js";
import {
  BenchClient,
  FrameTally,
  POST_BODY,
  brokerSocket,
  bundledFanOutBroker,
  cpuMicros,
  helloFrame,
  member,
  spawnBroker,
  spawnFloor,
  tempDir,
  withBenchScope,
} from "./support.js";

benchNotes([
  "Why the series run on one CPU even when the runner pins nothing: unpinned, over two runs of the same build on a " +
    "quiet machine, the per-block ratios of a point spread from 1.0x to 4.5x, and the fitted exponents moved between " +
    "runs from -0.029 to 0.120 for idle connections and from 0.058 to 0.118 for rooms (the largest size's point " +
    "alone twice the others in one run). With client and servers on CPU 0, two runs gave interquartile ranges " +
    "within about 10% of each point and exponents of -0.015 and 0.003 for rooms, -0.000 and -0.014 for idle " +
    "connections. The scheduler's placement is what moved: a post that wakes a broker idle on the other CPU charges " +
    "the wake-up to it. The unpinned fan-out figures of fan-out.bench.ts keep the placement a user's machine gives.",
  "Each point is one post at a time, so a point's CPU per post is the broker's whole cost of a post (decode, the " +
    "room, the reply, one posts event per listener) and its round trip is the slowest listener's; the floor is the " +
    "same at every point, so the exponent is the broker's own growth. From 1 to 32 listeners the fixed part of a post " +
    "(decode, store, reply) is spread over more writes, so a linear fan-out shows an exponent below 1.",
]);

const BLOCKS = 9;
const PER_BLOCK = 300;
const WARMUP_POSTS = 300;
const FIRST_WARMUP_POSTS = 3_000;
const WIDTH = 4;

interface BlockFigures {
  readonly cpu: number;
  readonly p50: number;
  readonly p99: number;
}

/**
 * Client and servers on one CPU, as the runner's --cpu gives: this one when the runner pinned nothing (children spawned
 * afterwards inherit it). Unpinned, a point's CPU per post depends on whether the scheduler put the broker beside its
 * client (a wake-up from idle is charged to the process woken), so per-block ratios spread from 1x to 4.5x and one
 * point could tilt a fit; pinned, they fall within about a tenth (see the notes).
 */
const pinnedHere = benchCpu() === undefined && tasksetAvailable() ? 0 : undefined;
if (pinnedHere !== undefined) pinCurrentProcess(pinnedHere);
const cpu = benchCpu() ?? pinnedHere;
const where = cpu === undefined ? "unpinned" : `client and servers pinned to CPU ${cpu}`;

await withBenchScope(async ({ children, cleanups }) => {
  const program = await bundledFanOutBroker(cleanups);
  const agentDir = tempDir(cleanups);
  const broker = await spawnBroker(program, agentDir, undefined, { cpuProbe: true });
  children.push(broker);
  const socket = brokerSocket(agentDir);
  const echoPath = join(tempDir(cleanups), "echo.sock");
  const echo = await spawnFloor("echo", echoPath, { cpuProbe: true });
  children.push(echo);
  const echoClient = await BenchClient.connect(echoPath);

  let id = 100;
  const postFrame = (room: string, body: string): Buffer => encodeFrame({ id: ++id, op: "post", room, body });

  /** One block of posts by `author` to `listeners`: the broker's CPU per post (µs) and the round trip's p50/p99. */
  const postBlock = async (
    author: BenchClient,
    listeners: { tally: FrameTally; count: number },
    room: string,
    body: string,
    count: number,
  ): Promise<BlockFigures> => {
    const samples: number[] = [];
    const before = await cpuMicros(broker);
    for (let i = 0; i < count; i++) {
      const frame = postFrame(room, body);
      const heard = listeners.tally.until(listeners.tally.total + listeners.count);
      const answered = author.until(author.tally.total + 1);
      const start = performance.now();
      author.socket.write(frame);
      await Promise.all([heard, answered]);
      samples.push(performance.now() - start);
    }
    const cpu = ((await cpuMicros(broker)) - before) / count;
    return { cpu, p50: quantile(samples, 0.5), p99: quantile(samples, 0.99) };
  };
  /** One block of the floor: frames of `size` bytes echoed; its CPU per frame (µs) and round trip p50/p99. */
  const echoBlock = async (frame: Buffer, count: number): Promise<BlockFigures> => {
    const samples: number[] = [];
    const before = await cpuMicros(echo);
    for (let i = 0; i < count; i++) {
      const start = performance.now();
      await echoClient.roundTrip(frame);
      samples.push(performance.now() - start);
    }
    const cpu = ((await cpuMicros(echo)) - before) / count;
    return { cpu, p50: quantile(samples, 0.5), p99: quantile(samples, 0.99) };
  };
  const floorFrame = postFrame("floor", POST_BODY);

  /** Measures one point: the subject and the floor in alternating blocks; returns its three figures. */
  const point = async (
    size: number,
    subject: () => Promise<BlockFigures>,
    floor: () => Promise<BlockFigures>,
  ): Promise<Record<keyof BlockFigures, SeriesPointReport>> => {
    const blocks = await alternateBlocks({ subject, floor }, { blocks: BLOCKS, warmupBlocks: 1 });
    const of = (key: keyof BlockFigures): SeriesPointReport => {
      const subjects = blocks.subject.map((block) => block[key]);
      const floors = blocks.floor.map((block) => block[key]);
      return {
        size,
        ratio: blockRatios(subjects, floors),
        sides: { subject: quantile(subjects, 0.5), baseline: quantile(floors, 0.5) },
      };
    };
    return { cpu: of("cpu"), p50: of("p50"), p99: of("p99") };
  };

  /** Reports the three series of one dimension; the CPU series carries the target. */
  const report = (
    dimension: string,
    sizeUnit: string,
    what: string,
    points: readonly Record<keyof BlockFigures, SeriesPointReport>[],
    target?: number,
  ): void => {
    const floor = "a raw echo of a 180-character post frame in its own process, measured in the same blocks";
    reportSeries({
      name: `roundtable-broker.scaling-cpu-per-post-vs-${dimension}`,
      about: `The broker's CPU per post against ${what}, each point as a ratio to the CPU per frame of ${floor}.`,
      sizeUnit,
      unit: "µs CPU per post vs per echoed frame",
      points: points.map((p) => p.cpu),
      ...(target === undefined ? {} : { target: { kind: "at-most" as const, value: target } }),
      detail: `${BLOCKS} blocks of ${PER_BLOCK} posts a point; ${where}`,
    });
    for (const quantileName of ["p50", "p99"] as const) {
      reportSeries({
        name: `roundtable-broker.scaling-round-trip-${quantileName}-vs-${dimension}`,
        about:
          `A post's round trip (until its reply and every listener's post event are in), ${quantileName}, against ` +
          `${what}, each point as a ratio to the same ${quantileName} of ${floor} (informative).`,
        sizeUnit,
        unit: `ms (${quantileName} per block)`,
        points: points.map((p) => p[quantileName]),
        detail: `${BLOCKS} blocks of ${PER_BLOCK} posts a point; ${where}`,
      });
    }
  };

  // --- members: listeners 1 → 32 in room "m" ---------------------------------------------------------------------
  {
    // The file's first point: broker and echo warmed well beyond a point's own warm-up block first, since a cold
    // first point weighs on the fitted exponent as much as the other five together.
    const first = await member(socket, "warm-author", "warm");
    const warmTally = new FrameTally();
    await member(socket, "warm-listener", "warm", warmTally);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await postBlock(first, { tally: warmTally, count: 1 }, "warm", POST_BODY, FIRST_WARMUP_POSTS);
    await echoBlock(floorFrame, FIRST_WARMUP_POSTS);
    first.close();
    const author = await member(socket, "m-author", "m");
    const tally = new FrameTally();
    const clients: BenchClient[] = [];
    const points = [];
    for (const size of [1, 2, 4, 8, 16, 32]) {
      while (clients.length < size) clients.push(await member(socket, `m-listener-${clients.length}`, "m", tally));
      const listeners = { tally, count: size };
      // Join events of the listeners just added reach the author and earlier listeners: let them land first.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await postBlock(author, listeners, "m", POST_BODY, WARMUP_POSTS);
      points.push(
        await point(
          size,
          () => postBlock(author, listeners, "m", POST_BODY, PER_BLOCK),
          () => echoBlock(floorFrame, PER_BLOCK),
        ),
      );
    }
    report("members", "members", "the listeners in the room, 1 to 32", points, 1.1);
    author.close();
    for (const client of clients) client.close();
  }

  // A room of WIDTH listeners that the next series post to.
  const author = await member(socket, "w-author", "w");
  const tally = new FrameTally();
  const listenerClients: BenchClient[] = [];
  for (let i = 0; i < WIDTH; i++) listenerClients.push(await member(socket, `w-listener-${i}`, "w", tally));
  const listeners = { tally, count: WIDTH };
  await new Promise((resolve) => setTimeout(resolve, 50));
  await postBlock(author, listeners, "w", POST_BODY, WARMUP_POSTS);

  // --- rooms: 1 → 64 rooms held, posts to one of them ---------------------------------------------------------------
  {
    const holders: BenchClient[] = [];
    const points = [];
    let rooms = 1;
    for (const size of [1, 2, 4, 8, 16, 32, 64]) {
      while (rooms < size) {
        // Each other room has a member of its own who posted once, so it holds a message like a room in use.
        const holder = await member(socket, `holder-${rooms}`, `r${rooms}`);
        await holder.request({ id: 3, op: "post", room: `r${rooms}`, body: POST_BODY });
        holders.push(holder);
        rooms++;
      }
      points.push(
        await point(
          size,
          () => postBlock(author, listeners, "w", POST_BODY, PER_BLOCK),
          () => echoBlock(floorFrame, PER_BLOCK),
        ),
      );
    }
    report(
      "rooms",
      "rooms",
      `the rooms the broker holds (one posted to, with ${WIDTH} listeners), 1 to 64`,
      points,
      0.1,
    );
    for (const holder of holders) holder.close();
  }

  // --- idle connections: 1 → 256 connections that said hello and do nothing -------------------------------------
  {
    const idle: BenchClient[] = [];
    const points = [];
    for (const size of [1, 4, 16, 64, 256]) {
      while (idle.length < size) {
        const client = await BenchClient.connect(socket);
        client.socket.write(helloFrame(`idle-${idle.length}`));
        await client.until(1);
        idle.push(client);
      }
      points.push(
        await point(
          size,
          () => postBlock(author, listeners, "w", POST_BODY, PER_BLOCK),
          () => echoBlock(floorFrame, PER_BLOCK),
        ),
      );
    }
    report(
      "idle-connections",
      "idle connections",
      `idle connections beside a room of ${WIDTH} listeners, 1 to 256`,
      points,
      0.1,
    );
    for (const client of idle) client.close();
  }

  // --- body size: 200 B → 32 KiB ----------------------------------------------------------------------------------
  {
    const points = [];
    for (const size of [200, 1024, 4096, 16_384, 32_768]) {
      const body = "x".repeat(size);
      await postBlock(author, listeners, "w", body, 50);
      points.push(
        await point(
          size,
          () => postBlock(author, listeners, "w", body, PER_BLOCK),
          () => echoBlock(floorFrame, PER_BLOCK),
        ),
      );
    }
    report("body-bytes", "body bytes", `the body size, 200 B to 32 KiB, to ${WIDTH} listeners`, points);
  }
  author.close();
  for (const client of listenerClients) client.close();
  echoClient.close();
});
