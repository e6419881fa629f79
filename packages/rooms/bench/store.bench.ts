// What the RoomStore interface costs the in-memory rooms on the broker's hot path: post, read the unread and mark
// them read through MemoryRoomStore, chained with andThen as a broker does (the memory store answers synchronously,
// so no promise is made), against the same operations on a Room directly (the floor). One long-lived room and store,
// alternating blocks, the median of the blocks' ratios with their spread. A third figure, through `await`, shows
// what a promise per call costs instead.
import { performance } from "node:perf_hooks";
import { compareInBlocks } from "../../../bench-support/harness.js";
import { benchNotes } from "../../../bench-support/report.js";
import { MemoryRoomStore, Room, andThen, type Awaitable, type StoreRead } from "@orphus/rooms";

benchNotes([
  "The overhead is about 0.1 µs a request, against a broker round trip of tens of µs. It was 1.63x to 1.71x before a " +
    "post handed on the room's frozen member list (Room.memberList()) instead of copying it.",
]);

const OPS = 2_000;
const BLOCKS = 41;
const BODY = "x".repeat(512);

const room = new Room("bench", { clock: () => 0 });
room.join("writer", "writer");
room.join("reader", "reader");
function direct(): number {
  const start = performance.now();
  for (let i = 0; i < OPS; i++) {
    room.post("writer", BODY);
    const page = room.unread("reader", 10);
    room.markRead("reader", page.newestSeq);
  }
  return performance.now() - start;
}

const store = new MemoryRoomStore({ clock: () => 0 });
store.join("bench", "writer");
store.join("bench", "reader");
// Continuations made once, as a broker's request handlers are, rather than a closure per call.
const limit = { limit: 10 };
const marked = (cursor: number): number => cursor;
const read = (page: StoreRead): Awaitable<number> => andThen(store.markRead("bench", "reader", page.newestSeq), marked);
const posted = (): Awaitable<number> => andThen(store.read("bench", "reader", limit), read);
function throughStore(): number {
  const start = performance.now();
  for (let i = 0; i < OPS; i++) void andThen(store.post("bench", "writer", BODY), posted);
  return performance.now() - start;
}

const awaitedStore = new MemoryRoomStore({ clock: () => 0 });
awaitedStore.join("bench", "writer");
awaitedStore.join("bench", "reader");
async function throughAwait(): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < OPS; i++) {
    await awaitedStore.post("bench", "writer", BODY);
    const page = await awaitedStore.read("bench", "reader", limit);
    await awaitedStore.markRead("bench", "reader", page.newestSeq);
  }
  return performance.now() - start;
}

const perOp = (ms: number): string => `${((ms * 1000) / OPS).toFixed(2)} µs`;
await compareInBlocks({
  name: "rooms.memory-store-overhead",
  about:
    "Post, read the unread and mark them read through MemoryRoomStore chained with andThen, as a broker does, against " +
    "the same operations on a Room directly.",
  unit: `ms per ${OPS} rounds`,
  blocks: BLOCKS,
  warmupBlocks: 5,
  subject: throughStore,
  baseline: direct,
  target: { kind: "at-most", value: 2 },
  detail: ({ subject, baseline }) =>
    `median ${perOp(subject)} per post+read+markRead through MemoryRoomStore with andThen, ${perOp(baseline)} on a Room`,
});
// Both took the same posts, block for block.
if (store.read("bench", "reader").newestSeq !== room.newestSeq) throw new Error("the store and the room disagree");
await compareInBlocks({
  name: "rooms.memory-store-with-await",
  about:
    "The same operations through the store with an await per call, against a Room directly (informative: what a " +
    "promise per call would cost; not the broker's path).",
  unit: `ms per ${OPS} rounds`,
  blocks: BLOCKS,
  warmupBlocks: 5,
  subject: throughAwait,
  baseline: direct,
  detail: ({ subject, baseline }) =>
    `${perOp(subject)} with an await per call (not the broker's path; for comparison) vs ${perOp(baseline)} on a Room`,
});
