// Post round trip and pipelined posts, against a broker in a separate process, each as a ratio to a raw echo of
// the same frames over a Unix socket to a separate process (the floor). Measured in one run, in alternating blocks
// (bench-support/harness.ts): each figure is the median of per-block ratios, printed with its spread.
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { encodeFrame } from "@orphus/framing";
import { alternateBlocks, blockRatios } from "../../../bench-support/harness.js";
import { reportRatio } from "../../../bench-support/report.js";
import { quantile } from "../../../bench-support/stats.js";
import { BenchClient, bundledBin, member, spawnBroker, spawnEcho, stop, tempDir } from "./support.js";

const BODY = "The ring keeps 500 messages; sequence numbers are never reused, so afterSeq stays stable. ".repeat(2);
const WARMUP = 3000;
const BLOCKS = 8;
const PER_BLOCK = 500;
const PIPELINED = 20_000;
const PIPELINED_BLOCKS = 5;
const WINDOW = 256;
const PING_MEMBERS = 8;

const cleanups: (() => void)[] = [];
const children: Awaited<ReturnType<typeof spawnBroker>>[] = [];
try {
  const bin = await bundledBin(cleanups);
  const agentDir = tempDir(cleanups);
  children.push(await spawnBroker(bin, agentDir));
  const brokerSocket = join(agentDir, "roundtable", "broker.sock");
  const echoSocket = join(tempDir(cleanups), "echo.sock");
  children.push(await spawnEcho(echoSocket));
  const framedSocket = join(tempDir(cleanups), "framed.sock");
  children.push(await spawnEcho(framedSocket, true));

  // --- post round trip -----------------------------------------------------------------------------------------
  const poster = await member(brokerSocket, "poster", "rtt");
  const echo = await BenchClient.connect(echoSocket);
  const framed = await BenchClient.connect(framedSocket);
  let id = 10;
  const post = (): Buffer => encodeFrame({ id: ++id, op: "post", room: "rtt", body: BODY });
  // The echo gets a frame of the same size as a post request (the same bytes, in fact).
  const echoFrame = post();
  const time = async (client: BenchClient, frame: () => Buffer): Promise<number[]> => {
    const samples: number[] = [];
    for (let i = 0; i < PER_BLOCK; i++) {
      const bytes = frame();
      const start = performance.now();
      await client.roundTrip(bytes);
      samples.push(performance.now() - start);
    }
    return samples;
  };
  for (let i = 0; i < WARMUP; i++) {
    await poster.roundTrip(post());
    await echo.roundTrip(echoFrame);
    await framed.roundTrip(echoFrame);
  }
  // Each block is PER_BLOCK round trips on one side; the harness rotates which side goes first. The p50 and p99
  // ratios are taken per block, then their median and spread reported.
  const blocks = await alternateBlocks(
    {
      broker: () => time(poster, post),
      echo: () => time(echo, () => echoFrame),
      framed: () => time(framed, () => echoFrame),
    },
    { blocks: BLOCKS, warmupBlocks: 0 }
  );
  const us = (ms: number): string => `${(ms * 1000).toFixed(1)} µs`;
  const at = (q: number) => (samples: number[]) => quantile(samples, q);
  const pooled = (samples: number[][], q: number): number => quantile(samples.flat(), q);
  reportRatio({
    name: "roundtable-broker.post-round-trip-p50",
    ratio: blockRatios(blocks.broker.map(at(0.5)), blocks.echo.map(at(0.5))),
    target: { kind: "at-most", value: 1.5 },
    detail:
      `post ${us(pooled(blocks.broker, 0.5))} vs raw echo ${us(pooled(blocks.echo, 0.5))} ` +
      `(${echoFrame.length}-byte frames, ${BLOCKS} blocks of ${PER_BLOCK} each)`,
  });
  reportRatio({
    name: "roundtable-broker.post-round-trip-p99",
    ratio: blockRatios(blocks.broker.map(at(0.99)), blocks.echo.map(at(0.99))),
    detail: `post ${us(pooled(blocks.broker, 0.99))} vs raw echo ${us(pooled(blocks.echo, 0.99))}`,
  });
  reportRatio({
    name: "roundtable-broker.post-round-trip-p50-vs-framed-js-echo",
    ratio: blockRatios(blocks.broker.map(at(0.5)), blocks.framed.map(at(0.5))),
    detail:
      `post ${us(pooled(blocks.broker, 0.5))} vs a JS server that only decodes and encodes ` +
      `${us(pooled(blocks.framed, 0.5))} (informative, no target)`,
  });
  poster.close();
  framed.close();

  // --- pipelined posts with 8 members receiving pings --------------------------------------------------------
  const author = await member(brokerSocket, "author", "pipe");
  const listeners = await Promise.all(
    Array.from({ length: PING_MEMBERS }, (_, i) => member(brokerSocket, `listener-${i}`, "pipe"))
  );
  const pipelined = async (client: BenchClient, frame: () => Buffer, count: number): Promise<number> => {
    const base = client.received;
    let sent = 0;
    const start = performance.now();
    const refill = (): void => {
      const batch: Buffer[] = [];
      while (sent < count && sent - (client.received - base) < WINDOW) {
        batch.push(frame());
        sent++;
      }
      if (batch.length > 0) client.socket.write(Buffer.concat(batch));
    };
    refill();
    while (client.received - base < count) {
      await client.until(Math.min(base + count, client.received + WINDOW / 2));
      refill();
    }
    return count / ((performance.now() - start) / 1000);
  };
  const authorPost = (): Buffer => encodeFrame({ id: ++id, op: "post", room: "pipe", body: BODY });
  await pipelined(author, authorPost, 2000);
  await pipelined(echo, () => echoFrame, 2000);
  const pingsBefore = listeners.reduce((sum, l) => sum + l.received, 0);
  // Rates, so the ratio is posts/s over echoes/s: the share of the raw echo's rate the broker reaches.
  const rates = await alternateBlocks(
    {
      posts: () => pipelined(author, authorPost, PIPELINED),
      echoes: () => pipelined(echo, () => echoFrame, PIPELINED),
    },
    { blocks: PIPELINED_BLOCKS, warmupBlocks: 0 }
  );
  // Let the last pings land before counting them.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const pings = listeners.reduce((sum, l) => sum + l.received, 0) - pingsBefore;
  const posted = PIPELINED * PIPELINED_BLOCKS;
  reportRatio({
    name: "roundtable-broker.pipelined-posts-8-members",
    ratio: blockRatios(rates.posts, rates.echoes),
    detail:
      `${Math.round(quantile(rates.posts, 0.5))} posts/s with ${PING_MEMBERS} members pinged vs ` +
      `${Math.round(quantile(rates.echoes, 0.5))} raw echoes/s (median blocks, window ${WINDOW}); ` +
      `${pings} of ${posted * PING_MEMBERS} pings delivered`,
  });
  for (const client of [author, echo, ...listeners]) client.close();
} finally {
  await Promise.all(children.map(stop));
  for (const cleanup of cleanups.reverse()) cleanup();
}
