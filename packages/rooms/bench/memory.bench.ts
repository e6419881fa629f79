// Heap cost of full rooms: 100 rooms x 500 messages with 2 KB bodies, as a ratio of heap growth to the raw body
// bytes held. Target <= 1.3x: the ring, message records and indexes may add at most 30% over the text itself.
import { reportRatio, seededRandom } from "../../../bench-support/report.js";
import { DEFAULT_RING_CAPACITY, RoomRegistry } from "@orphus/rooms";

const ROOMS = 100;
const MESSAGES_PER_ROOM = DEFAULT_RING_CAPACITY;
const BODY_BYTES = 2048;

const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error("run with --expose-gc (pnpm bench rooms does)");

// Bodies are ASCII text (V8 then stores one byte per character), each a fresh string copied out of a random pool,
// so no body shares storage with another or with the pool.
const random = seededRandom(7);
const pool = Buffer.alloc(64 * 1024);
for (let i = 0; i < pool.length; i++) pool[i] = 32 + Math.floor(random() * 95);
const nextBody = (): string => {
  const offset = Math.floor(random() * (pool.length - BODY_BYTES));
  return pool.toString("latin1", offset, offset + BODY_BYTES);
};

const heapUsed = (): number => {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
};

const before = heapUsed();
const registry = new RoomRegistry({ maxRooms: ROOMS, clock: () => 1_767_225_600_000 });
let rawBytes = 0;
for (let r = 0; r < ROOMS; r++) {
  const room = registry.getOrCreate(`room-${r}`);
  room.join("writer", r);
  room.join("reader", r);
  for (let m = 0; m < MESSAGES_PER_ROOM; m++) {
    const body = nextBody();
    rawBytes += Buffer.byteLength(body, "utf8");
    room.post("writer", body);
  }
}
const growth = heapUsed() - before;
const mib = (bytes: number): string => (bytes / 1048576).toFixed(1);
const retained = registry.list().reduce((sum, room) => sum + room.retainedCount, 0);

reportRatio({
  name: "rooms.memory-per-body-byte",
  ratio: growth / rawBytes,
  target: { kind: "at-most", value: 1.3 },
  detail: `heap +${mib(growth)} MiB for ${retained} messages holding ${mib(rawBytes)} MiB of bodies`,
});
