// Load: 32 client processes post 200 messages each into 4 rooms at once, reading digests as they go. Every post is
// acknowledged, each room numbers its messages exactly 1..N, every member accounts for every message of its room
// (read in a digest, fetched after a digest collapsed it, its own, or reported evicted once it had left the ring),
// and every digest keeps its bound. One member reads nothing until it has posted everything, so the ring's eviction
// is exercised too: what it missed must be reported evicted, and only what had truly left the 500-message window.
import { test } from "vitest";
import { fixed, report, useHarness } from "../../../../test-support/reliability/harness.js";
import { tempDir } from "../../../../test-support/tmp.js";
import { runLoadScenario } from "../../../../test-support/reliability/load-scenario.js";

const harness = useHarness();

const PROCESSES = 32;
const ROOMS = 4;
const POSTS = 200;
const READ_EVERY = 10;
const BUDGET = 800;
const RING = 500;

test(`${PROCESSES} processes x ${POSTS} posts into ${ROOMS} rooms: nothing lost, nothing twice, every digest bounded`, async () => {
  const run = await runLoadScenario(harness.bundles(), {
    // The memory store: one broker, every process on it.
    agentDirs: [tempDir()],
    processes: PROCESSES,
    rooms: ROOMS,
    posts: POSTS,
    readEvery: READ_EVERY,
    budget: BUDGET,
    ring: RING,
    deadlineMs: 90_000,
    roomOf: (i) => i % ROOMS,
    roomName: (room) => `room-${room}`,
  });
  const { results, perRoom, audit } = run;
  report("load", {
    processes: PROCESSES,
    rooms: ROOMS,
    posts: PROCESSES * POSTS,
    acked: results.reduce((sum, r) => sum + r.acks.length, 0),
    perRoomSeqs: `1..${perRoom}`,
    digests: results.reduce((sum, r) => sum + r.digests, 0),
    fetches: results.reduce((sum, r) => sum + r.fetches, 0),
    maxDigestChars: Math.max(...results.map((r) => r.maxDigestChars)),
    maxBudgetedChars: Math.max(...results.map((r) => r.maxBudgetedChars)),
    budget: BUDGET,
    messagesRead: audit.read,
    ofWhichFetched: audit.fetched,
    ownSkipped: audit.own,
    reportedEvicted: audit.evicted,
    laggardEvicted: results
      .filter((r) => r.role === run.laggard)
      .flatMap((r) => r.evicted)
      .reduce((sum, [from, to]) => sum + to - from + 1, 0),
    startToReadyMs: run.startToReadyMs,
    postingMs: run.postingMs,
    postsPerSecond: fixed((PROCESSES * POSTS) / (run.postingMs / 1000), 0),
    totalMs: run.totalMs,
  });
});
