// Start-up storm: 32 client processes find no broker at the same instant and each may spawn one. Exactly one broker
// process stays, all 32 clients are connected to it at once, and every spawned loser has exited.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { readBrokerRegistry, resolveRegistryDir } from "@orphus/roundtable-locator";
import { createRoundtableClient } from "@orphus/roundtable-client";
import { until } from "../../../../test-support/poll.js";
import { alive } from "../../../../test-support/processes.js";
import {
  brokerProcesses,
  reap,
  report,
  startDriver,
  useHarness,
} from "../../../../test-support/reliability/harness.js";
import { tempDir } from "../../../../test-support/tmp.js";

const harness = useHarness();

const PROCESSES = 32;

test(`${PROCESSES} processes ensure the broker at once: one broker, all connected, the losers gone`, async () => {
  const bundles = harness.bundles();
  const agentDir = tempDir();
  const drivers = Array.from({ length: PROCESSES }, (_, i) =>
    startDriver(bundles, "storm", {
      agentDir,
      brokerBin: bundles.broker,
      idleMs: 3000,
      role: `s${i}`,
      deadlineMs: 60_000,
    }),
  );
  await Promise.all(drivers.map((d) => d.next("ready")));
  const go = Date.now();
  for (const driver of drivers) driver.send("go");
  const connected = await Promise.all(drivers.map((d) => d.next("connected")));
  const allConnectedMs = Date.now() - go;
  const spawned = connected.flatMap((c) => c["spawned"] as number[]);
  for (const pid of spawned) reap(pid);
  const brokers = new Set(connected.map((c) => c["brokerPid"] as number));
  expect(brokers.size).toBe(1);
  const [winner] = brokers as Set<number>;
  expect(spawned).toContain(winner);

  // Every loser stood down and exited; exactly one broker process serves the directory.
  const losers = spawned.filter((pid) => pid !== winner);
  await until(() => losers.every((pid) => !alive(pid)), { timeoutMs: 15_000, what: "every spawned loser exits" });
  expect(brokerProcesses(bundles.broker, agentDir)).toEqual([winner]);

  // All 32 at once on that broker, and only the winner ever listened or registered.
  const observer = createRoundtableClient({ agentDir, role: "observer", spawnBroker: false });
  const status = await observer.status();
  observer.close();
  expect(status).toMatchObject({ pid: winner, connections: PROCESSES + 1 });
  const log = readFileSync(join(agentDir, "roundtable", "broker.log"), "utf8");
  expect(log.match(/ info broker listening /g)).toHaveLength(1);
  const registered = readBrokerRegistry(resolveRegistryDir()).entries.filter((e) => e.agentDir === agentDir);
  expect(registered.map((e) => e.pid)).toEqual([winner]);

  for (const driver of drivers) driver.send("exit");
  expect((await Promise.all(drivers.map((d) => d.exit))).map((e) => e.code)).toEqual(drivers.map(() => 0));
  const connectMs = connected.map((c) => c["ms"] as number).sort((a, b) => a - b);
  report("start-up storm", {
    processes: PROCESSES,
    brokersSpawned: spawned.length,
    spawningClients: connected.filter((c) => (c["spawned"] as number[]).length > 0).length,
    losersExited: losers.length,
    brokerProcessesAfter: 1,
    connectedAtOnce: status.connections - 1,
    standDownsLogged: log.match(/ info another broker holds the socket; standing down /g)?.length ?? 0,
    connectMsMedian: connectMs[Math.floor(connectMs.length / 2)] ?? 0,
    connectMsMax: connectMs[connectMs.length - 1] ?? 0,
    allConnectedMs,
  });
});
