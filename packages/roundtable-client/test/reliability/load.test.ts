// Load: 32 client processes post 200 messages each into 4 rooms at once, reading digests as they go. Every post is
// acknowledged, each room numbers its messages exactly 1..N, every member accounts for every message of its room
// (read in a digest, fetched after a digest collapsed it, its own, or reported evicted once it had left the ring),
// and every digest keeps its bound. One member reads nothing until it has posted everything, so the ring's eviction
// is exercised too: what it missed must be reported evicted, and only what had truly left the 500-message window.
import { expect, test } from "vitest";
import { until } from "../../../../test-support/poll.js";
import { fixed, report, spawnBroker, startDriver, useHarness, type DriverMessage } from "../../../../test-support/reliability/harness.js";
import { auditLoad } from "../../../../test-support/reliability/audit.js";
import type { Ledger } from "../../../../test-support/reliability/ledger.js";
import { tempDir } from "../../../../test-support/tmp.js";

const harness = useHarness();

const PROCESSES = 32;
const ROOMS = 4;
const POSTS = 200;
const READ_EVERY = 10;
const BUDGET = 800;
const RING = 500;

test(`${PROCESSES} processes x ${POSTS} posts into ${ROOMS} rooms: nothing lost, nothing twice, every digest bounded`, async () => {
  const bundles = harness.bundles();
  const agentDir = tempDir();
  // Idle time past the 32 processes' start-up, so the broker does not leave before the first of them connects.
  const broker = await spawnBroker(bundles, agentDir, ["--idle-ms", "60000"]);
  const perRoom = (PROCESSES / ROOMS) * POSTS;
  const started = Date.now();
  const drivers = Array.from({ length: PROCESSES }, (_, i) =>
    startDriver(bundles, "load", {
      agentDir,
      role: `r${String(i).padStart(2, "0")}`,
      room: `room-${i % ROOMS}`,
      posts: POSTS,
      // The laggard: no reading while posting.
      readEvery: i === PROCESSES - 1 ? POSTS + 1 : READ_EVERY,
      budget: BUDGET,
      capacity: RING,
      expectedTotal: perRoom,
      deadlineMs: 90_000,
    }),
  );
  // Every member joins before anyone posts, so each must account for its room from #1.
  await Promise.all(drivers.map((d) => d.next("ready")));
  const ready = Date.now();
  for (const driver of drivers) driver.send("go");
  const results = (await Promise.all(drivers.map((d) => d.next("result")))) as (DriverMessage & Ledger & { postMs: number; totalMs: number })[];
  const done = Date.now();
  const exits = await Promise.all(drivers.map((d) => d.exit));
  expect(exits.map((e) => e.code)).toEqual(drivers.map(() => 0));

  // Per room the seqs are exactly 1..N, every post acknowledged, every message accounted for by every member.
  const rooms = Array.from({ length: ROOMS }, (_, room) => `room-${room}`);
  const { read, fetched, own, evicted } = auditLoad(results, rooms, perRoom, RING, BUDGET);

  const digests = results.reduce((sum, r) => sum + r.digests, 0);
  const fetches = results.reduce((sum, r) => sum + r.fetches, 0);
  const postMs = Math.max(...results.map((r) => r.postMs));
  report("load", {
    processes: PROCESSES,
    rooms: ROOMS,
    posts: PROCESSES * POSTS,
    acked: results.reduce((sum, r) => sum + r.acks.length, 0),
    perRoomSeqs: `1..${perRoom}`,
    digests,
    fetches,
    maxDigestChars: Math.max(...results.map((r) => r.maxDigestChars)),
    maxBudgetedChars: Math.max(...results.map((r) => r.maxBudgetedChars)),
    budget: BUDGET,
    messagesRead: read,
    ofWhichFetched: fetched,
    ownSkipped: own,
    reportedEvicted: evicted,
    laggardEvicted: results
      .filter((r) => r.role === `r${PROCESSES - 1}`)
      .flatMap((r) => r.evicted)
      .reduce((sum, [from, to]) => sum + to - from + 1, 0),
    startToReadyMs: ready - started,
    postingMs: postMs,
    postsPerSecond: fixed((PROCESSES * POSTS) / (postMs / 1000), 0),
    totalMs: done - started,
  });
  // The broker is still the one that started, and nobody else was spawned.
  await until(() => broker.child.exitCode === null, { timeoutMs: 5000, what: "broker still answering" });
});
