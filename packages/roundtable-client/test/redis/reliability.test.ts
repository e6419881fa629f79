// Reliability on a shared Redis store: two brokers (two agent directories, as two hosts would have) on one real
// redis-server. Load: the memory store's load scenario (test-support/reliability/load-scenario.ts), 2 brokers x 16
// client processes x 200 posts into rooms whose members sit on both brokers, accounted message by message. Outage:
// Redis stopped for 5 s in the middle of a steady load: every call ends (acknowledged or refused with a code) within
// its timeout, nothing acknowledged is lost or stored twice, and service resumes by itself. Figures are printed as
// `[reliability] …` lines for docs/reliability.md.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startRedisServer, type RedisServer } from "../../../../test-support/redis-server.js";
import { createRoundtableClient } from "@orphus/roundtable-client";
import { until } from "../../../../test-support/poll.js";
import {
  fixed,
  onCleanup,
  report,
  sleep,
  spawnBroker,
  startDriver,
  useHarness,
  type Driver,
  type DriverMessage,
} from "../../../../test-support/reliability/harness.js";
import { tempDir } from "../../../../test-support/tmp.js";
import { bodyOf } from "../../../../test-support/reliability/ledger.js";
import { runLoadScenario } from "../../../../test-support/reliability/load-scenario.js";

const harness = useHarness();

let redis: RedisServer;
beforeAll(async () => {
  // Append-only with fsync on every write: a Redis stopped and started again keeps what it acknowledged.
  redis = await startRedisServer({ persistence: true });
});
afterAll(async () => {
  await redis?.close();
});

const BROKERS = 2;
const CLIENTS_PER_BROKER = 16;
const POSTS = 200;
const ROOMS = 4;
const READ_EVERY = 10;
const BUDGET = 800;
const RING = 500;

test(`${BROKERS} brokers x ${CLIENTS_PER_BROKER} clients x ${POSTS} posts on one Redis: nothing lost, nothing twice`, async () => {
  const prefix = `load-${Date.now()}`;
  const processes = BROKERS * CLIENTS_PER_BROKER;
  const run = await runLoadScenario(harness.bundles(), {
    agentDirs: Array.from({ length: BROKERS }, () => tempDir()),
    env: { ORPHUS_ROUNDTABLE_STORE: redis.url },
    processes,
    rooms: ROOMS,
    posts: POSTS,
    readEvery: READ_EVERY,
    budget: BUDGET,
    ring: RING,
    deadlineMs: 110_000,
    // Process i sits on broker i % 2, in room (i / 2) % 4: every room has members on both brokers, and its seqs must
    // still be exactly 1..N though two brokers allocated them.
    roomOf: (i) => Math.floor(i / BROKERS) % ROOMS,
    roomName: (room) => `${prefix}-${room}`,
  });
  const { results, perRoom, audit } = run;
  report("redis-load", {
    brokers: BROKERS,
    processes,
    rooms: ROOMS,
    posts: processes * POSTS,
    acked: results.reduce((sum, r) => sum + r.acks.length, 0),
    perRoomSeqs: `1..${perRoom}`,
    digests: results.reduce((sum, r) => sum + r.digests, 0),
    messagesRead: audit.read,
    reportedEvicted: audit.evicted,
    maxBudgetedChars: Math.max(...results.map((r) => r.maxBudgetedChars)),
    budget: BUDGET,
    startToReadyMs: run.startToReadyMs,
    postingMs: run.postingMs,
    postsPerSecond: fixed((processes * POSTS) / (run.postingMs / 1000), 0),
    totalMs: run.totalMs,
  });
});

const STEADY_CLIENTS_PER_BROKER = 8;
const STEADY_POSTS = 30;
const EVERY_MS = 200;
const REQUEST_TIMEOUT_MS = 5_000;
const OUTAGE_MS = 5_000;

test(`Redis stopped for ${OUTAGE_MS / 1000} s mid-load: every call ends within its timeout, nothing acknowledged is lost`, async () => {
  const bundles = harness.bundles();
  const room = `outage-${Date.now()}`;
  const env = { ORPHUS_ROUNDTABLE_STORE: redis.url };
  const agentDirs = Array.from({ length: BROKERS }, () => tempDir());
  const brokers = await Promise.all(agentDirs.map((dir) => spawnBroker(bundles, dir, ["--idle-ms", "60000"], { env })));
  const processes = BROKERS * STEADY_CLIENTS_PER_BROKER;
  const drivers = Array.from({ length: processes }, (_, i) =>
    startDriver(bundles, "steady", {
      agentDir: agentDirs[i % BROKERS],
      role: `s${String(i).padStart(2, "0")}`,
      room,
      posts: STEADY_POSTS,
      everyMs: EVERY_MS,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      deadlineMs: 90_000,
    }),
  );
  await Promise.all(drivers.map((d) => d.next("ready")));
  for (const driver of drivers) driver.send("go");
  const started = Date.now();
  const ended = (driver: Driver, ok: boolean): number =>
    driver.messages.filter((m) => m.type === "call" && m["ok"] === ok).length;
  // Stop Redis a third of the way into the load (once a third of the posts are acknowledged), for OUTAGE_MS and until
  // every client has met the outage (had a call refused), then start it again on the same data.
  await until(() => drivers.reduce((sum, d) => sum + ended(d, true), 0) >= (processes * STEADY_POSTS) / 3, {
    timeoutMs: 60_000,
    what: "a third of the posts acknowledged",
  });
  const stoppedAt = Date.now() - started;
  await redis.stop();
  await sleep(OUTAGE_MS);
  await until(() => drivers.every((d) => ended(d, false) > 0), { what: "every client has met the outage" });
  await redis.start();
  const restartedAt = Date.now() - started;
  const results = (await Promise.all(drivers.map((d) => d.next("result")))) as (DriverMessage & {
    role: string;
    calls: [number, number, number, number, string][];
    acks: [number, number][];
  })[];
  expect((await Promise.all(drivers.map((d) => d.exit))).map((e) => e.code)).toEqual(drivers.map(() => 0));

  const calls = results.flatMap((r) => r.calls);
  const failures = calls.filter(([, , , , outcome]) => !outcome.startsWith("#"));
  // The outage was met, every call ended within its timeout, and every failure carried a code saying why.
  expect(failures.length).toBeGreaterThan(0);
  const slowest = Math.max(...calls.map(([, , , ms]) => ms));
  expect(slowest).toBeLessThanOrEqual(REQUEST_TIMEOUT_MS + 500);
  const codes = new Set(failures.map(([, , , , outcome]) => outcome));
  expect([...codes].every((code) => code === "ERR_STORE_UNAVAILABLE" || code === "ERR_REQUEST_TIMEOUT")).toBe(true);
  // Every post acknowledged, under its own seq, and the room holds each exactly once: 1..N, nothing lost or doubled.
  for (const result of results)
    expect(result.acks.map(([index]) => index)).toEqual(Array.from({ length: STEADY_POSTS }, (_, i) => i + 1));
  const total = processes * STEADY_POSTS;
  const acked = new Map(results.flatMap((r) => r.acks.map(([index, seq]) => [seq, bodyOf(r.role, index)] as const)));
  expect([...acked.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  const checker = createRoundtableClient({
    agentDir: agentDirs[0],
    role: "checker",
    spawnBroker: false,
    onWarning: () => undefined,
  });
  onCleanup(() => checker.close());
  await until(
    async () =>
      await checker.join(room).then(
        () => true,
        () => false,
      ),
    {
      timeoutMs: 10_000,
      what: "the store answers the checker",
    },
  );
  const stored = new Map<number, string>();
  for (let after = 0; ;) {
    const page = await checker.fetch(room, { afterSeq: after, limit: 200, maxChars: 500_000 });
    for (const message of page.messages) stored.set(message.seq, message.body);
    if (!page.more) break;
    after = page.nextAfterSeq;
  }
  expect(stored).toEqual(acked);
  // Service resumed by itself: the first acknowledgement after the restart, on each broker.
  const resumedAfter = Math.min(
    ...calls
      .filter(([, , at, ms, outcome]) => outcome.startsWith("#") && at + ms >= restartedAt)
      .map(([, , at, ms]) => at + ms),
  );
  report("redis-outage", {
    brokers: BROKERS,
    processes,
    posts: total,
    calls: calls.length,
    refused: failures.length,
    codes: [...codes].sort().join("+"),
    slowestCallMs: slowest,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    redisStoppedAtMs: stoppedAt,
    outageMs: restartedAt - stoppedAt,
    firstAckAfterRestartMs: resumedAfter - restartedAt,
    storedOnce: stored.size,
  });
  for (const broker of brokers) expect(broker.child.exitCode).toBeNull();
});
