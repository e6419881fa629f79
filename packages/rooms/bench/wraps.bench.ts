// Append + read cost must not grow with how often the ring has wrapped: the same operations on a room that has
// wrapped 1000 times and on one that has wrapped once, as a median ratio over alternating blocks. Target <= 1.3x.
import { performance } from "node:perf_hooks";
import { compareInBlocks } from "../../../bench-support/harness.js";
import { DEFAULT_RING_CAPACITY, Room } from "@orphus/rooms";

const FEW_WRAPS = 1;
const MANY_WRAPS = 1000;
/** Operations timed per sample: one more wrap's worth, so the rooms stay at about their wrap counts. */
const OPS = DEFAULT_RING_CAPACITY;
const BLOCKS = 21;
const BODY = "x".repeat(512);

const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error("run with --expose-gc (pnpm bench rooms does)");

/** A room whose ring has wrapped `wraps` times, with a writer and a reader that is caught up. */
function wrapped(wraps: number): Room {
  const room = new Room("bench", { clock: () => 0 });
  room.join("writer", 1);
  room.join("reader", 2);
  for (let i = 0; i < DEFAULT_RING_CAPACITY * wraps; i++) room.post("writer", BODY);
  room.markRead("reader", room.newestSeq);
  return room;
}

/** Times OPS rounds of: post, read the reader's unread, mark it read, and page back over the last 50. */
function appendAndRead(room: Room): number {
  let checksum = 0;
  const start = performance.now();
  for (let i = 0; i < OPS; i++) {
    const { seq } = room.post("writer", BODY);
    const unread = room.unread("reader", 10);
    room.markRead("reader", unread.newestSeq);
    checksum += unread.messages.length + room.page(seq - 50, 50).messages.length;
  }
  const elapsed = performance.now() - start;
  if (checksum !== OPS * 51) throw new Error(`reads returned ${checksum} messages, expected ${OPS * 51}`);
  return elapsed;
}

// Each block builds its room fresh (so each sample sees the room at its wrap count) and collects the garbage of
// building it before the clock starts; the harness alternates which wrap count goes first.
const measured = (wraps: number) => (): number => {
  const room = wrapped(wraps);
  collect();
  return appendAndRead(room);
};
const perOp = (ms: number): string => ((ms * 1000) / OPS).toFixed(2);
await compareInBlocks({
  name: "rooms.append-read-after-1000-wraps",
  about:
    "Post, read the unread, mark read and page back 50 messages on a room whose ring has wrapped 1000 times, against " +
    "a room that has wrapped once.",
  unit: `ms per ${OPS} rounds`,
  blocks: BLOCKS,
  subject: measured(MANY_WRAPS),
  baseline: measured(FEW_WRAPS),
  target: { kind: "at-most", value: 1.3 },
  detail: ({ subject, baseline }) =>
    `median ${perOp(subject)} µs per post+reads at ${MANY_WRAPS} wraps, ${perOp(baseline)} µs at ${FEW_WRAPS}`,
});
