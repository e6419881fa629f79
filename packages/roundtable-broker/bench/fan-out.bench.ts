// Fan-out of the broker (in its own process) against floors that make the same writes:
// 1. Pipelined posts into a room of 8 other members, answered posts per second, against a framed JS forwarder
//    (bench/framed-forwarder-server.ts): the least a JavaScript server does to give the broker's wire output (decode
//    each frame, answer it, send each other connection one counted posts event per read), so the ratio is the
//    broker's own work. Target >= 0.6. Beside it, informative: the same posts against a raw forwarder in its own
//    process that answers each read's frames and writes them on to every other connection, unparsed
//    (bench/forwarder-server.mjs); both floors are sent the same post frames, encoded before the block.
// 2. One post to a room of 32 other members, time until the last of them is notified, vs one frame through the raw
//    forwarder to 32 connections. Target <= 1.2.
// 3. The same unpinned (the scheduler placing client and servers, when the runner did not pin): against the raw
//    forwarder, target <= 1.2; and against pi-intercom's broadcast bus (bench/intercom-bus-server.ts, the closest
//    public peer's algorithm), target <= 1: ahead of it.
// The broker is bench/broker-entry.ts, the bin's code bundled the same way with the member limit raised (an author
// and 32 listeners are 33 members; the default limit is 32). Like every latency benchmark here, both figures are
// taken with client and servers on one CPU (judged) and on different CPUs (reported beside), the sides alternating
// in blocks (bench-support/harness.ts); each figure is the median of per-block ratios with its spread.
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { encodeFrame } from "@orphus/framing";
import { alternateBlocks, blockRatios } from "../../../bench-support/harness.js";
import { benchCpu, unpinProcesses } from "../../../bench-support/cpu.js";
import { benchNotes, reportRatio, type RatioReport } from "../../../bench-support/report.js";
import { quantile } from "../../../bench-support/stats.js";
import {
  BenchClient,
  FrameTally,
  POST_BODY,
  acrossPlacements,
  brokerSocket,
  brokerStatus,
  bundledFanOutBroker,
  member,
  micros,
  pipelinedRate,
  spawnBroker,
  spawnFloor,
  tempDir,
  withBenchScope,
} from "./support.js";

benchNotes([
  "The peer: pi-intercom is not on the npm registry, so its broadcast bus is rebuilt in bench/intercom-bus-server.ts " +
    "from its broker's code (length-prefixed reader parsing in place, a token bucket per connection, then per session " +
    "a JSON.stringify, a buffer and a write, and the sender's acknowledgement). It writes each member the message " +
    "with its body; the broker writes each a body-free posts event, encoded once and shared.",
  "Where the broker's time goes in one post to 32 members (a CPU profile of the fan-out entry through the unpinned " +
    "figures, as shares of its busy time): the 33 socket writes 58%, garbage collection 6%, and no function of the " +
    "broker's own above 2% (sendEvent, flush, the posts event's prefix). A profile says how much CPU, not when the " +
    "first member hears: see the next note.",
  "Against pi-intercom's bus the broker was at parity on a quiet machine (0.973x, 1.027x and 0.976x on Node 20, " +
    "1.025x on Node 24), although it spent less CPU. Timed inside each server (performance.now at the read and after " +
    "each write, 3,300 posts, unpinned), the broker's writes were faster, its last one 88 to 104 µs after the read " +
    "against 124 to 148 µs for the bus, but its first one later, 36 to 46 µs against 19 to 25 µs: it queued all 32 " +
    "members and the author's reply before writing at the end of the turn, while the bus writes as it goes. One " +
    "client process reads the 32 members at about 3 µs a read, slower than the broker writes, so the last member " +
    "hears about 31 reads after the first, and the first write sets the figure. Now the events of a read's last " +
    "request go at once to each member with nothing queued or unsent (Outbox.writesAtOnce; pipelined requests still " +
    "merge): the first write leaves 27 to 31 µs after the read. Recorded after it: 0.882x, 0.961x and 0.918x on " +
    "Node 20, 0.959x on Node 24.",
  "Tried for the same figure and not kept: the post event's frame from a template instead of JSON.stringify. It " +
    "took the frame's encoding, at the head of the fan-out, from 3.5 to 2.4 µs inside the broker, but moved no " +
    "figure beyond its runs' spread (two alternating runs, each build against the bus: 0.951x and 0.945x without, " +
    "0.992x and 0.953x with).",
  "Why the pipelined posts are judged against the framed JS forwarder, not the raw one: the raw forwarder copies each " +
    "231-byte frame to 8 connections and its client reads all of it, so its rate is the host's memory traffic. Run " +
    "alone, with every block of 40,000 frames read in the same 157 reads, it gave 125,000 to 438,000 frames/s from " +
    "block to block, and within one run its blocks spread about twofold, the broker's less; the framed JS forwarder " +
    "ran at 0.55x to 0.87x of it in the same run. A target against the raw forwarder was judged on where the host put " +
    "that floor in the run (the broker's median fell either side of 0.5x of it from run to run), while against the " +
    "framed JS forwarder the broker was at 0.64x to 0.77x on Node 20 and 0.79x to 0.90x on Node 24: hence at least 0.6x.",
  "Why 27 blocks per pipelined pair: with 11, a run's median was the median of 11 widely spread block ratios (0.33x to " +
    "0.89x within one run against the raw forwarder), and it moved from 0.43x to 0.65x between back-to-back runs; 27 " +
    "held it to 0.45x to 0.50x.",
  "The Node line moves the raw floor more than the broker: the raw forwarder's median blocks were 264,000 to 375,000 " +
    "frames/s on Node 20, 220,000 to 246,000 on Node 22 and 232,000 to 275,000 on Node 24, so the informative raw " +
    "ratio is higher on the later lines without the broker being faster.",
  "Posts in a row by one author are one entry with a count: at 8 members the broker writes about 104 bytes per " +
    "pipelined post instead of 366. The pipelined figure did not move measurably with it (per-pair medians 0.95x to " +
    "1.03x against the build before); what it changes is what a member pays: a client reads a burst of 250 posts in " +
    "about 10 µs instead of 250 µs, and a stalled reader of 8,000 posts keeps every ping.",
  "A connection asks for a write callback only while it holds events: a first version that wrote every frame with a " +
    "completion callback put one post to 32 members at 1.098x to 1.180x against 1.078x to 1.090x for the build before, " +
    "in three alternating runs, since Node takes a write without a callback on a faster path.",
  "The names' JSON, plain: the broker kept a module-level cache of the last room and author names' JSON, and wrote a " +
    "posts event's entries from a template counted by string length (which held only for ASCII names). Against " +
    "`JSON.stringify` each time, counted in UTF-8 bytes, on Node 20 pinned to one CPU, the two builds alternating two " +
    "runs each: pipelined posts to 8 members against the framed JS forwarder at 0.613x and 0.658x with them, 0.615x " +
    "and 0.667x without; one post to 32 members at 1.087x and 1.103x with them, 1.092x and 1.108x without. No gain " +
    "beyond the runs' spread, so the cache and the ASCII assumption went.",
  "The post reply, from a template again: a run's ratio spreads too widely to show a change of a few per cent, so " +
    "a first comparison of the ratio (0.575x and 0.591x with a template, 0.591x and 0.613x without) took the " +
    "template out. The broker's own CPU per post, read from the broker over IPC (getrusage) around blocks of 40,000 " +
    "pipelined posts to 8 members on one CPU, three runs of each build alternating, settles it: 3.10 to 3.52 µs " +
    "with JSON.stringify of each reply, 2.57 to 2.62 µs with the template (src/post-reply.ts, property-tested " +
    "against JSON.stringify). A profile had put JSON.stringify of the replies at 13% of the broker's time. The " +
    "judged ratio went from 0.503x to 0.569x in the run after.",
  "The post reply's writer keeps the last room's JSON and its UTF-8 length (src/post-reply.ts): a profile of the " +
    "pipelined posts had put the reply's measuring call (Buffer.byteLength) at 4% of the broker's busy time and the " +
    "template with its JSON.stringify of the room at 4%. CPU per post, read as above, three runs with the builds " +
    "alternating: 2.71, 2.45 and 2.52 µs before, 2.49, 2.32 and 2.34 µs after.",
  "The same on Node 24, one run of each build alternating, pinned to one CPU: the build with the names' cache and " +
    "both templates gave 0.572x against the framed JS forwarder (IQR 0.448 to 0.914) and 1.063x for one post to 32 " +
    "members; the build without them 0.539x (IQR 0.408 to 0.873) and 1.067x. Both builds fall short of 0.6x on Node " +
    "24 on this loaded machine, where the first note above saw 0.79x to 0.90x: the shortfall on Node 24 is not the " +
    "removal's, and is open.",
  "Where the broker's time goes (two profiles of the broker from source, alone on its CPU, under batches of posts to " +
    "8 members, as shares of its busy time): decoding requests (the text and JSON.parse, which no JavaScript server " +
    "avoids) about 21%, socket writes about 16% (with the time the kernel hands the CPU to the readers they wake), " +
    "the fan-out to the 8 members 8% to 10%, replies 7% to 9%, garbage collection 6% to 8%, the room and its store 5% " +
    "to 6%, the rest spread thinly.",
]);

const PIPE_MEMBERS = 8;
const PIPELINED = 40_000;
/** Blocks per pipelined pair: 27, not 11, because the floors' blocks spread widely (see the notes below). */
const PIPELINED_BLOCKS = 27;
/** Pipelined posts each side is sent before the blocks, so both run optimised code when they count. */
const PIPELINED_WARMUP = 40_000;
const WINDOW = 256;
const WIDE_MEMBERS = 32;
const FAN_OUT_BLOCKS = 27;
const FAN_OUT_PER_BLOCK = 300;

await withBenchScope(async ({ children, cleanups }) => {
  const program = await bundledFanOutBroker(cleanups);
  const agentDir = tempDir(cleanups);
  children.push(await spawnBroker(program, agentDir));
  const socket = brokerSocket(agentDir);
  const pipeForwarder = join(tempDir(cleanups), "forward-8.sock");
  children.push(await spawnFloor("forwarder", pipeForwarder));
  const framedForwarder = join(tempDir(cleanups), "framed-forward-8.sock");
  children.push(await spawnFloor("framed-forwarder", framedForwarder));
  const wideForwarder = join(tempDir(cleanups), "forward-32.sock");
  children.push(await spawnFloor("forwarder", wideForwarder));
  const intercomBus = join(tempDir(cleanups), "intercom-bus.sock");
  children.push(await spawnFloor({ program: "intercom-bus-server.ts", args: [] }, intercomBus));

  // The broker's rooms: "pipe" with an author and 8 listeners, "wide" with an author and 32; each listener group
  // counts its frames together. The forwarders get a sender and as many plain connections.
  const listen = async (room: string, count: number): Promise<{ tally: FrameTally; clients: BenchClient[] }> => {
    const tally = new FrameTally();
    const clients = [];
    for (let i = 0; i < count; i++) clients.push(await member(socket, `${room}-listener-${i}`, room, tally));
    return { tally, clients };
  };
  const connectAll = async (path: string, count: number): Promise<{ tally: FrameTally; clients: BenchClient[] }> => {
    const tally = new FrameTally();
    const clients = [];
    for (let i = 0; i < count; i++) clients.push(await BenchClient.connect(path, tally));
    return { tally, clients };
  };
  const pipeAuthor = await member(socket, "pipe-author", "pipe");
  const pipeListeners = await listen("pipe", PIPE_MEMBERS);
  const wideAuthor = await member(socket, "wide-author", "wide");
  const wideListeners = await listen("wide", WIDE_MEMBERS);
  const pipeSender = await BenchClient.connect(pipeForwarder);
  const pipeReceivers = await connectAll(pipeForwarder, PIPE_MEMBERS);
  const framedSender = await BenchClient.connect(framedForwarder);
  const framedReceivers = await connectAll(framedForwarder, PIPE_MEMBERS);
  const wideSender = await BenchClient.connect(wideForwarder);
  const wideReceivers = await connectAll(wideForwarder, WIDE_MEMBERS);
  const busSender = await BenchClient.connect(intercomBus);
  const busReceivers = await connectAll(intercomBus, WIDE_MEMBERS);

  /** The slowest and fastest of a side's blocks, in thousands: how far the host moved each side within one run. */
  const range = (rates: readonly number[]): string =>
    `${Math.round(Math.min(...rates) / 1000)}k–${Math.round(Math.max(...rates) / 1000)}k`;
  let id = 10;
  const post = (room: string) => (): Buffer => encodeFrame({ id: ++id, op: "post", room, body: POST_BODY });
  const sameSize = post("pipe")();
  /**
   * `count` post requests encoded before a block starts, handed out in turn: both sides of the pipelined figure are
   * sent these very bytes, so the client's work is the same for each and no JSON encoding falls inside the timing.
   */
  const encodedPosts = (count: number): (() => Buffer) => {
    const frames = Array.from({ length: count }, post("pipe"));
    let next = 0;
    return () => frames[next++ % count] as Buffer;
  };

  /** One frame from `sender`; the milliseconds until every one of `listeners` has it, and its own answer is back. */
  const fanOutOnce = async (
    sender: BenchClient,
    listeners: { tally: FrameTally; clients: BenchClient[] },
    frame: Buffer,
  ): Promise<number> => {
    const notified = listeners.tally.until(listeners.tally.total + listeners.clients.length);
    const answered = sender.until(sender.tally.total + 1);
    const start = performance.now();
    sender.socket.write(frame);
    await notified;
    const elapsed = listeners.tally.reachedAt - start;
    await answered;
    return elapsed;
  };
  const fanOutBlock = async (
    sender: BenchClient,
    listeners: { tally: FrameTally; clients: BenchClient[] },
    frame: () => Buffer,
  ): Promise<number[]> => {
    const samples: number[] = [];
    for (let i = 0; i < FAN_OUT_PER_BLOCK; i++) samples.push(await fanOutOnce(sender, listeners, frame()));
    return samples;
  };

  /** Blocks of one post to 32 listeners through the broker against the same through `floor`; per-block p50s. */
  const lastNotifiedBlocks = async (
    floorSender: BenchClient,
    floorReceivers: { tally: FrameTally; clients: BenchClient[] },
  ): Promise<{ broker: number[]; floor: number[]; brokerP50: number; floorP50: number }> => {
    for (let i = 0; i < 300; i++) {
      await fanOutOnce(wideAuthor, wideListeners, post("wide")());
      await fanOutOnce(floorSender, floorReceivers, sameSize);
    }
    const blocks = await alternateBlocks(
      {
        broker: () => fanOutBlock(wideAuthor, wideListeners, post("wide")),
        floor: () => fanOutBlock(floorSender, floorReceivers, () => sameSize),
      },
      { blocks: FAN_OUT_BLOCKS, warmupBlocks: 0 },
    );
    const p50 = (samples: number[]): number => quantile(samples, 0.5);
    return {
      broker: blocks.broker.map(p50),
      floor: blocks.floor.map(p50),
      brokerP50: quantile(blocks.broker.flat(), 0.5),
      floorP50: quantile(blocks.floor.flat(), 0.5),
    };
  };
  /** The last-notified figure against the raw forwarder, named with `suffix`. */
  const lastNotified = async (
    suffix: string,
    placed: string,
    note: string,
    target: (target: NonNullable<RatioReport["target"]>) => Pick<RatioReport, "target">,
  ): Promise<void> => {
    const run = await lastNotifiedBlocks(wideSender, wideReceivers);
    reportRatio({
      name: `roundtable-broker.fan-out-${WIDE_MEMBERS}-members-last-notified${suffix}`,
      about:
        `One post to a room of ${WIDE_MEMBERS} other members, p50 time until the last of them has its post event, against ` +
        `one frame through the raw forwarder to ${WIDE_MEMBERS} connections${placed}`,
      ratio: blockRatios(run.broker, run.floor),
      ...target({ kind: "at-most", value: 1.2 }),
      sides: { subject: run.brokerP50, baseline: run.floorP50, unit: "ms (p50)" },
      detail:
        `p50 ${micros(run.brokerP50)} from post to the last of ${WIDE_MEMBERS} members notified vs ` +
        `${micros(run.floorP50)} for the forwarder (${FAN_OUT_BLOCKS} blocks of ${FAN_OUT_PER_BLOCK}; ${note})`,
    });
  };

  // The same-CPU (or unpinned) figures carry the targets; the cross-CPU ones are reported beside them.
  await acrossPlacements("roundtable-broker.fan-out", children, async ({ placement, judged, suffix, target }) => {
    // 1. Pipelined posts, 8 listeners.
    await pipelinedRate(pipeAuthor, encodedPosts(PIPELINED_WARMUP), PIPELINED_WARMUP, WINDOW);
    await pipelinedRate(pipeSender, encodedPosts(PIPELINED_WARMUP), PIPELINED_WARMUP, WINDOW);
    await pipelinedRate(framedSender, encodedPosts(PIPELINED_WARMUP), PIPELINED_WARMUP, WINDOW);
    const dropsBefore = Number((await brokerStatus(socket))["pingsDropped"]);
    const rates = await alternateBlocks(
      {
        posts: () => pipelinedRate(pipeAuthor, encodedPosts(PIPELINED), PIPELINED, WINDOW),
        framed: () => pipelinedRate(framedSender, encodedPosts(PIPELINED), PIPELINED, WINDOW),
      },
      { blocks: PIPELINED_BLOCKS, warmupBlocks: 0 },
    );
    const dropped = Number((await brokerStatus(socket))["pingsDropped"]) - dropsBefore;
    reportRatio({
      name: `roundtable-broker.pipelined-posts-${PIPE_MEMBERS}-members-vs-framed-js-forwarder${suffix}`,
      about:
        `Pipelined posts (window ${WINDOW}) into a room of ${PIPE_MEMBERS} other members, answered posts per second, ` +
        `against a JS server that only decodes, answers and sends each other connection one counted posts event per read` +
        (judged ? "." : "; client and servers on different CPUs, reported beside the judged figure."),
      ratio: blockRatios(rates.posts, rates.framed),
      ...target({ kind: "at-least", value: 0.6 }),
      sides: {
        subject: quantile(rates.posts, 0.5),
        baseline: quantile(rates.framed, 0.5),
        unit: "posts/s vs frames/s",
      },
      detail:
        `${Math.round(quantile(rates.posts, 0.5))} posts/s, each to ${PIPE_MEMBERS} members, vs ` +
        `${Math.round(quantile(rates.framed, 0.5))} frames/s through the framed JS forwarder ` +
        `(median blocks of ${PIPELINED}, window ${WINDOW}; the blocks ranged ${range(rates.posts)} posts/s and ` +
        `${range(rates.framed)} frames/s; ${dropped} pings dropped; ${placement.note})`,
    });
    // Apart from the judged pair, so a third side cannot change the order its blocks run in.
    const raw = await alternateBlocks(
      {
        posts: () => pipelinedRate(pipeAuthor, encodedPosts(PIPELINED), PIPELINED, WINDOW),
        forwards: () => pipelinedRate(pipeSender, encodedPosts(PIPELINED), PIPELINED, WINDOW),
      },
      { blocks: PIPELINED_BLOCKS, warmupBlocks: 0 },
    );
    reportRatio({
      name: `roundtable-broker.pipelined-posts-${PIPE_MEMBERS}-members-vs-raw-forwarder${suffix}`,
      about:
        `The same pipelined posts against a raw forwarder that answers each read's frames and writes them on to ` +
        `${PIPE_MEMBERS} other connections unparsed (informative: its rate is the host's memory traffic more than code)` +
        (judged ? "." : "; client and servers on different CPUs."),
      ratio: blockRatios(raw.posts, raw.forwards),
      sides: { subject: quantile(raw.posts, 0.5), baseline: quantile(raw.forwards, 0.5), unit: "posts/s vs frames/s" },
      detail:
        `${Math.round(quantile(raw.posts, 0.5))} posts/s vs ${Math.round(quantile(raw.forwards, 0.5))} frames/s ` +
        `answered and forwarded to ${PIPE_MEMBERS} connections unparsed (informative, no target; its blocks ranged ` +
        `${range(raw.forwards)} frames/s; ${placement.note})`,
    });

    // 2. One post, 32 listeners, last one notified.
    await lastNotified(
      suffix,
      judged ? "." : "; client and servers on different CPUs, reported beside the judged figure.",
      placement.note,
      target,
    );
  });
  // 3. Unpinned: the scheduler places client and servers, as on a user's machine; judged there too, and against the
  // peer's broadcast bus.
  if (benchCpu() !== undefined) {
    process.stdout.write(
      `roundtable-broker.fan-out-${WIDE_MEMBERS}-members-last-notified-unpinned: not measured (the runner pinned this ` +
        `benchmark to CPU ${benchCpu()}; run it without --cpu)\n`,
    );
  } else {
    unpinProcesses([process.pid, ...children.map((child) => child.pid as number)]);
    const note = "unpinned: the scheduler placed client and servers";
    await lastNotified("-unpinned", "; unpinned, the scheduler placing client and servers.", note, (target) => ({
      target,
    }));
    const bus = await lastNotifiedBlocks(busSender, busReceivers);
    reportRatio({
      name: `roundtable-broker.fan-out-${WIDE_MEMBERS}-members-vs-intercom-bus-unpinned`,
      about:
        `One post to a room of ${WIDE_MEMBERS} other members, p50 time until the last of them has its post event, against ` +
        `one message through pi-intercom's broadcast bus (its algorithm, bench/intercom-bus-server.ts) to ` +
        `${WIDE_MEMBERS} sessions; unpinned. Below 1: the broker is ahead.`,
      ratio: blockRatios(bus.broker, bus.floor),
      target: { kind: "at-most", value: 1 },
      sides: { subject: bus.brokerP50, baseline: bus.floorP50, unit: "ms (p50)" },
      detail:
        `p50 ${micros(bus.brokerP50)} from post to the last of ${WIDE_MEMBERS} members notified vs ` +
        `${micros(bus.floorP50)} through the intercom bus (${FAN_OUT_BLOCKS} blocks of ${FAN_OUT_PER_BLOCK}; ${note})`,
    });
  }
  for (const client of [pipeAuthor, wideAuthor, pipeSender, framedSender, wideSender, busSender]) client.close();
  for (const group of [pipeListeners, wideListeners, pipeReceivers, framedReceivers, wideReceivers, busReceivers]) {
    for (const client of group.clients) client.close();
  }
});
