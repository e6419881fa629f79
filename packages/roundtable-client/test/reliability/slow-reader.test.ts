// Slow reader: while 4 writer processes post as fast as the broker answers, one member of their room stops reading
// (its pings back up, merged into posts events while they wait, and past the broker's ping limit dropped and counted)
// and another stops reading while asking for large replies (its queue passes the high-water mark and the broker
// closes it). The broker's memory stays bounded, and the writers
// are slowed by no more than a stated factor, measured against rounds without the slow readers in the same run.
import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { expect, test } from "vitest";
import { FrameDecoder, encodeFrame } from "@orphus/framing";
import { createRoundtableClient } from "@orphus/roundtable-client";
import { announcedPosts, parseServerFrame, type RoundtableEvent } from "@orphus/roundtable-protocol";
import { until } from "../../../../test-support/poll.js";
import {
  fixed,
  onCleanup,
  report,
  sampleRss,
  spawnBroker,
  startDriver,
  useHarness,
} from "../../../../test-support/reliability/harness.js";
import { tempDir } from "../../../../test-support/tmp.js";

const harness = useHarness();

const WRITERS = 4;
const POSTS_PER_ROUND = 2000;
/** A warm-up round, then plain, slow, plain, slow. */
const ROUNDS = 5;
/** The stated factor: a round with the slow readers present takes at most this many times a round without. */
const SLOWDOWN_FACTOR = 3;
/** Resident memory the slow readers may add: the hog's queue is cut at 8 MiB, the sloth's pings at 256 KiB. */
const RSS_SLACK_KIB = 96 * 1024;
const HOG_BODY = "h".repeat(30_000);

/** A raw member that can stop reading: it says hello, joins, and from then on reads only when told. */
async function rawMember(
  socketPath: string,
  role: string,
  room: string,
): Promise<{
  socket: Socket;
  frames: () => number;
  posts: () => number;
  replied: (id: number) => boolean;
  closed: () => boolean;
}> {
  const socket = connect(socketPath);
  onCleanup(() => socket.destroy());
  socket.on("error", () => undefined);
  const decoder = new FrameDecoder({ maxFrameBytes: 4 * 1024 * 1024 });
  let frames = 0;
  let closed = false;
  const replies: Record<string, unknown>[] = [];
  socket.on("data", (chunk: Buffer) =>
    decoder.push(chunk, (value) => (frames++, replies.push(value as Record<string, unknown>))),
  );
  socket.on("close", () => (closed = true));
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  socket.write(encodeFrame({ id: 1, op: "hello", protocol: "orphus-roundtable", version: 2, role, pid: process.pid }));
  socket.write(encodeFrame({ id: 2, op: "join", room }));
  await until(() => replies.some((r) => r["id"] === 2), { timeoutMs: 10_000, what: `${role} joined` });
  return {
    socket,
    frames: () => frames,
    // Posts heard in `room`, each posts event counted as the posts it lists.
    posts: () =>
      replies.reduce(
        (sum, f) => sum + (f["room"] === room ? announcedPosts(parseServerFrame(f) as RoundtableEvent).length : 0),
        0,
      ),
    replied: (id) => replies.some((f) => f["id"] === id),
    closed: () => closed,
  };
}

test("a member that stops reading: bounded broker memory, the others barely slowed", async () => {
  const bundles = harness.bundles();
  const agentDir = tempDir();
  const broker = await spawnBroker(bundles, agentDir, ["--idle-ms", "60000"], { probeMemory: true });
  const writers = Array.from({ length: WRITERS }, (_, i) =>
    startDriver(bundles, "writer", {
      agentDir,
      role: `w${i}`,
      room: "busy",
      posts: POSTS_PER_ROUND,
      bodyBytes: 200,
      rounds: ROUNDS,
      deadlineMs: 120_000,
    }),
  );
  await Promise.all(writers.map((w) => w.next("ready")));
  const baseline = await broker.liveMemory();
  const rss = sampleRss(broker.pid);

  const observer = createRoundtableClient({ agentDir, role: "observer", spawnBroker: false });
  onCleanup(() => observer.close());
  // Round 0 warms up (not counted); then rounds alternate without and with a fresh pair of slow readers.
  const roundMs: { slow: boolean; ms: number }[] = [];
  /** Posts the sloth heard in each slow round, of WRITERS * POSTS_PER_ROUND. */
  const slothHeard: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const slow = round % 2 === 0 && round > 0;
    let sloth: Awaited<ReturnType<typeof rawMember>> | undefined;
    let hog: Awaited<ReturnType<typeof rawMember>> | undefined;
    if (slow) {
      // The sloth joins the writers' room and stops reading: every post queues a ping for it.
      sloth = await rawMember(broker.socketPath, "sloth", "busy");
      sloth.socket.pause();
      // The hog fills its own room with large posts, then asks for them again and again without reading, each time
      // as one page of the largest cap (the default cap would send one 30 KB post a reply).
      hog = await rawMember(broker.socketPath, "hog", "hogroom");
      hog.socket.pause();
      for (let i = 0; i < 16; i++)
        hog.socket.write(encodeFrame({ id: 10 + i, op: "post", room: "hogroom", body: HOG_BODY }));
      for (let i = 0; i < 64; i++)
        hog.socket.write(
          encodeFrame({ id: 100 + i, op: "fetch", room: "hogroom", afterSeq: 0, limit: 16, maxChars: 524_288 }),
        );
    }
    const dropped = (await observer.status()).pingsDropped;
    const started = performance.now();
    for (const writer of writers) writer.send("go");
    await until(() => writers.every((w) => w.messages.filter((m) => m.type === "round").length > round), {
      timeoutMs: 60_000,
      what: `round ${round} done`,
    });
    if (round > 0) roundMs.push({ slow, ms: performance.now() - started });
    if (sloth === undefined || hog === undefined) continue;
    // The hog passed the high-water mark and was closed; the sloth at most lost pings and is still a member.
    const droppedInRound = (await observer.status()).pingsDropped - dropped;
    expect((await observer.members("busy")).members).toContain("sloth");
    expect((await observer.members("hogroom")).members).not.toContain("hog");
    // Reading again, the sloth gets what was held for it, then answers like any member: every post of the round
    // reached it or was counted as dropped (a writer behind on its own pings may add to the count).
    const { socket, posts, replied, closed } = sloth;
    socket.resume();
    socket.write(encodeFrame({ id: 99, op: "status" }));
    await until(() => replied(99), { timeoutMs: 10_000, what: "the sloth reads again" });
    expect(closed()).toBe(false);
    expect(posts()).toBeLessThanOrEqual(WRITERS * POSTS_PER_ROUND);
    expect(posts() + droppedInRound).toBeGreaterThanOrEqual(WRITERS * POSTS_PER_ROUND);
    slothHeard.push(posts());
    socket.destroy();
    const gone = hog;
    gone.socket.resume();
    await until(() => gone.closed(), { timeoutMs: 10_000, what: "the hog sees its connection closed" });
  }
  rss.stop();
  expect((await Promise.all(writers.map((w) => w.exit))).map((e) => e.code)).toEqual(writers.map(() => 0));
  const log = readFileSync(join(agentDir, "roundtable", "broker.log"), "utf8");
  expect(
    log.match(
      /warn closing connection: outbound queue passed the high-water mark; the peer is not reading .*role=hog/g,
    ),
  ).toHaveLength(2);
  expect(log).not.toMatch(/high-water mark.*role=sloth/);
  const status = await observer.status();

  const after = await broker.liveMemory();
  const live = (m: typeof baseline): number => m.heapUsed + m.external;
  expect(rss.peakKiB() - rss.baselineKiB).toBeLessThanOrEqual(RSS_SLACK_KIB);
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const fast = median(roundMs.filter((r) => !r.slow).map((r) => r.ms));
  const slowed = median(roundMs.filter((r) => r.slow).map((r) => r.ms));
  report("slow reader", {
    writers: WRITERS,
    postsPerRound: WRITERS * POSTS_PER_ROUND,
    roundsMs: roundMs.map((r) => `${r.slow ? "slow" : "plain"}:${fixed(r.ms, 0)}`).join(","),
    slowdown: `${fixed(slowed / fast, 2)}x`,
    statedFactor: `${SLOWDOWN_FACTOR}x`,
    pingsDropped: status.pingsDropped,
    slothHeard: slothHeard.join(","),
    hogClosedAtHighWaterMark: true,
    slothStillMember: true,
    rssBaselineMiB: fixed(rss.baselineKiB / 1024),
    rssPeakMiB: fixed(rss.peakKiB() / 1024),
    liveBaselineMiB: fixed(live(baseline) / 1048576),
    liveAfterMiB: fixed(live(after) / 1048576),
  });
  expect(slowed / fast).toBeLessThanOrEqual(SLOWDOWN_FACTOR);
});
