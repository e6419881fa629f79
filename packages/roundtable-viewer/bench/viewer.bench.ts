// What watching costs the broker a viewer watches. Three identical brokers (bench/broker-entry.ts of the broker's
// benchmarks, bundled the way the bin is, answering its CPU time over IPC) take the same posts in alternating blocks:
// one watched by a viewer with ten open tabs (the viewer in its own process, as `roundtable view` runs, its tabs
// reading their event streams), one watched by a bare watcher that drops what it hears (bench/bare-watch.ts), and
// one nobody watches. Each block posts 10,000 messages of 200 characters, 32 in flight, into a room of the author and
// two listening members, and yields the broker's CPU per post (getrusage) and the posts per second. Figures:
// 1. the watched broker's CPU per post against the unwatched one's (target: at most 1.1x), with ten tabs and with a
//    bare watcher: what watching costs the broker itself, the judged figures;
// 2. posts/s with the viewer and ten tabs against the unwatched broker (target: at least 0.9x), and against the
//    bare-watched one (target: at least 0.9x): what the viewer's process, competing for the same cores, adds.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createRoundtableClient, type RoundtableClient } from "@orphus/roundtable-client";
import { alternateBlocks, blockRatios } from "../../../bench-support/harness.js";
import { benchNotes, reportRatio } from "../../../bench-support/report.js";
import { quantile } from "../../../bench-support/stats.js";
import {
  brokerSocket,
  bundledFanOutBroker,
  cpuMicros,
  spawnBroker,
  tempDir,
  withBenchScope,
} from "../../roundtable-broker/bench/support.js";

const POSTS = 10_000;
const IN_FLIGHT = 32;
const BODY = "x".repeat(200);
const TABS = 10;
const BLOCKS = 31;

benchNotes([
  "The broker's CPU per post is the judged figure: it is what watching costs the broker itself. Posts per second are " +
    "reported beside it with their own targets: on two cores the bench's clients, the broker and the viewer with its " +
    "tabs share the CPUs, so the viewer's own work (decoding the watch, writing ten event streams) competes with the " +
    "broker and shows in posts/s though the broker does no more per post; the CPU figure with ten tabs carries some " +
    "of that contention too, which the bare-watch figure shows apart.",
]);

interface Seat {
  readonly author: RoundtableClient;
  readonly broker: ChildProcess;
  readonly socketPath: string;
}

interface Block {
  readonly ms: number;
  /** The broker's CPU per post, in microseconds. */
  readonly cpu: number;
}

await withBenchScope(async ({ children, cleanups }) => {
  const program = await bundledFanOutBroker(cleanups);
  // Closed before the brokers stop (withBenchScope stops its children first), so no client sees its broker go.
  const clients: RoundtableClient[] = [];

  async function seat(): Promise<Seat> {
    const agentDir = tempDir(cleanups);
    const broker = await spawnBroker(program, agentDir, undefined, { cpuProbe: true });
    children.push(broker);
    const options = {
      agentDir,
      // The broker is started above; a client that lost it must not start another.
      brokerCommand: { command: process.execPath, args: ["-e", "process.exit(1)"] },
      onWarning: () => undefined,
    };
    const author = createRoundtableClient({ ...options, role: "author" });
    await author.join("bench");
    const listeners = [
      createRoundtableClient({ ...options, role: "planner" }),
      createRoundtableClient({ ...options, role: "critic" }),
    ];
    for (const listener of listeners) await listener.join("bench");
    clients.push(author, ...listeners);
    return { author, broker, socketPath: brokerSocket(agentDir) };
  }

  async function postBlock(target: Seat): Promise<Block> {
    const cpuBefore = await cpuMicros(target.broker);
    const start = performance.now();
    for (let sent = 0; sent < POSTS; sent += IN_FLIGHT) {
      const batch: Promise<unknown>[] = [];
      for (let i = 0; i < IN_FLIGHT && sent + i < POSTS; i++) batch.push(target.author.post("bench", BODY));
      await Promise.all(batch);
    }
    const ms = performance.now() - start;
    return { ms, cpu: ((await cpuMicros(target.broker)) - cpuBefore) / POSTS };
  }

  /** Starts one of this folder's programs from source (viewer-tabs.ts, bare-watch.ts); resolves once it is ready. */
  function startWatcher(name: string, socketPath: string): Promise<ChildProcess> {
    const child = spawn(
      process.execPath,
      ["--conditions=@orphus/source", "--import", "tsx", join(import.meta.dirname, name), socketPath, String(TABS)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    children.push(child);
    return new Promise((resolve) => child.stdout?.once("data", () => resolve(child)));
  }

  try {
    await measure();
  } finally {
    for (const client of clients) client.close();
  }

  async function measure(): Promise<void> {
    const watched = await seat();
    const bare = await seat();
    const alone = await seat();
    await startWatcher("viewer-tabs.ts", watched.socketPath);
    await startWatcher("bare-watch.ts", bare.socketPath);
    const blocks = await alternateBlocks(
      { watched: () => postBlock(watched), bare: () => postBlock(bare), alone: () => postBlock(alone) },
      { blocks: BLOCKS },
    );
    const of = (side: Block[], key: keyof Block): number[] => side.map((block) => block[key]);
    const median = (side: Block[], key: keyof Block): number => quantile(of(side, key), 0.5);
    const rate = (side: Block[]): number => Math.round((POSTS / median(side, "ms")) * 1000);
    const micros = (side: Block[]): string => `${median(side, "cpu").toFixed(1)} µs`;

    reportRatio({
      name: "roundtable-viewer.broker-cpu-per-post-with-ten-tabs",
      about: `the broker's CPU per post while a viewer with ${TABS} open tabs watches it, against an identical broker nobody watches`,
      ratio: blockRatios(of(blocks.watched, "cpu"), of(blocks.alone, "cpu")),
      target: { kind: "at-most", value: 1.1 },
      detail: `${micros(blocks.watched)} per post watched, ${micros(blocks.alone)} alone`,
      sides: { subject: median(blocks.watched, "cpu"), baseline: median(blocks.alone, "cpu"), unit: "µs CPU per post" },
    });
    reportRatio({
      name: "roundtable-viewer.broker-cpu-per-post-with-bare-watch",
      about: "the broker's CPU per post while a bare watcher watches it, against an identical broker nobody watches",
      ratio: blockRatios(of(blocks.bare, "cpu"), of(blocks.alone, "cpu")),
      target: { kind: "at-most", value: 1.1 },
      detail: `${micros(blocks.bare)} per post watched, ${micros(blocks.alone)} alone`,
      sides: { subject: median(blocks.bare, "cpu"), baseline: median(blocks.alone, "cpu"), unit: "µs CPU per post" },
    });
    reportRatio({
      name: "roundtable-viewer.posts-with-ten-tabs",
      about: `posts/s through a broker watched by a viewer with ${TABS} open tabs, against an identical broker nobody watches`,
      ratio: blockRatios(of(blocks.alone, "ms"), of(blocks.watched, "ms")),
      target: { kind: "at-least", value: 0.9 },
      detail: `${rate(blocks.watched)} posts/s watched, ${rate(blocks.alone)} alone`,
      sides: { subject: median(blocks.watched, "ms"), baseline: median(blocks.alone, "ms"), unit: "ms per block" },
    });
    reportRatio({
      name: "roundtable-viewer.posts-with-ten-tabs-vs-bare-watch",
      about: `posts/s through a broker watched by a viewer with ${TABS} open tabs, against one watched by a bare watcher`,
      ratio: blockRatios(of(blocks.bare, "ms"), of(blocks.watched, "ms")),
      target: { kind: "at-least", value: 0.9 },
      detail: `${rate(blocks.watched)} posts/s with the viewer, ${rate(blocks.bare)} with a bare watch`,
      sides: { subject: median(blocks.watched, "ms"), baseline: median(blocks.bare, "ms"), unit: "ms per block" },
    });
  }
});
