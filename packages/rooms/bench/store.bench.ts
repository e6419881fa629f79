// What the RoomStore interface costs the in-memory rooms on the broker's hot path: post, read the unread and mark
// them read through MemoryRoomStore, chained with andThen as a broker does (the memory store answers synchronously,
// so no promise is made), against the same operations on a Room directly (the floor). One long-lived room and store,
// alternating blocks, the median of the blocks' ratios with their spread. A third figure, through `await`, shows
// what a promise per call costs instead.
import { performance } from "node:perf_hooks";
import { quantile, reportRatio } from "../../../bench-support/report.js";
import { MemoryRoomStore, Room, andThen, type Awaitable, type StoreRead } from "@orphus/rooms";

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
  for (let i = 0; i < OPS; i++) andThen(store.post("bench", "writer", BODY), posted);
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

const ratios: number[] = [];
const awaitRatios: number[] = [];
const floor: number[] = [];
const subject: number[] = [];
for (let block = -5; block < BLOCKS; block++) {
  // The first five are warm-up; the order alternates so neither side always runs first.
  const f1 = block % 2 === 0 ? direct() : 0;
  const s = throughStore();
  const a = await throughAwait();
  const f = block % 2 === 0 ? f1 : direct();
  if (block < 0) continue;
  floor.push(f);
  subject.push(s);
  ratios.push(s / f);
  awaitRatios.push(a / f);
}
if (store.read("bench", "reader").newestSeq !== room.newestSeq) throw new Error("the store and the room disagree");
const perOp = (ms: number): string => `${((ms * 1000) / OPS).toFixed(2)} µs`;
const spread = (values: number[]): string => `${quantile(values, 0.1).toFixed(2)}–${quantile(values, 0.9).toFixed(2)}`;
reportRatio({
  name: "rooms.memory-store-overhead",
  ratio: quantile(ratios, 0.5),
  target: { kind: "at-most", value: 2 },
  detail:
    `median ${perOp(quantile(subject, 0.5))} per post+read+markRead through MemoryRoomStore with andThen, ` +
    `${perOp(quantile(floor, 0.5))} on a Room; block ratios p10–p90 ${spread(ratios)} over ${BLOCKS} blocks`,
});
reportRatio({
  name: "rooms.memory-store-with-await",
  ratio: quantile(awaitRatios, 0.5),
  detail: `the same with an await per call (not the broker's path; for comparison), p10–p90 ${spread(awaitRatios)}`,
});
