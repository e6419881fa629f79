// Client benchmarks, each a median ratio to a floor over alternating blocks of this one run (bench-support/harness.ts):
// 1. request round trip through the client (ids, timeouts, reply validation) against the same request written as a
//    raw frame on a raw socket to the same broker process. Target <= 2x at p50.
// 2. a cold first call (nothing answers, spawn the broker detached, retry the socket, hello, reply) against bare
//    `node -e 0` start-up to exit. Target <= 4x.
// 3. ping coalescing: ActivityCoalescer.push per event against a bare Map count per event. Target <= 20x.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { FrameDecoder, encodeFrame } from "@orphus/framing";
import { ActivityCoalescer, createRoundtableClient, type RoundtableClient } from "@orphus/roundtable-client";
import { alternateBlocks, blockRatios, compareInBlocks, elapsedMs } from "../../../bench-support/harness.js";
import { benchNotes, reportRatio } from "../../../bench-support/report.js";
import { quantile } from "../../../bench-support/stats.js";
import { brokerBin } from "../../../test-support/target.js";

benchNotes([
  "Of the cold first call, the broker's spawn varies most from block to block, so that figure's spread is the widest " +
    "here; the slower coalescing runs came with a busier host.",
]);

const bundle = await brokerBin();
const dirs: string[] = [];
const pids: number[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "rtcb-"));
  dirs.push(dir);
  return dir;
};
const clientOf = (agentDir: string, role: string): RoundtableClient =>
  createRoundtableClient({
    agentDir,
    role,
    brokerCommand: { command: process.execPath, args: [bundle.bin, "--agent-dir", agentDir, "--idle-ms", "200"] },
    onSpawn: (broker) => void (broker.pid !== undefined && pids.push(broker.pid)),
  });

/** A raw framed connection: write a frame, await the next frame back. */
async function rawConnection(
  socketPath: string,
): Promise<{ roundTrip: (frame: Buffer) => Promise<unknown>; socket: Socket }> {
  const socket = createConnection(socketPath);
  await new Promise((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  socket.on("error", () => undefined);
  const decoder = new FrameDecoder();
  let waiting: ((value: unknown) => void) | undefined;
  socket.on("data", (chunk) => decoder.push(chunk, (value) => waiting?.(value)));
  const roundTrip = (frame: Buffer): Promise<unknown> =>
    new Promise((resolve) => {
      waiting = resolve;
      socket.write(frame);
    });
  return { roundTrip, socket };
}

try {
  // --- 1. request round trip ---------------------------------------------------------------------------------
  const agentDir = tempDir();
  const client = clientOf(agentDir, "bench");
  await client.join("rtt");
  const raw = await rawConnection(join(agentDir, "roundtable", "broker.sock"));
  await raw.roundTrip(
    encodeFrame({ id: 0, op: "hello", protocol: "orphus-roundtable", version: 1, role: "raw", pid: 1 }),
  );
  let id = 1;
  const rawMembers = (): Promise<unknown> => raw.roundTrip(encodeFrame({ id: id++, op: "members", room: "rtt" }));
  const BLOCKS = 8;
  const PER_BLOCK = 400;
  for (let i = 0; i < 2000; i++) {
    await client.members("rtt");
    await rawMembers();
  }
  const sampled = async (call: () => Promise<unknown>): Promise<number[]> => {
    const samples: number[] = [];
    for (let i = 0; i < PER_BLOCK; i++) {
      const start = performance.now();
      await call();
      samples.push(performance.now() - start);
    }
    return samples;
  };
  const trips = await alternateBlocks(
    { client: () => sampled(() => client.members("rtt")), raw: () => sampled(rawMembers) },
    { blocks: BLOCKS, warmupBlocks: 0 },
  );
  const us = (ms: number): string => `${(ms * 1000).toFixed(1)} µs`;
  const p50 = (samples: number[]): number => quantile(samples, 0.5);
  reportRatio({
    name: "roundtable-client.request-round-trip-p50",
    about:
      "A members request through the client (ids, timeouts, reply validation), p50, against the same request written " +
      "as a raw frame on a raw socket to the same broker process.",
    ratio: blockRatios(trips.client.map(p50), trips.raw.map(p50)),
    target: { kind: "at-most", value: 2 },
    sides: { subject: p50(trips.client.flat()), baseline: p50(trips.raw.flat()), unit: "ms (p50)" },
    detail:
      `client.members ${us(p50(trips.client.flat()))} vs the raw frame ${us(p50(trips.raw.flat()))} ` +
      `(${BLOCKS} alternating blocks of ${PER_BLOCK} each)`,
  });
  raw.socket.destroy();
  client.close();

  // --- 2. cold first call ------------------------------------------------------------------------------------
  await compareInBlocks({
    name: "roundtable-client.cold-first-call",
    about:
      "A first call with no broker running (spawn the bundled broker detached, retry the socket, hello, reply), " +
      "against bare `node -e 0` from start to exit.",
    unit: "ms per call or start",
    blocks: 5,
    subject: () =>
      elapsedMs(async () => {
        const dir = tempDir();
        const cold = clientOf(dir, "cold");
        await cold.rooms();
        cold.close();
        const pid = pids.pop();
        if (pid !== undefined) process.kill(pid, "SIGKILL");
      }),
    baseline: () => elapsedMs(() => execFileSync(process.execPath, ["-e", "0"])),
    target: { kind: "at-most", value: 4 },
    detail: ({ subject, baseline }) =>
      `first rooms() with a broker spawn ${subject.toFixed(0)} ms vs bare node start-up ${baseline.toFixed(0)} ms`,
  });

  // --- 3. ping coalescing ------------------------------------------------------------------------------------
  const EVENTS = 200_000;
  const rooms = ["design", "ops", "review"];
  const authors = ["planner", "critic", "reviewer", "scribe", "lead"];
  const events = Array.from({ length: EVENTS }, (_, i) => ({
    event: "post",
    room: rooms[i % 3] as string,
    seq: i + 1,
    author: authors[i % 5] as string,
  }));
  let notices = 0;
  const timers = { setTimeout: () => 0, clearTimeout: () => undefined, now: () => 0 };
  let counted = 0;
  await compareInBlocks({
    name: "roundtable-client.ping-coalescing",
    about: "ActivityCoalescer.push per post event against a bare Map count per event.",
    unit: `ms per ${EVENTS.toLocaleString("en")} events`,
    blocks: 7,
    subject: () =>
      elapsedMs(() => {
        const coalescer = new ActivityCoalescer({ onNotice: () => notices++, timers });
        for (const event of events) coalescer.push(event);
        coalescer.flush();
      }),
    baseline: () =>
      elapsedMs(() => {
        const counts = new Map<string, number>();
        for (const event of events) counts.set(event.room, (counts.get(event.room) ?? 0) + 1);
        counted += counts.size;
      }),
    target: { kind: "at-most", value: 20 },
    detail: ({ subject, baseline }) =>
      `${((subject * 1e6) / EVENTS).toFixed(0)} ns per event vs ${((baseline * 1e6) / EVENTS).toFixed(0)} ns ` +
      `for a bare Map count (${notices} notices, ${counted} room counts)`,
  });
} finally {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  bundle.remove();
}
