// The doctor against real broker processes: what a kill -9 leaves behind, a fleet split over two agent directories,
// a broker cut off from its path, and a broker at its connection limit are found and named; once the remedy is
// applied, the doctor says all is well.
import { existsSync, unlinkSync } from "node:fs";
import { basename } from "node:path";
import { expect, test } from "vitest";
import { resolveRegistryDir } from "@orphus/roundtable-locator";
import { createRoundtableClient, type RoundtableClient } from "@orphus/roundtable-client";
import { renderDoctorReport, runDoctor } from "@orphus/roundtable-cli";
import { until } from "../../../../test-support/poll.js";
import { alive, gone } from "../../../../test-support/processes.js";
import {
  bundledClient,
  onCleanup,
  report,
  spawnBroker,
  useHarness,
} from "../../../../test-support/reliability/harness.js";
import { tempDir } from "../../../../test-support/tmp.js";

const harness = useHarness();

const env = { ORPHUS_ROUNDTABLE_ROLE: "planner" };

test("after a kill -9 the doctor finds the stale socket; after the next session's broker, all is well", async () => {
  const bundles = harness.bundles();
  const agentDir = tempDir();
  const killed = await spawnBroker(bundles, agentDir, ["--idle-ms", "60000"]);
  process.kill(killed.pid, "SIGKILL");
  await gone(killed.pid, { timeoutMs: 5000 });
  const registryDir = resolveRegistryDir();

  const broken = await runDoctor({ agentDir, env, registryDir });
  expect(broken.findings.map((f) => f.code)).toEqual(["stale-socket"]);
  expect(broken.findings[0]?.summary).toContain(`nothing answers on ${killed.socketPath}`);

  // The remedy the finding names: nothing, the next session's broker reclaims the path.
  const { client } = bundledClient(bundles, agentDir, { idleMs: 60_000 });
  const hello = await client.connect();
  const healed = await runDoctor({ agentDir, env, registryDir });
  expect(healed.findings).toEqual([]);
  expect(healed.liveBrokers.map((b) => b.pid)).toEqual([hello.brokerPid]);
  // The killed broker's entry was its only leftover; the doctor removed it once its socket was another broker's.
  expect(healed.removedEntries).toHaveLength(1);
  expect(existsSync(healed.removedEntries[0] as string)).toBe(false);
  report("doctor after kill -9", {
    before: "stale-socket",
    after: "all well",
    entriesRemoved: healed.removedEntries.length,
  });
});

test("two live brokers of one user under different agent directories: a split fleet, then one directory heals it", async () => {
  const bundles = harness.bundles();
  const here = tempDir();
  const there = tempDir();
  await spawnBroker(bundles, here, ["--idle-ms", "60000"]);
  const stray = await spawnBroker(bundles, there, ["--idle-ms", "60000"]);
  const registryDir = resolveRegistryDir();
  const split = await runDoctor({ agentDir: here, env, registryDir });
  expect(split.findings.map((f) => f.code)).toEqual(["split-fleet"]);
  expect(split.findings[0]?.details).toHaveLength(2);
  expect(split.findings[0]?.fix).toContain(`ORPHUS_CODING_AGENT_DIR=${here}`);
  // The fleet converges on one directory; the stray broker, left without sessions, goes away.
  stray.child.kill("SIGTERM");
  expect(await stray.exit).toBe(0);
  const whole = await runDoctor({ agentDir: here, env, registryDir });
  expect(whole.findings).toEqual([]);
  report("doctor on a split fleet", { brokers: 2, finding: "split-fleet", afterConverging: "all well" });
});

test("a broker cut off from its path is a split fleet while it is stopped, and closes itself once it runs again", async () => {
  const bundles = harness.bundles();
  const agentDir = tempDir();
  const registryDir = resolveRegistryDir();
  const orphan = await spawnBroker(bundles, agentDir, ["--idle-ms", "60000"]);
  // Stopped, it cannot watch its path; meanwhile its socket file is removed and a new broker takes the path.
  process.kill(orphan.pid, "SIGSTOP");
  onCleanup(() => {
    if (alive(orphan.pid)) process.kill(orphan.pid, "SIGCONT");
  });
  unlinkSync(orphan.socketPath);
  const { client } = bundledClient(bundles, agentDir, { idleMs: 60_000 });
  const owner = await client.connect();
  const split = await runDoctor({ agentDir, env, registryDir });
  expect(split.findings.map((f) => f.code)).toEqual(["split-fleet"]);
  expect(split.findings[0]?.summary).toContain(
    `a live broker (pid ${orphan.pid}) of ${agentDir} no longer owns its socket path ${orphan.socketPath}: ` +
      `another broker (pid ${owner.brokerPid}) answers there`,
  );
  expect(split.unreachableBrokers.map((b) => b.pid)).toEqual([orphan.pid]);
  // Its entry is kept (earlier scenarios' killed brokers may leave entries of their own to remove).
  expect(split.removedEntries.filter((file) => basename(file).startsWith(`${orphan.pid}-`))).toEqual([]);

  // Running again, it finds its path taken and exits by itself (exit 0, its registry entry gone with it).
  const resumed = Date.now();
  process.kill(orphan.pid, "SIGCONT");
  expect(await orphan.exit).toBe(0);
  const closedMs = Date.now() - resumed;
  const whole = await runDoctor({ agentDir, env, registryDir });
  expect(whole.findings).toEqual([]);
  expect(whole.liveBrokers.map((b) => b.pid)).toEqual([owner.brokerPid]);
  report("doctor on a broker cut off from its path", {
    finding: "split-fleet",
    entryKept: true,
    closedItselfAfterResumeMs: closedMs,
    afterwards: "all well",
  });
});

test("a broker process at its connection limit is called full, never a broker to kill; a freed seat makes all well", async () => {
  const LIMIT = 256; // the bin's limit (DEFAULT_MAX_CONNECTIONS)
  const bundles = harness.bundles();
  const agentDir = tempDir();
  const broker = await spawnBroker(bundles, agentDir, ["--idle-ms", "60000"]);
  const seated: RoundtableClient[] = [];
  for (let batch = 0; batch < LIMIT / 32; batch++) {
    const clients = Array.from({ length: 32 }, (_, i) => {
      const client = createRoundtableClient({
        agentDir,
        role: `seat-${batch * 32 + i}`,
        spawnBroker: false,
        onWarning: () => undefined,
      });
      onCleanup(() => client.close());
      return client;
    });
    await Promise.all(clients.map((client) => client.connect()));
    seated.push(...clients);
  }
  const registryDir = resolveRegistryDir();
  const full = await runDoctor({ agentDir, env, registryDir });
  expect(full.findings.map((f) => f.code)).toEqual(["broker-full"]);
  expect(full.findings[0]?.summary).toContain(`(pid ${broker.pid}) serves its maximum of ${LIMIT} connections`);
  expect(renderDoctorReport(full)).not.toMatch(/\bkill\b/);
  seated.pop()?.close();
  await until(async () => (await runDoctor({ agentDir, env, registryDir })).findings.length === 0, {
    timeoutMs: 10_000,
    everyMs: 50,
    what: "the doctor gets a seat again",
  });
  report("doctor on a full broker", {
    maxConnections: LIMIT,
    finding: "broker-full",
    advisesKill: /\bkill\b/.test(renderDoctorReport(full)),
    afterASeatIsFreed: "all well",
  });
});
