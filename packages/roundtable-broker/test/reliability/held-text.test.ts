// The broker's memory ceiling, measured on the bin as it ships: a hostile client posts 32 KiB bodies into 63 rooms as
// fast as the broker answers, far past a small --max-held-bytes, while a quiet room holds a few short messages. The
// broker's resident memory stays under its starting level plus the budget plus a fixed overhead, and what it still
// holds after a full collection under its starting level plus the budget and a little; the quiet room loses nothing;
// the hostile rooms' readers are told exactly what was evicted.
import { expect, test } from "vitest";
import { createRoundtableClient, type RoundtableClient } from "@orphus/roundtable-client";
import {
  fixed,
  onCleanup,
  report,
  rssKiB,
  sampleRss,
  spawnBroker,
  useHarness,
} from "../../../../test-support/reliability/harness.js";
import { tempDir } from "../../../../test-support/tmp.js";

const harness = useHarness();

/** The budget under test: 16 MiB, an eighth of the default. */
const BUDGET_BYTES = 16 * 1024 * 1024;
/**
 * What the broker may take above its starting level besides the budget: V8's young generation and the garbage
 * waiting for a collection (evicted bodies, parsed frames), message records and post keys, socket buffers. Measured
 * at 105-113 MiB on Node 20 with budgets of 16 and 64 MiB and 2,268 to 6,300 posts: it does not grow with either.
 * Without the budget the same flood holds every body: 4,032 of them, 252 MiB as V8 holds them.
 */
const OVERHEAD_KIB = 160 * 1024;
/** What may stay reachable besides the budget's text once garbage is collected: message records, post keys. */
const LIVE_SLACK_BYTES = 4 * 1024 * 1024;
const HOSTILE_ROOMS = 63;
const ROUNDS = 64;

test("a hostile client posting 32 KiB bodies into 63 rooms keeps the broker under its budget plus a fixed overhead", async () => {
  const agentDir = tempDir();
  const broker = await spawnBroker(
    harness.bundles(),
    agentDir,
    ["--idle-ms", "60000", "--max-held-bytes", String(BUDGET_BYTES)],
    { probeMemory: true },
  );
  const connect = (role: string): RoundtableClient => {
    const client = createRoundtableClient({ agentDir, role, spawnBroker: false });
    onCleanup(() => client.close());
    return client;
  };
  const hostile = connect("flood");
  const quiet = connect("quiet");
  const reader = connect("reader");
  await quiet.join("quiet");
  await reader.join("quiet");
  const rooms = Array.from({ length: HOSTILE_ROOMS }, (_, i) => `flood-${i}`);
  for (const room of rooms) await hostile.join(room);
  await reader.join("flood-0");
  for (let i = 1; i <= 5; i++) await quiet.post("quiet", `quiet message ${i}`);
  expect((await reader.status()).heldText).toEqual({
    heldBytes: 2 * 5 * "quiet message 1".length,
    maxHeldBytes: BUDGET_BYTES,
    evictedMessages: 0,
  });

  const liveBefore = await broker.liveMemory();
  const rss = sampleRss(broker.pid);
  // 32 KiB of UTF-8 whose one CJK character makes V8 hold the whole body at two bytes a unit: the most memory a body
  // of the largest size can take, and exactly what the budget charges for it.
  const body = (round: number, room: number): string => `語${round}:${room}:`.padEnd(32 * 1024 - 2, "x");
  let posted = 0;
  for (let round = 0; round < ROUNDS; round++) {
    await Promise.all(rooms.map((room, i) => hostile.post(room, body(round, i))));
    posted += rooms.length;
  }
  rss.stop();
  const peakKiB = rss.peakKiB();
  const liveAfter = await broker.liveMemory();
  const live = (m: typeof liveBefore): number => m.heapUsed + m.external;
  // What stays reachable after a full collection is the budget's text and little else: the charge is what V8 holds.
  expect(live(liveAfter)).toBeLessThanOrEqual(live(liveBefore) + BUDGET_BYTES + LIVE_SLACK_BYTES);
  const status = await reader.status();
  const heldText = status.heldText as { heldBytes: number; maxHeldBytes: number; evictedMessages: number };
  expect(heldText.heldBytes).toBeLessThanOrEqual(BUDGET_BYTES);
  // Each body is 32,766 units (32 KiB of UTF-8), charged 65,532 bytes: 256 of them and the quiet room's 150 bytes fit
  // in 16 MiB, and every other body went.
  expect(heldText.evictedMessages).toBe(posted - 256);
  expect(peakKiB).toBeLessThanOrEqual(rss.baselineKiB + BUDGET_BYTES / 1024 + OVERHEAD_KIB);

  // The quiet room lost nothing; flood-0's reader is told exactly what went.
  const quietPage = await reader.fetch("quiet", { afterSeq: 0 });
  expect(quietPage.evicted).toBeUndefined();
  expect(quietPage.messages.map((m) => m.body)).toEqual([1, 2, 3, 4, 5].map((i) => `quiet message ${i}`));
  const floodPage = await reader.fetch("flood-0", { afterSeq: 0, maxChars: 1 });
  const evicted = floodPage.evicted as { count: number; fromSeq: number; toSeq: number };
  expect(evicted.fromSeq).toBe(1);
  expect(floodPage.messages[0]?.seq).toBe(evicted.toSeq + 1);
  expect(floodPage.newestSeq).toBe(ROUNDS);

  report("memory ceiling", {
    budgetMiB: BUDGET_BYTES / 1048576,
    posts: posted,
    postedMiB: fixed((posted * 32 * 1024) / 1048576),
    heldMiB: fixed(heldText.heldBytes / 1048576),
    evictedMessages: heldText.evictedMessages,
    liveBaselineMiB: fixed(live(liveBefore) / 1048576),
    liveAfterMiB: fixed(live(liveAfter) / 1048576),
    rssBaselineMiB: fixed(rss.baselineKiB / 1024),
    rssPeakMiB: fixed(peakKiB / 1024),
    rssAfterMiB: fixed(rssKiB(broker.pid) / 1024),
    overheadMiB: fixed((peakKiB - rss.baselineKiB) / 1024 - BUDGET_BYTES / 1048576),
  });
});
