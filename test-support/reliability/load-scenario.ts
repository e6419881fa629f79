// The load scenario, written once and run on each room store: client processes post into rooms at once, reading
// digests as they go, with one member (the last process, the laggard) reading nothing until it has posted
// everything, so the ring's eviction is exercised too. Every post is acknowledged, each room numbers its messages
// exactly 1..N, every member accounts for every message of its room (audit.ts), every process exits 0 and every
// broker is still the one that started. The memory store runs it on one broker, the Redis store on brokers that
// share one redis-server; each test picks its limits and prints its own figures from what the run returns.
import { expect } from "vitest";
import { auditLoad, type LoadAudit } from "./audit.js";
import { spawnBroker, startDriver, type Bundles, type DriverMessage } from "./harness.js";
import type { Ledger } from "./ledger.js";

/** The store, the brokers and the limits of one load run. */
export interface LoadScenario {
  /** The agent directory of each broker (spawned here from the bundled bin); client process i uses broker i % count. */
  readonly agentDirs: readonly string[];
  /** Variables of the brokers' environment: the room store's setting. */
  readonly env?: NodeJS.ProcessEnv;
  readonly processes: number;
  readonly rooms: number;
  /** Posts of each process. */
  readonly posts: number;
  /** Each member reads a digest after this many of its posts (the laggard never does while posting). */
  readonly readEvery: number;
  /** Budget of every digest. */
  readonly budget: number;
  /** The ring: messages a room keeps. */
  readonly ring: number;
  /** How long a client process may run. */
  readonly deadlineMs: number;
  /** The room (0 to rooms - 1) of client process i. */
  readonly roomOf: (process: number) => number;
  /** The name of room r. */
  readonly roomName: (room: number) => string;
}

/** What one member reported: its ledger, and how long it posted and ran. */
export type LoadResult = DriverMessage & Ledger & { readonly postMs: number; readonly totalMs: number };

/** A load run that passed the audit: every member's result, the audit's counts and the run's times. */
export interface LoadRun {
  readonly results: readonly LoadResult[];
  /** Messages per room. */
  readonly perRoom: number;
  readonly audit: LoadAudit;
  /** From starting the processes until every one had joined its room. */
  readonly startToReadyMs: number;
  /** The longest any process took to post all of its messages. */
  readonly postingMs: number;
  readonly totalMs: number;
  /** The role of the laggard. */
  readonly laggard: string;
}

/** The role of client process i. */
function roleOf(process: number): string {
  return `r${String(process).padStart(2, "0")}`;
}

/** Runs the scenario and audits it (failing the test on any loss, duplicate or unbounded digest). */
export async function runLoadScenario(bundles: Bundles, scenario: LoadScenario): Promise<LoadRun> {
  const { agentDirs, processes, posts } = scenario;
  // Idle time past the processes' start-up, so no broker leaves before the first of them connects.
  const brokers = await Promise.all(
    agentDirs.map((dir) =>
      spawnBroker(bundles, dir, ["--idle-ms", "60000"], scenario.env === undefined ? {} : { env: scenario.env }),
    ),
  );
  const perRoom = (processes / scenario.rooms) * posts;
  const started = Date.now();
  const drivers = Array.from({ length: processes }, (_, i) =>
    startDriver(bundles, "load", {
      agentDir: agentDirs[i % agentDirs.length],
      role: roleOf(i),
      room: scenario.roomName(scenario.roomOf(i)),
      posts,
      // The laggard: no reading while posting.
      readEvery: i === processes - 1 ? posts + 1 : scenario.readEvery,
      budget: scenario.budget,
      capacity: scenario.ring,
      expectedTotal: perRoom,
      deadlineMs: scenario.deadlineMs,
    }),
  );
  // Every member joins before anyone posts, so each must account for its room from #1.
  await Promise.all(drivers.map((d) => d.next("ready")));
  const ready = Date.now();
  for (const driver of drivers) driver.send("go");
  const results = (await Promise.all(drivers.map((d) => d.next("result")))) as LoadResult[];
  const done = Date.now();
  expect((await Promise.all(drivers.map((d) => d.exit))).map((e) => e.code)).toEqual(drivers.map(() => 0));

  // Per room the seqs are exactly 1..N, every post acknowledged, every message accounted for by every member.
  const rooms = Array.from({ length: scenario.rooms }, (_, room) => scenario.roomName(room));
  const audit = auditLoad(results, rooms, perRoom, scenario.ring, scenario.budget);
  // Every broker is still the one that started: none left, none was replaced.
  for (const broker of brokers) expect(broker.child.exitCode).toBeNull();
  return {
    results,
    perRoom,
    audit,
    startToReadyMs: ready - started,
    postingMs: Math.max(...results.map((r) => r.postMs)),
    totalMs: done - started,
    laggard: roleOf(processes - 1),
  };
}
