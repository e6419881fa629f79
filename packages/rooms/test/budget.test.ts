// The memory store's byte budget across rooms: literal cases, then an fc.commands model against a naive reference
// that keeps each room's retained messages in a plain array and evicts by the stated rule.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { MemoryRoomStore, SeqRing, type StoreRead } from "@orphus/rooms";

/** A store on which `ann` and `bob` are members of `rooms`. */
function storeWith(rooms: readonly string[], options: ConstructorParameters<typeof MemoryRoomStore>[0]) {
  const store = new MemoryRoomStore({ clock: () => 1000, ...options });
  for (const room of rooms) {
    store.join(room, "ann");
    store.join(room, "bob");
  }
  return store;
}

/** Seqs of the messages `room` retains, read from seq 0 without moving a cursor. */
function retainedSeqs(store: MemoryRoomStore, room: string): number[] {
  return store.read(room, "bob", { afterSeq: 0, limit: 1000 }).messages.map((m) => m.seq);
}

describe("SeqRing weights and early eviction", () => {
  test("the weight follows appends, wraps and early evictions, and numbers are never reused", () => {
    const ring = new SeqRing<string>(3);
    ring.append("a", 10);
    ring.append("b", 20);
    ring.append("c", 30);
    expect(ring.weight).toBe(60);
    ring.append("d", 5); // wraps: "a" (10) leaves
    expect([ring.weight, ring.size, ring.oldestSeq, ring.newestSeq]).toEqual([55, 3, 2, 4]);
    expect(ring.evictOldest()).toEqual({ item: "b", weight: 20 });
    expect([ring.weight, ring.size, ring.oldestSeq]).toEqual([35, 2, 3]);
    ring.append("e", 1); // room left by the early eviction: nothing is overwritten
    expect([ring.weight, ring.size, ring.oldestSeq, ring.newestSeq]).toEqual([36, 3, 3, 5]);
    expect(ring.after(1, 10)).toEqual({
      items: ["c", "d", "e"],
      evicted: { count: 1, fromSeq: 2, toSeq: 2 },
      newestSeq: 5,
      oldestSeq: 3,
      hasMore: false,
    });
  });

  test("a ring emptied early reports every message evicted, oldestSeq 0, and appends on after its newest", () => {
    const ring = new SeqRing<string>(4);
    ring.append("a", 1);
    ring.append("b", 2);
    expect(ring.evictOldest()?.item).toBe("a");
    expect(ring.evictOldest()?.item).toBe("b");
    expect(ring.evictOldest()).toBeUndefined();
    expect([ring.weight, ring.size, ring.oldestSeq, ring.newestSeq, ring.get(2)]).toEqual([0, 0, 0, 2, undefined]);
    expect(ring.after(0, 10)).toEqual({
      items: [],
      evicted: { count: 2, fromSeq: 1, toSeq: 2 },
      newestSeq: 2,
      oldestSeq: 0,
      hasMore: false,
    });
    expect(ring.append("c", 3)).toBe(3);
    expect(ring.after(2, 10)).toEqual({ items: ["c"], newestSeq: 3, oldestSeq: 3, hasMore: false });
  });
});

describe("the memory store's text budget", () => {
  test("the default budget is 128 MiB, and a budget below twice the largest message is refused", () => {
    expect(new MemoryRoomStore().heldText()).toEqual({ heldBytes: 0, maxHeldBytes: 134_217_728, evictedMessages: 0 });
    expect(() => new MemoryRoomStore({ maxBodyBytes: 100, maxHeadlineBytes: 10, maxHeldBytes: 219 })).toThrow(
      expect.objectContaining({
        code: "ERR_ROOMS_INVALID_OPTION",
        message: "Invalid rooms option maxHeldBytes: expected an integer of at least 220, got 219",
      }),
    );
    expect(new MemoryRoomStore({ maxBodyBytes: 100, maxHeadlineBytes: 10, maxHeldBytes: 220 }).heldText()).toEqual({
      heldBytes: 0,
      maxHeldBytes: 220,
      evictedMessages: 0,
    });
    // Limits larger than the default budget lift the default to what the largest message needs.
    expect(new MemoryRoomStore({ maxBodyBytes: 100 * 1024 * 1024, maxHeadlineBytes: 0 }).heldText().maxHeldBytes).toBe(
      209_715_200,
    );
  });

  test("a post past the budget evicts the oldest of the largest room, reported to its readers exactly", () => {
    const store = storeWith(["aa", "bb"], { maxBodyBytes: 100, maxHeadlineBytes: 0, maxHeldBytes: 400 });
    for (let i = 0; i < 4; i++) store.post("aa", "ann", "x".repeat(50)); // 100 bytes each: 400, at the budget
    expect(store.heldText()).toEqual({ heldBytes: 400, maxHeldBytes: 400, evictedMessages: 0 });
    store.post("aa", "ann", "y".repeat(50)); // 500: aa's seq 1 goes
    expect(store.heldText()).toEqual({ heldBytes: 400, maxHeldBytes: 400, evictedMessages: 1 });
    store.post("bb", "ann", "é".repeat(50)); // 100 UTF-8 bytes, 100 held (two per unit): aa's 2 goes
    expect(store.heldText()).toEqual({ heldBytes: 400, maxHeldBytes: 400, evictedMessages: 2 });
    store.post("bb", "ann", "x".repeat(50)); // 500 again: aa still holds the most, its 3 goes
    expect(store.heldText()).toEqual({ heldBytes: 400, maxHeldBytes: 400, evictedMessages: 3 });
    expect(retainedSeqs(store, "aa")).toEqual([4, 5]);
    expect(retainedSeqs(store, "bb")).toEqual([1, 2]);
    // bob read nothing: his read says exactly what he missed, and his cursor did not move.
    const page = store.read("aa", "bob");
    expect(page).toMatchObject({ evicted: { count: 3, fromSeq: 1, toSeq: 3 }, newestSeq: 5, oldestSeq: 4, cursor: 0 });
    expect(page.messages.map((m) => [m.seq, m.body])).toEqual([
      [4, "x".repeat(50)],
      [5, "y".repeat(50)],
    ]);
    expect(store.list("bob").map((room) => [room.name, room.unread, room.retainedCount])).toEqual([
      ["aa", 5, 2],
      ["bb", 2, 2],
    ]);
  });

  test("the post itself is never evicted: a budget of one largest message empties the other rooms", () => {
    const store = storeWith(["aa", "bb"], { maxBodyBytes: 100, maxHeadlineBytes: 0, maxHeldBytes: 200 });
    store.post("aa", "ann", "a".repeat(40));
    store.post("aa", "ann", "a".repeat(40));
    store.post("bb", "ann", "b".repeat(100)); // 360 > 200: aa's both go, bb's post stays
    expect(store.heldText()).toEqual({ heldBytes: 200, maxHeldBytes: 200, evictedMessages: 2 });
    expect(store.read("aa", "bob")).toEqual({
      messages: [],
      evicted: { count: 2, fromSeq: 1, toSeq: 2 },
      newestSeq: 2,
      oldestSeq: 0,
      hasMore: false,
      cursor: 0,
    });
    expect(retainedSeqs(store, "bb")).toEqual([1]);
    // A role new to the emptied room starts after what it never saw; the room's seqs go on.
    expect(store.join("aa", "cy")).toMatchObject({ joined: true, newestSeq: 2, unread: 0 });
    expect(store.post("aa", "cy", "c").seq).toBe(3); // 2 bytes more: bb's only message is the largest and goes
    expect(retainedSeqs(store, "bb")).toEqual([]);
    expect(retainedSeqs(store, "aa")).toEqual([3]);
  });

  test("between rooms of equal size the one whose name sorts first gives way", () => {
    const store = storeWith(["zz", "mm", "aa"], { maxBodyBytes: 10, maxHeadlineBytes: 0, maxHeldBytes: 60 });
    for (const room of ["zz", "mm", "aa"]) store.post(room, "ann", "0123456789"); // 20 each: 60
    store.post("zz", "ann", "x"); // 62: mm and aa hold 20, zz 20 besides its post: aa goes
    expect(["aa", "mm", "zz"].map((room) => retainedSeqs(store, room))).toEqual([[], [1], [1, 2]]);
  });

  test("a ring that wraps frees what it drops, and a replayed post is answered after its message went", () => {
    const store = storeWith(["aa"], { maxBodyBytes: 10, maxHeadlineBytes: 10, capacity: 2, maxHeldBytes: 1000 });
    store.post("aa", "ann", "12345", { headline: "h", key: "k1" });
    store.post("aa", "ann", "12345");
    store.post("aa", "ann", "1"); // the ring drops seq 1 (12 bytes)
    expect(store.heldText()).toEqual({ heldBytes: 12, maxHeldBytes: 1000, evictedMessages: 0 });
    expect(store.post("aa", "ann", "12345", { headline: "h", key: "k1" })).toMatchObject({ seq: 1, replayed: true });
  });
});

// The model: each room's retained messages in an array, the budget applied by a scan written the obvious way.

const ROOMS = ["ra", "rb", "rc"] as const;
const ROLES = ["ann", "bob"] as const;

interface ModelMessage {
  readonly seq: number;
  readonly body: string;
  readonly headline?: string;
  readonly bytes: number;
}

interface ModelRoom {
  newestSeq: number;
  retained: ModelMessage[];
  readonly cursors: Map<string, number>;
}

interface Model {
  readonly capacity: number;
  readonly maxHeldBytes: number;
  readonly rooms: Map<string, ModelRoom>;
  evicted: number;
}

const held = (room: ModelRoom): number => room.retained.reduce((sum, m) => sum + m.bytes, 0);
const totalHeld = (model: Model): number => [...model.rooms.values()].reduce((sum, room) => sum + held(room), 0);

function modelPost(model: Model, name: string, author: string, body: string, headline: string | undefined): number {
  const room = model.rooms.get(name) as ModelRoom;
  const seq = ++room.newestSeq;
  const bytes = 2 * (body.length + (headline?.length ?? 0));
  room.retained.push(headline === undefined ? { seq, body, bytes } : { seq, body, headline, bytes });
  if (room.retained.length > model.capacity) room.retained.shift();
  if (room.cursors.get(author) === seq - 1) room.cursors.set(author, seq);
  while (totalHeld(model) > model.maxHeldBytes) {
    const sizes = ROOMS.map((candidate) => {
      const r = model.rooms.get(candidate) as ModelRoom;
      return { candidate, bytes: candidate === name ? held(r) - bytes : held(r) };
    }).filter((s) => s.bytes > 0);
    sizes.sort((a, b) => b.bytes - a.bytes || (a.candidate < b.candidate ? -1 : 1));
    const largest = sizes[0];
    if (largest === undefined) throw new Error("the model found nothing to evict");
    (model.rooms.get(largest.candidate) as ModelRoom).retained.shift();
    model.evicted++;
  }
  return seq;
}

/** What a read of `name` after `afterSeq` should say, from the model. */
function modelRead(model: Model, name: string, afterSeq: number, cursor: number): StoreRead {
  const room = model.rooms.get(name) as ModelRoom;
  const start = room.newestSeq - room.retained.length + 1;
  const messages = room.retained
    .filter((m) => m.seq > afterSeq)
    .map((m) =>
      m.headline === undefined
        ? { seq: m.seq, author: "", body: m.body, postedAt: 1000 }
        : { seq: m.seq, author: "", body: m.body, headline: m.headline, postedAt: 1000 },
    );
  const page = {
    messages,
    newestSeq: room.newestSeq,
    oldestSeq: room.retained[0]?.seq ?? 0,
    hasMore: false,
    cursor,
  };
  return start > afterSeq + 1
    ? { ...page, evicted: { count: start - afterSeq - 1, fromSeq: afterSeq + 1, toSeq: start - 1 } }
    : page;
}

/** Every room as a reader from seq 0 sees it, and the budget's figures, equal in the store and the model. */
function checkAll(model: Model, store: MemoryRoomStore): void {
  for (const name of ROOMS) {
    const room = model.rooms.get(name) as ModelRoom;
    const got = store.read(name, "bob", { afterSeq: 0, limit: 1000 });
    const want = modelRead(model, name, 0, room.cursors.get("bob") as number);
    expect({ ...got, messages: got.messages.map((m) => ({ ...m, author: "" })) }).toEqual(want);
  }
  expect(store.heldText()).toEqual({
    heldBytes: totalHeld(model),
    maxHeldBytes: model.maxHeldBytes,
    evictedMessages: model.evicted,
  });
}

class PostCommand implements fc.Command<Model, MemoryRoomStore> {
  constructor(
    readonly room: string,
    readonly author: string,
    readonly body: string,
    readonly headline: string | undefined,
  ) {}
  check(): boolean {
    return true;
  }
  run(model: Model, store: MemoryRoomStore): void {
    const seq = modelPost(model, this.room, this.author, this.body, this.headline);
    const options = this.headline === undefined ? {} : { headline: this.headline };
    expect(store.post(this.room, this.author, this.body, options).seq).toBe(seq);
    checkAll(model, store);
  }
  toString(): string {
    return `post(${this.room}, ${this.author}, ${this.body.length}${this.headline === undefined ? "" : `+${this.headline.length}`})`;
  }
}

/** A member's read at its cursor, then marking it read, as a digest does: what it missed is said exactly. */
class ReadCommand implements fc.Command<Model, MemoryRoomStore> {
  constructor(
    readonly room: string,
    readonly role: string,
  ) {}
  check(): boolean {
    return true;
  }
  run(model: Model, store: MemoryRoomStore): void {
    const room = model.rooms.get(this.room) as ModelRoom;
    const cursor = room.cursors.get(this.role) as number;
    const got = store.read(this.room, this.role);
    expect({ ...got, messages: got.messages.map((m) => ({ ...m, author: "" })) }).toEqual(
      modelRead(model, this.room, cursor, cursor),
    );
    room.cursors.set(this.role, room.newestSeq);
    expect(store.markRead(this.room, this.role, room.newestSeq)).toBe(room.newestSeq);
    checkAll(model, store);
  }
  toString(): string {
    return `read(${this.room}, ${this.role})`;
  }
}

describe("the budget against a naive reference", () => {
  const MAX_BODY = 40;
  const MAX_HEADLINE = 8;
  // Lengths from a few values as often as not, so rooms often hold the same bytes and the tie rule is exercised.
  const text = (max: number) =>
    fc.oneof(
      fc.constantFrom(0, Math.floor(max / 4), Math.floor(max / 2), max).map((length) => "x".repeat(length)),
      fc.string({ unit: "grapheme-ascii", maxLength: max }),
      fc.string({ unit: fc.constantFrom("é", "語", "x"), maxLength: Math.floor(max / 3) }),
    );
  const commands = fc.commands(
    [
      fc
        .tuple(
          fc.constantFrom(...ROOMS),
          fc.constantFrom(...ROLES),
          text(MAX_BODY),
          fc.option(text(MAX_HEADLINE), { nil: undefined }),
        )
        .map(([room, author, body, headline]) => new PostCommand(room, author, body, headline)),
      fc.tuple(fc.constantFrom(...ROOMS), fc.constantFrom(...ROLES)).map(([room, role]) => new ReadCommand(room, role)),
    ],
    { maxCommands: 60 },
  );

  test("rooms, evicted ranges, cursors and held bytes match the reference after every step", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 2 * (MAX_BODY + MAX_HEADLINE), max: 400 }),
        commands,
        (capacity, maxHeldBytes, cmds) => {
          const store = storeWith(ROOMS, {
            capacity,
            maxBodyBytes: MAX_BODY,
            maxHeadlineBytes: MAX_HEADLINE,
            maxHeldBytes,
          });
          const model: Model = { capacity, maxHeldBytes, rooms: new Map(), evicted: 0 };
          for (const name of ROOMS) {
            model.rooms.set(name, { newestSeq: 0, retained: [], cursors: new Map(ROLES.map((role) => [role, 0])) });
          }
          fc.modelRun(() => ({ model, real: store }), cmds);
        },
      ),
      { numRuns: 200 },
    );
  });
});
