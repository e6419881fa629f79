// `roundtable status` and the doctor of a broker on a real Redis (started on a free loopback port): both name the
// store with its password masked, no output carries the password, and a Redis that stops answering shows as
// unavailable in status and as a `store-unavailable` finding until it is back.
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startBroker, type Broker } from "@orphus/roundtable-broker";
import { REDIS_TEST_PASSWORD, startRedisServer, type RedisServer } from "../../../../test-support/redis-server.js";
import { until } from "../../../../test-support/poll.js";
import { shortTempDir } from "../../../../test-support/tmp.js";
import { renderDoctorReport, runCli, runDoctor, type DoctorReport } from "@orphus/roundtable-cli";

let redis: RedisServer;
let broker: Broker;
let agentDir: string;
let registryDir: string;
const removals: (() => void)[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  const temp = shortTempDir("rtr-");
  removals.push(temp.remove);
  agentDir = join(temp.dir, "agent");
  registryDir = join(temp.dir, "registry");
  const start = await startBroker({ agentDir, registryDir, idleMs: 600_000, store: redis.url });
  if (start.status !== "listening") throw new Error("expected a listening broker");
  broker = start.broker;
});

afterAll(async () => {
  await broker?.close();
  await redis?.close();
  for (const remove of removals) remove();
});

const env = (): NodeJS.ProcessEnv => ({ ORPHUS_ROUNDTABLE_ROLE: "planner", ORPHUS_ROUNDTABLE_STORE: redis.url });
const masked = (): string => redis.url.replace(`:${REDIS_TEST_PASSWORD}@`, ":***@");

async function status(): Promise<string> {
  let out = "";
  const io = {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (out += text) },
    env: env(),
  };
  expect(await runCli(["status", "--agent-dir", agentDir], io)).toBe(0);
  return out;
}

async function doctor(): Promise<DoctorReport> {
  return await runDoctor({ agentDir, registryDir, env: env(), timeoutMs: 2_000 });
}

test("status and the doctor name the Redis store with its password masked", async () => {
  const shown = await status();
  expect(shown).toContain(`store     ${masked()} (shared by the brokers on it)\n`);
  const report = await doctor();
  expect(report.findings).toEqual([]);
  expect(report.notes).toContain(`rooms kept in ${masked()}`);
  // The broker holds no message text on Redis: no budget of its own to report, and the doctor says where to bound it.
  expect(shown).not.toContain("budget");
  expect(report.notes).toContain(
    "message text held in the room store, not the broker: bound its memory there (Redis: maxmemory)",
  );
  for (const text of [shown, JSON.stringify(report), renderDoctorReport(report)]) {
    expect(text).not.toContain(REDIS_TEST_PASSWORD);
  }
});

test("a Redis that stops answering is unavailable in status and a doctor finding, until it is back", async () => {
  await redis.stop();
  try {
    // Status is the broker's own and answers at once; the doctor's listing of rooms goes to the store and is refused
    // (ERR_STORE_UNAVAILABLE): that is the finding, whether or not the broker's status has noticed yet.
    await until(async () => (await doctor()).findings.some((finding) => finding.code === "store-unavailable"), {
      everyMs: 200,
    });
    const report = await doctor();
    expect(report.findings.map((finding) => finding.code)).toEqual(["store-unavailable"]);
    expect(report.findings[0]?.summary).toContain(`cannot reach its room store ${masked()}`);
    expect(await status()).toContain(
      `store     ${masked()} (shared by the brokers on it); unavailable: requests fail until it answers\n`,
    );
    expect(JSON.stringify(report)).not.toContain(REDIS_TEST_PASSWORD);
  } finally {
    await redis.start();
  }
  await until(async () => (await doctor()).findings.length === 0, { everyMs: 200 });
  expect(await status()).toContain(`store     ${masked()} (shared by the brokers on it)\n`);
});
