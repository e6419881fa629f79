// Crash: the broker is killed with SIGKILL while 8 client processes post. None hangs: each in-flight post fails at
// once with a clear error, the next call starts one new broker (which reclaims the stale socket), that call fails
// loudly with the not-a-member message, and joining again recovers.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { until } from "../../../../test-support/poll.js";
import {
  bounded,
  brokerProcesses,
  reap,
  report,
  spawnBroker,
  startDriver,
  useHarness,
} from "../../../../test-support/reliability/harness.js";
import { tempDir } from "../../../../test-support/tmp.js";

const harness = useHarness();

const CLIENTS = 8;

test(`kill -9 of the broker under ${CLIENTS} posting clients: clear errors, one new broker, loud not-a-member, join recovers`, async () => {
  const bundles = harness.bundles();
  const agentDir = tempDir();
  const first = await spawnBroker(bundles, agentDir, ["--idle-ms", "60000"]);
  const drivers = Array.from({ length: CLIENTS }, (_, i) =>
    startDriver(bundles, "crash", {
      agentDir,
      brokerBin: bundles.broker,
      idleMs: 3000,
      role: `c${i}`,
      room: `room-${i % 2}`,
      deadlineMs: 60_000,
    }),
  );
  const ready = await Promise.all(drivers.map((d) => d.next("ready")));
  expect(ready.map((r) => r["brokerPid"])).toEqual(drivers.map(() => first.pid));
  for (const driver of drivers) driver.send("go");
  // Everyone is mid-stream before the kill.
  await Promise.all(drivers.map((d) => d.next("progress")));
  const killedAt = Date.now();
  process.kill(first.pid, "SIGKILL");

  const results = await bounded(
    "every client reports after the crash (none hangs)",
    30_000,
    Promise.all(drivers.map((d) => d.next("result"))),
  );
  const second = results[0]?.["secondBroker"] as number;
  reap(second);
  expect((await Promise.all(drivers.map((d) => d.exit))).map((e) => e.code)).toEqual(drivers.map(() => 0));
  results.forEach((result, i) => {
    const room = `room-${i % 2}`;
    expect(result["failure"]).toMatchObject({ name: "ConnectionLostError", code: "ERR_CONNECTION_LOST" });
    expect(String((result["failure"] as { message: string }).message)).toMatch(
      /^Lost the connection to the roundtable broker while waiting for post \(.+\); the next call reconnects, and rooms must be joined again$/,
    );
    expect(result["next"]).toEqual({
      name: "WireRefusalError",
      code: "ERR_WIRE_REFUSED",
      wireCode: "ERR_NOT_MEMBER",
      message: `Not a member of room "${room}"; join it first`,
    });
    expect(result["firstBroker"]).toBe(first.pid);
    expect(result["secondBroker"]).toBe(second);
    expect(result["rejoined"]).toMatchObject({ seq: expect.any(Number) });
  });
  expect(second).not.toBe(first.pid);
  // One new broker for all of them, on the reclaimed path; the rooms start over. Brokers other clients spawned in the
  // same moment stand down and exit, some after the clients are done (a node start-up on a loaded machine).
  await until(() => brokerProcesses(bundles.broker, agentDir).length <= 1, {
    timeoutMs: 15_000,
    what: "the brokers that lost the restart race exit",
  });
  expect(brokerProcesses(bundles.broker, agentDir)).toEqual([second]);
  const log = readFileSync(join(agentDir, "roundtable", "broker.log"), "utf8");
  expect(log).toContain("info reclaimed a stale socket");
  const created = results.filter((r) => (r["rejoined"] as { created: boolean }).created).length;
  expect(created).toBe(2);
  const detectMs = results.map((r) => (r["failedAt"] as number) - killedAt);
  report("crash", {
    clients: CLIENTS,
    postsAckedBeforeKill: results.reduce((sum, r) => sum + (r["posted"] as number), 0),
    failedWith: "ERR_CONNECTION_LOST",
    nextCall: "ERR_NOT_MEMBER",
    brokersAfter: 1,
    killToErrorMsMax: Math.max(...detectMs),
    errorToRecoveredMsMax: Math.max(...results.map((r) => r["recoveredMs"] as number)),
    roomsRecreatedByJoin: created,
  });
});
