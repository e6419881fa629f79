// Idle exit: a broker that owns its process exits within its idle time + 1 s of the last client leaving (and not
// while one is still there), taking its socket, pid file and registry entry along; a broker embedded in a host
// process closes when idle and the host lives on, then ends by itself with exit code 0.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { readBrokerRegistry, resolveRegistryDir } from "@orphus/roundtable-locator";
import { until } from "../../../../test-support/poll.js";
import { alive } from "../../../../test-support/processes.js";
import {
  bounded,
  bundledClient,
  report,
  spawnBroker,
  startDriver,
  useHarness,
} from "../../../../test-support/reliability/harness.js";
import { tempDir } from "../../../../test-support/tmp.js";

const harness = useHarness();

const IDLE_MS = 1000;

test(`an owned broker exits within idle (${IDLE_MS} ms) + 1 s of the last client leaving`, async () => {
  const bundles = harness.bundles();
  const agentDir = tempDir();
  const first = bundledClient(bundles, agentDir, { idleMs: IDLE_MS, role: "planner" });
  const second = bundledClient(bundles, agentDir, { idleMs: IDLE_MS, role: "critic" });
  await first.client.join("design");
  await second.client.join("design");
  await first.client.post("design", "one");
  const [spawned] = first.spawned;
  const pid = spawned?.pid as number;
  expect(second.spawned).toEqual([]);
  expect(readBrokerRegistry(resolveRegistryDir()).entries.map((e) => e.pid)).toContain(pid);

  // One client leaves: the other is still there, so the broker stays past its idle time. The time is the brokers'
  // own: once the broker has seen the client go, a witness broker with the same idle time and no client at all is
  // started, and exits by itself once that time has passed.
  first.client.close();
  await until(async () => (await second.client.status()).connections === 1, {
    what: "the broker sees the first client leave",
  });
  const witness = await spawnBroker(bundles, tempDir(), ["--idle-ms", String(IDLE_MS)]);
  expect(await bounded("the witness exits once idle", IDLE_MS + 10_000, witness.exit)).toBe(0);
  // Asked only then, the broker answers over the client still there: it did not close for being idle (a timer that
  // was due would have run before it read the request).
  expect((await second.client.status()).connections).toBe(1);
  expect(alive(pid)).toBe(true);

  // The last one leaves.
  second.client.close();
  const left = performance.now();
  const exit = await bounded(
    "the broker exits once idle",
    IDLE_MS + 10_000,
    (spawned as NonNullable<typeof spawned>).exited,
  );
  const afterMs = performance.now() - left;
  expect(exit).toEqual({ code: 0, signal: null });
  expect(afterMs).toBeLessThanOrEqual(IDLE_MS + 1000);
  expect(afterMs).toBeGreaterThanOrEqual(IDLE_MS - 50);
  expect(existsSync(join(agentDir, "roundtable", "broker.sock"))).toBe(false);
  expect(existsSync(join(agentDir, "roundtable", "broker.pid"))).toBe(false);
  expect(readBrokerRegistry(resolveRegistryDir()).entries.map((e) => e.pid)).not.toContain(pid);
  report("idle exit (owned)", {
    idleMs: IDLE_MS,
    exitAfterLastLeftMs: Math.round(afterMs),
    bound: IDLE_MS + 1000,
    exitCode: 0,
    filesRemoved: true,
  });
});

test("an embedded broker closes when idle and its host process lives on, then ends by itself", async () => {
  const bundles = harness.bundles();
  const agentDir = tempDir();
  const host = startDriver(bundles, "embedded-host", { agentDir, idleMs: IDLE_MS, deadlineMs: 30_000 });
  const closed = await host.next("closed");
  expect(closed).toMatchObject({ reason: "idle" });
  expect(closed["afterLastLeftMs"] as number).toBeLessThanOrEqual(IDLE_MS + 1000);
  const alive = await host.next("alive");
  expect(alive["pid"]).toBe(host.pid);
  expect(await bounded("the host ends by itself", 10_000, host.exit)).toMatchObject({ code: 0, signal: null });
  expect(host.messages.map((m) => m.type)).toEqual(["closed", "alive"]);
  expect(existsSync(join(agentDir, "roundtable", "broker.sock"))).toBe(false);
  report("idle exit (embedded)", {
    idleMs: IDLE_MS,
    closedAfterLastLeftMs: closed["afterLastLeftMs"] as number,
    reason: "idle",
    hostAliveAfterClose: true,
    hostExitCode: 0,
  });
});
