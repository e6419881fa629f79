// Heap cost of full rooms: 100 rooms x 500 messages with 2 KB bodies, as a ratio of heap growth to the raw body
// bytes held, median of 5 fills. Target <= 1.3x: the ring, message records and indexes may add at most 30% over the text itself.
import { alternateBlocks, summarise } from "../../../bench-support/harness.js";
import { reportRatio } from "../../../bench-support/report.js";
import { seededRandom } from "../../../bench-support/stats.js";
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

const mib = (bytes: number): string => (bytes / 1048576).toFixed(1);
interface Fill {
  readonly ratio: number;
  readonly growth: number;
  readonly rawBytes: number;
  readonly retained: number;
}

/** Fills a fresh registry, measures its heap growth against the body bytes it holds, then lets it go. */
function fill(): Fill {
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
  const retained = registry.list().reduce((sum, room) => sum + room.retainedCount, 0);
  return { ratio: growth / rawBytes, growth, rawBytes, retained };
}

// Heap figures do not drift with load the way times do, but a block harness still shows whether they repeat.
const { fills } = await alternateBlocks({ fills: fill }, { blocks: 5, warmupBlocks: 0 });
const middle = fills.slice().sort((a, b) => a.ratio - b.ratio)[Math.floor(fills.length / 2)] as Fill;
reportRatio({
  name: "rooms.memory-per-body-byte",
  about:
    "Heap growth of 100 full rooms (500 messages of 2 KB ASCII bodies each) over the raw body bytes they hold " +
    "(a ratio of bytes, not a timing).",
  ratio: summarise(fills.map((f) => f.ratio)),
  sides: {
    subject: middle.growth / 1048576,
    baseline: middle.rawBytes / 1048576,
    unit: "MiB of heap vs MiB of bodies",
  },
  target: { kind: "at-most", value: 1.3 },
  detail: `heap +${mib(middle.growth)} MiB for ${middle.retained} messages holding ${mib(middle.rawBytes)} MiB of bodies`,
});
