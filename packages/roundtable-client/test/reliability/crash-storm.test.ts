// Crash-and-restart storms: 8 client processes on one agent directory; the broker they share is killed with SIGKILL,
// and all 8 reconnect at once, each free to spawn a broker over the stale socket, so brokers race to reclaim it.
// After every storm exactly one broker runs for the path, it owns the path, every client reached it, and it is the
// only live broker the registry lists for the directory: no storm leaves a live broker without its path.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { probeBroker, readBrokerRegistry, resolveRegistryDir } from "@orphus/roundtable-locator";
import { until } from "../../../../test-support/poll.js";
import { alive, gone } from "../../../../test-support/processes.js";
import {
  bounded,
  brokerProcesses,
  reap,
  report,
  startDriver,
  useHarness,
} from "../../../../test-support/reliability/harness.js";
import { tempDir } from "../../../../test-support/tmp.js";

const harness = useHarness();

const CLIENTS = 8;
const STORMS = 6;

test(`${STORMS} crash-and-restart storms of ${CLIENTS} clients: one broker per path after each, owning it`, async () => {
  const bundles = harness.bundles();
  const agentDir = tempDir();
  const socketPath = join(agentDir, "roundtable", "broker.sock");
  const drivers = Array.from({ length: CLIENTS }, (_, i) =>
    startDriver(bundles, "crash-storm", {
      agentDir,
      brokerBin: bundles.broker,
      idleMs: 30_000,
      role: `c${i}`,
      room: "storm",
      storms: STORMS,
      deadlineMs: 100_000,
    }),
  );
  await Promise.all(drivers.map((d) => d.next("ready")));
  const brokersAfter: number[] = [];
  let spawnedTotal = 0;
  let slowestStormMs = 0;
  let previous: number | undefined;
  for (let storm = 1; storm <= STORMS; storm++) {
    const started = Date.now();
    if (previous !== undefined) {
      process.kill(previous, "SIGKILL");
      await gone(previous as number, { timeoutMs: 5_000 });
    }
    for (const driver of drivers) driver.send("go");
    const results = await bounded(
      `storm ${storm}: every client reconnects`,
      30_000,
      Promise.all(drivers.map((d) => d.next(`storm-${storm}`))),
    );
    const spawned = results.flatMap((r) => r["spawned"] as number[]);
    for (const pid of spawned) reap(pid);
    spawnedTotal += spawned.length;
    const reached = new Set(results.map((r) => r["brokerPid"] as number));
    expect(reached.size, `storm ${storm}: every client reached one broker`).toBe(1);
    const [winner] = reached as Set<number>;
    // Every broker that lost the race has stood down and exited; the winner alone runs, and owns the path.
    await until(() => brokerProcesses(bundles.broker, agentDir).length === 1, {
      timeoutMs: 15_000,
      what: `storm ${storm}: the losers exit`,
    });
    expect(brokerProcesses(bundles.broker, agentDir)).toEqual([winner]);
    expect(await probeBroker(socketPath, 2_000)).toMatchObject({ state: "answered", pid: winner });
    const live = readBrokerRegistry(resolveRegistryDir()).entries.filter(
      (e) => e.agentDir === agentDir && alive(e.pid),
    );
    expect(live.map((e) => e.pid)).toEqual([winner]);
    // The room is new on each broker: the first join created it, and the 8 posts are 1..8.
    expect(results.filter((r) => r["created"] === true)).toHaveLength(1);
    expect(results.map((r) => r["seq"] as number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    brokersAfter.push(brokerProcesses(bundles.broker, agentDir).length);
    slowestStormMs = Math.max(slowestStormMs, Date.now() - started);
    previous = winner;
  }
  for (const driver of drivers) driver.send("exit");
  expect((await Promise.all(drivers.map((d) => d.exit))).map((e) => e.code)).toEqual(drivers.map(() => 0));
  const log = readFileSync(join(agentDir, "roundtable", "broker.log"), "utf8");
  report("crash-restart storms", {
    storms: STORMS,
    clients: CLIENTS,
    brokersSpawned: spawnedTotal,
    brokersPerPathAfterEachStorm: brokersAfter.join("/"),
    brokersPerPathAtEnd: brokersAfter[brokersAfter.length - 1] ?? 0,
    staleReclaims: log.match(/ info reclaimed a stale socket /g)?.length ?? 0,
    changedHandsWhileReclaiming: log.match(/ info the socket path changed hands while reclaiming it/g)?.length ?? 0,
    pathLostCloses: log.match(/ error the socket path no longer names this broker's socket/g)?.length ?? 0,
    standDowns: log.match(/ info another broker holds the socket; standing down /g)?.length ?? 0,
    slowestStormMs,
  });
});
