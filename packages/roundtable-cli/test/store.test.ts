// The room store as the doctor and `roundtable status` meet it, without a Redis: a broker whose store the environment
// does not name is a split fleet (the client warns, the doctor reports one), brokers on one shared store are not, and
// a store that does not answer is a finding and shows in status. (On a real Redis: test/redis/store.test.ts.)
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { MemoryRoomStore, StoreUnavailableError, type RoomStoreEvent } from "@orphus/rooms";
import { startBroker, type Broker, type BrokerOptions } from "@orphus/roundtable-broker";
import { createRoundtableClient } from "@orphus/roundtable-client";
import { runCli, runDoctor, type DoctorReport } from "@orphus/roundtable-cli";
import { tempDir } from "../../../test-support/tmp.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The memory store under another name: stands in for a broker on a shared store where no Redis is needed. */
class NamedStore extends MemoryRoomStore {
  override readonly description: string;
  readonly #listeners = new Set<(event: RoomStoreEvent) => void>();
  constructor(description: string) {
    super();
    this.description = description;
  }
  override subscribe(listener: (event: RoomStoreEvent) => void): () => void {
    this.#listeners.add(listener);
    return super.subscribe(listener);
  }
  /** Tells the broker what a Redis store would on losing its server. */
  lose(): void {
    const error = new StoreUnavailableError(this.description, "heartbeat", 2000, "connect ECONNREFUSED");
    for (const listener of this.#listeners) listener({ type: "unavailable", error });
  }
}

async function broker(agentDir: string, registryDir: string, options: Partial<BrokerOptions> = {}): Promise<Broker> {
  const start = await startBroker({ agentDir, registryDir, idleMs: 60_000, ...options });
  if (start.status !== "listening") throw new Error("expected a listening broker");
  cleanups.push(() => start.broker.close());
  return start.broker;
}

const codes = (report: DoctorReport): string[] => report.findings.map((finding) => finding.code);
const env = { ORPHUS_ROUNDTABLE_ROLE: "planner" };

test("brokers of two agent directories on one shared store serve the same rooms: no split fleet", async () => {
  const registryDir = join(tempDir(), "registry");
  const [here, there] = [tempDir(), tempDir()];
  await broker(here, registryDir, { store: new NamedStore("redis://east:***@redis.internal:6379/0") });
  await broker(there, registryDir, { store: new NamedStore("redis://west:***@redis.internal:6379/0") });
  const shared = { ...env, ORPHUS_ROUNDTABLE_STORE: "redis://east:hunter2@redis.internal:6379/0" };
  const report = await runDoctor({ agentDir: here, registryDir, env: shared, timeoutMs: 1000 });
  expect(codes(report)).toEqual([]);
  expect(report.notes).toContain("rooms kept in redis://east:***@redis.internal:6379/0");
});

test("live brokers on different stores are a split fleet, reported once, with each store masked", async () => {
  const registryDir = join(tempDir(), "registry");
  const [here, there] = [tempDir(), tempDir()];
  const a = await broker(here, registryDir);
  const b = await broker(there, registryDir, { store: new NamedStore("redis://orphus:***@redis.internal:6379/0") });
  const report = await runDoctor({ agentDir: here, registryDir, env, timeoutMs: 1000 });
  expect(codes(report)).toEqual(["split-fleet"]);
  expect(report.findings[0]).toMatchObject({
    summary:
      "2 live brokers of yours keep their rooms in 2 different places; a session sees only the rooms of its own " +
      "broker's store, so peers on another post and nobody's unread count moves, with no error",
  });
  // Listed in the order the brokers started (the registry's); two started in one millisecond may come either way.
  expect([...(report.findings[0]?.details ?? [])].sort()).toEqual([
    `memory  ${here}  broker pid ${a.pid}`,
    `redis://orphus:***@redis.internal:6379/0  ${there}  broker pid ${b.pid}`,
  ]);
});

test("a session here would ask for another store than the running broker's: a split fleet, and the client warns", async () => {
  const registryDir = join(tempDir(), "registry");
  const agentDir = tempDir();
  const running = await broker(agentDir, registryDir);
  const asking = { ...env, ORPHUS_ROUNDTABLE_STORE: "redis://orphus:hunter2@redis.internal:6379/0" };
  const report = await runDoctor({ agentDir, registryDir, env: asking, timeoutMs: 1000 });
  expect(codes(report)).toEqual(["split-fleet"]);
  expect(report.findings[0]?.summary).toBe(
    `the broker of this agent directory (pid ${running.pid}) keeps its rooms in memory, but this environment asks ` +
      "for redis://orphus:***@redis.internal:6379/0 (ORPHUS_ROUNDTABLE_STORE): a session started here joins that " +
      "broker and shares its rooms, not those of redis://orphus:***@redis.internal:6379/0, with no error",
  );
  expect(JSON.stringify(report)).not.toContain("hunter2");
  const warnings: string[] = [];
  const client = createRoundtableClient({ agentDir, env: asking, onWarning: (message) => warnings.push(message) });
  cleanups.push(() => client.close());
  await client.join("lobby");
  await client.rooms();
  expect(warnings).toEqual([
    `The roundtable broker (pid ${running.pid}) keeps its rooms in memory, but this session's setting names ` +
      "redis://orphus:***@redis.internal:6379/0: another session started that broker with another setting, so this " +
      "session shares its rooms, not those of its own setting (a split fleet). Give every session of the fleet the " +
      "same setting (ORPHUS_ROUNDTABLE_STORE); the broker exits once its sessions end, and the next one starts on the " +
      `setting of the session that starts it (or stop it: kill ${running.pid}).`,
  ]);
});

test("a broker whose store does not answer: the doctor says so, and roundtable status shows it", async () => {
  const registryDir = join(tempDir(), "registry");
  const agentDir = tempDir();
  const store = new NamedStore("redis://orphus:***@redis.internal:6379/0");
  await broker(agentDir, registryDir, { store });
  store.lose();
  const asking = { ...env, ORPHUS_ROUNDTABLE_STORE: "redis://orphus:hunter2@redis.internal:6379/0" };
  const report = await runDoctor({ agentDir, registryDir, env: asking, timeoutMs: 1000 });
  expect(codes(report)).toEqual(["store-unavailable"]);
  let out = "";
  const io = { stdout: { write: (text: string) => (out += text) }, stderr: { write: () => true }, env: asking };
  expect(await runCli(["status", "--agent-dir", agentDir], io)).toBe(0);
  expect(out).toContain(
    "store     redis://orphus:***@redis.internal:6379/0 (shared by the brokers on it); unavailable: requests fail " +
      "until it answers\n",
  );
});
