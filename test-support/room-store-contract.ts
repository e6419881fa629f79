// The room-store contract, tested once and run against every store (the memory store in @orphus/rooms, the Redis
// store in @orphus/rooms-redis): examples of the cross-broker behaviour, then an fc.commands model that drives two
// brokers' stores on one backend and compares every answer with a plain model that keeps every message ever posted
// in an array and works the ring, seq, cursors, evictions, members, presence and post keys out of it directly.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { RoomPage, RoomStore, RoomStoreEvent, RoomStoreOptions, StoreRoomListing } from "@orphus/rooms";

/** A fresh, empty backend, on which stores (brokers) open. */
export interface StoreBackend {
  /** Opens the store of broker `brokerId` on this backend. */
  store(brokerId: string): Promise<RoomStore>;
  /** Closes every store opened here and drops the backend's data. */
  close(): Promise<void>;
}

/** How the contract opens backends of one store kind. */
export interface StoreHarness {
  readonly name: string;
  open(options: RoomStoreOptions): Promise<StoreBackend>;
  /** Runs of the model; fewer where each command is a network round trip. */
  readonly modelRuns: number;
}

/** Settles `action` (which may answer synchronously or throw) into a value or the error's code. */
async function outcome<T>(action: () => unknown): Promise<{ ok: T } | { code: string }> {
  try {
    return { ok: (await action()) as T };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== "string") throw error;
    return { code };
  }
}

/** Collects a store's events and waits for the first `count` of them (or fails after `timeoutMs`). */
function listen(store: RoomStore): {
  events: RoomStoreEvent[];
  waitFor(count: number, timeoutMs?: number): Promise<RoomStoreEvent[]>;
} {
  const events: RoomStoreEvent[] = [];
  let wake: (() => void) | undefined;
  store.subscribe((event) => {
    events.push(event);
    wake?.();
  });
  return {
    events,
    async waitFor(count, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (events.length < count) {
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`expected ${count} events within ${timeoutMs} ms, got ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 50));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      return events.slice(0, count);
    },
  };
}

const sorted = (roles: readonly string[]): string[] => [...roles].sort();

export function describeRoomStoreContract(harness: StoreHarness): void {
  describe(`room-store contract: ${harness.name}`, () => {
    test("seqs are gapless and unique under concurrent posts from two brokers", async () => {
      const backend = await harness.open({});
      try {
        const [a, b] = [await backend.store("a"), await backend.store("b")];
        await a.join("race", "ann");
        await b.join("race", "bob");
        const posts = Array.from({ length: 60 }, (_, i) =>
          (i % 2 === 0 ? a : b).post("race", i % 2 === 0 ? "ann" : "bob", `m${i}`),
        );
        const seqs = (await Promise.all(posts)).map((p) => p.seq).sort((x, y) => x - y);
        expect(seqs).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
        const page = await b.read("race", "bob", { afterSeq: 0 });
        expect(page.messages.map((m) => m.seq)).toEqual(seqs);
      } finally {
        await backend.close();
      }
    });

    test("activity reaches the brokers that hold a recipient, body-free, never the broker that caused it", async () => {
      const backend = await harness.open({});
      try {
        const [a, b, c] = [await backend.store("a"), await backend.store("b"), await backend.store("c")];
        const heardByA = listen(a);
        const heardByB = listen(b);
        // c holds a role of no member: it hears nothing of the room.
        await c.attach("cy");
        const heardByC = listen(c);
        await a.join("lobby", "ann");
        await b.join("hall", "bob");
        const joined = await a.join("hall", "ann");
        expect(joined).toMatchObject({ created: false, joined: true, members: ["ann", "bob"] });
        expect(sorted(joined.recipients)).toEqual(["ann", "bob"]);
        const posted = await a.post("hall", "ann", "secret body", { headline: "h" });
        expect(sorted(posted.recipients)).toEqual(["ann", "bob"]);
        expect((await a.leave("hall", "ann")).left).toBe(true);
        const events = await heardByB.waitFor(3);
        expect(events.map((e) => ({ ...e, recipients: e.type === "activity" ? sorted(e.recipients) : [] }))).toEqual([
          { type: "activity", kind: "join", room: "hall", seq: 0, role: "ann", recipients: ["ann", "bob"] },
          { type: "activity", kind: "post", room: "hall", seq: posted.seq, role: "ann", recipients: ["ann", "bob"] },
          { type: "activity", kind: "leave", room: "hall", seq: 0, role: "ann", recipients: ["ann", "bob"] },
        ]);
        expect(JSON.stringify(events)).not.toContain("secret body");
        // bob's join reached nobody: a held no member of the hall then. a caused the rest.
        await b.post("hall", "bob", "after ann left");
        await b.join("lobby", "bob");
        const [heard] = await heardByA.waitFor(1);
        expect(heard).toMatchObject({ type: "activity", kind: "join", room: "lobby", role: "bob" });
        expect(heardByA.events).toHaveLength(1);
        expect(heardByC.events).toEqual([]);
      } finally {
        await backend.close();
      }
    });

    test("a role stays a member while any broker holds it, and leaves every room when the last lets go", async () => {
      const backend = await harness.open({});
      try {
        const [a, b] = [await backend.store("a"), await backend.store("b")];
        await a.join("one", "ann");
        await a.join("two", "ann");
        await b.join("one", "bob");
        await b.attach("ann"); // a second seat of ann, on broker b
        const heardByB = listen(b);
        expect(await a.detach("ann")).toEqual([]);
        expect(await b.members("one")).toEqual(["ann", "bob"]);
        expect(await b.detach("ann")).toEqual([
          { room: "one", role: "ann", recipients: ["bob"] },
          { room: "two", role: "ann", recipients: [] },
        ]);
        expect(await a.members("one")).toEqual(["bob"]);
        expect(await a.members("two")).toEqual([]);
        expect(await a.members("none")).toBeUndefined();
        // b caused those departures, so only a would hear them; b's own subscriber hears nothing of its own.
        expect(heardByB.events).toEqual([]);
        // a holds cy, a member of "one", so it hears bob leave when b closes.
        await a.join("one", "cy");
        const heardByA = listen(a);
        await b.close();
        const [left] = await heardByA.waitFor(1);
        expect(left).toEqual({
          type: "activity",
          kind: "disconnect",
          room: "one",
          seq: 0,
          role: "bob",
          recipients: ["cy"],
        });
        expect(await a.members("one")).toEqual(["cy"]);
        await expect(outcome(() => b.list("bob"))).resolves.toEqual({ code: "ERR_STORE_CLOSED" });
      } finally {
        await backend.close();
      }
    });

    test("a post key is answered with the first post's seq, by any broker and after a broker restarts", async () => {
      const backend = await harness.open({ maxPostKeys: 2 });
      try {
        const a = await backend.store("a");
        await a.join("keys", "ann");
        const first = await a.post("keys", "ann", "once", { key: "k-1" });
        expect(first).toMatchObject({ seq: 1, replayed: false });
        await a.close();
        const restarted = await backend.store("a2");
        const again = await restarted.post("keys", "ann", "once", { key: "k-1" });
        expect(again).toEqual({ seq: 1, postedAt: first.postedAt, replayed: true, recipients: [] });
        // A key names one post: another role's equal key, or the author's with other text, is refused, before
        // membership is asked, and stores nothing.
        await expect(outcome(() => restarted.post("keys", "bob", "once", { key: "k-1" }))).resolves.toEqual({
          code: "ERR_POST_KEY_REUSED",
        });
        await expect(outcome(() => restarted.post("keys", "ann", "twice", { key: "k-1" }))).resolves.toEqual({
          code: "ERR_POST_KEY_REUSED",
        });
        await expect(
          outcome(() => restarted.post("keys", "ann", "once", { key: "k-1", headline: "h" })),
        ).resolves.toEqual({ code: "ERR_POST_KEY_REUSED" });
        await restarted.join("keys", "bob");
        expect(await restarted.post("keys", "bob", "mine", { key: "k-2" })).toMatchObject({ seq: 2, replayed: false });
        await expect(outcome(() => restarted.post("keys", "bob", "x", { key: "" }))).resolves.toEqual({
          code: "ERR_POST_KEY_INVALID",
        });
      } finally {
        await backend.close();
      }
    });

    test("a watcher's view and peek read any room from any broker, without membership, moving nothing", async () => {
      const backend = await harness.open({ capacity: 4 });
      try {
        const [a, b] = [await backend.store("a"), await backend.store("b")];
        await a.join("hall", "ann");
        await b.join("hall", "bob");
        await b.join("empty", "bob");
        // Six posts into a ring of four: 3 to 6 are retained. "é" and an astral character count as JavaScript does.
        for (let i = 1; i <= 5; i++) await a.post("hall", "ann", `m${i}`);
        await a.post("hall", "ann", "é😀", { headline: "hé" });
        const view = [await a.view(), await b.view()];
        for (const rooms of view) {
          expect(rooms).toEqual([
            { name: "empty", newestSeq: 0, retained: 0, retainedChars: 0, members: [{ role: "bob", unread: 0 }] },
            {
              name: "hall",
              newestSeq: 6,
              retained: 4,
              retainedChars: 2 + 2 + 2 + 3 + 2,
              members: [
                { role: "ann", unread: 0 },
                { role: "bob", unread: 6 },
              ],
            },
          ]);
        }
        expect(await b.view("hall")).toEqual([view[0]?.[1]]);
        expect(await b.view("nowhere")).toEqual([]);
        const seqs = (page: { messages: readonly { seq: number }[] } | undefined): number[] =>
          page?.messages.map((m) => m.seq) ?? [];
        // Back from the newest, back from a seq, forward with what was evicted, forward below a seq.
        const newest = await b.peek("hall", { limit: 2 });
        expect(newest).toMatchObject({ newestSeq: 6, oldestSeq: 3 });
        expect(newest?.messages.at(-1)).toMatchObject({ seq: 6, author: "ann", body: "é😀", headline: "hé" });
        expect(seqs(newest)).toEqual([5, 6]);
        expect(seqs(await b.peek("hall", { beforeSeq: 5, limit: 9 }))).toEqual([3, 4]);
        const forward = await a.peek("hall", { afterSeq: 0, limit: 2 });
        expect(forward).toMatchObject({ evicted: { count: 2, fromSeq: 1, toSeq: 2 } });
        expect(seqs(forward)).toEqual([3, 4]);
        expect(seqs(await a.peek("hall", { afterSeq: 3, beforeSeq: 6, limit: 9 }))).toEqual([4, 5]);
        expect(seqs(await a.peek("empty", { limit: 9 }))).toEqual([]);
        expect(await a.peek("nowhere", { limit: 9 })).toBeUndefined();
        // Nothing moved: bob still has all six unread.
        expect((await b.view("hall"))[0]?.members).toEqual([
          { role: "ann", unread: 0 },
          { role: "bob", unread: 6 },
        ]);
      } finally {
        await backend.close();
      }
    });

    test("the store reports its limits, defaults applied, and refuses bad options", async () => {
      const backend = await harness.open({ capacity: 7, maxRooms: 3 });
      try {
        const store = await backend.store("a");
        expect(store.limits).toMatchObject({
          capacity: 7,
          maxRooms: 3,
          maxMembers: 32,
          maxBodyBytes: 32768,
          maxHeadlineBytes: 256,
          maxRoleNameBytes: 128,
          maxRetainedCursors: 256,
          maxPostKeys: 1024,
        });
        expect(store.description).not.toMatch(/secret|password/i);
      } finally {
        await backend.close();
      }
      const invalid = await harness.open({ capacity: 0 });
      try {
        await expect(invalid.store("a")).rejects.toMatchObject({ code: "ERR_ROOMS_INVALID_OPTION" });
      } finally {
        await invalid.close();
      }
    });

    test(`matches the plain model over random commands on two brokers (${harness.modelRuns} runs)`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.commands(commandArbitraries(), { maxCommands: 60, size: "max" }), async (commands) => {
          const backend = await harness.open(MODEL_LIMITS);
          try {
            const real: Real = { stores: [await backend.store("b0"), await backend.store("b1")] };
            await fc.asyncModelRun(() => ({ model: newModel(), real }), commands);
          } finally {
            await backend.close();
          }
        }),
        { numRuns: harness.modelRuns },
      );
    });
  });
}

// --- the model ----------------------------------------------------------------------------------------------------

const MODEL_LIMITS = {
  capacity: 3,
  maxRooms: 2,
  maxMembers: 2,
  maxRetainedCursors: 1,
  maxPostKeys: 2,
  maxBodyBytes: 6,
  maxHeadlineBytes: 3,
} as const;
const ROLES = ["ann", "bob", "cy"] as const;
/** Three valid rooms for a store of two, and one invalid name. */
const ROOMS = ["alpha", "beta", "gamma", "Not-A-Room"] as const;
const BROKERS = [0, 1] as const;

interface ModelMessage {
  readonly seq: number;
  readonly author: string;
  readonly body: string;
  readonly headline?: string;
  readonly postedAt: number;
}

interface ModelRoom {
  readonly all: ModelMessage[];
  readonly members: Set<string>;
  readonly cursors: Map<string, number>;
  /** Departed roles with a retained cursor, earliest departure first. */
  readonly departed: string[];
  /** Key → the post it named, oldest first. */
  readonly keys: Map<string, { author: string; seq: number; postedAt: number }>;
}

interface Model {
  readonly rooms: Map<string, ModelRoom>;
  /** Per broker, the roles attached there. */
  readonly attached: [Set<string>, Set<string>];
}

interface Real {
  readonly stores: readonly [RoomStore, RoomStore];
}

function newModel(): Model {
  return { rooms: new Map(), attached: [new Set(), new Set()] };
}

const retained = (room: ModelRoom): ModelMessage[] =>
  room.all.slice(Math.max(0, room.all.length - MODEL_LIMITS.capacity));
const newest = (room: ModelRoom): number => room.all.length;

function expectedPage(room: ModelRoom, afterSeq: number, limit: number): RoomPage {
  const window = retained(room);
  const oldestSeq = window[0]?.seq ?? 0;
  const after = window.filter((m) => m.seq > afterSeq);
  const page: RoomPage = {
    messages: after.slice(0, limit),
    newestSeq: newest(room),
    oldestSeq,
    hasMore: after.length > limit,
  };
  const lost = room.all.filter((m) => m.seq > afterSeq && m.seq < oldestSeq);
  const first = lost[0];
  const last = lost.at(-1);
  return first === undefined || last === undefined
    ? page
    : { ...page, evicted: { count: lost.length, fromSeq: first.seq, toSeq: last.seq } };
}

function retire(room: ModelRoom, role: string): void {
  room.members.delete(role);
  room.departed.push(role);
  if (room.departed.length > MODEL_LIMITS.maxRetainedCursors) room.cursors.delete(room.departed.shift() as string);
}

function attachInModel(model: Model, broker: 0 | 1, role: string): void {
  model.attached[broker].add(role);
}

/** Compares an answer with the model's, recipients as sets. */
function expectSame(actual: unknown, expected: unknown): void {
  expect(normalise(actual)).toEqual(normalise(expected));
}

function normalise(value: unknown): unknown {
  if (typeof value !== "object" || value === null || !("ok" in value)) return value;
  const ok = (value as { ok: unknown }).ok;
  const fix = (item: unknown): unknown =>
    typeof item === "object" && item !== null && "recipients" in item
      ? { ...item, recipients: sorted((item as { recipients: string[] }).recipients) }
      : item;
  return { ok: Array.isArray(ok) ? ok.map(fix) : fix(ok) };
}

type Command = fc.AsyncCommand<Model, Real, false>;

abstract class StoreCommand implements Command {
  constructor(readonly broker: 0 | 1) {}
  check(): boolean {
    return true;
  }
  abstract run(model: Model, real: Real): Promise<void>;
  abstract toString(): string;
  store(real: Real): RoomStore {
    return real.stores[this.broker];
  }
}

class Attach extends StoreCommand {
  constructor(
    broker: 0 | 1,
    readonly role: string,
  ) {
    super(broker);
  }
  async run(model: Model, real: Real): Promise<void> {
    const actual = await outcome(() => this.store(real).attach(this.role));
    if (this.role === "") return expect(actual).toEqual({ code: "ERR_ROLE_NAME_INVALID" });
    attachInModel(model, this.broker, this.role);
    expect(actual).toEqual({ ok: undefined });
  }
  toString(): string {
    return `b${this.broker}.attach(${this.role})`;
  }
}

class Detach extends StoreCommand {
  constructor(
    broker: 0 | 1,
    readonly role: string,
  ) {
    super(broker);
  }
  async run(model: Model, real: Real): Promise<void> {
    const actual = await outcome(() => this.store(real).detach(this.role));
    const departures: { room: string; role: string; recipients: string[] }[] = [];
    const other = model.attached[this.broker === 0 ? 1 : 0];
    if (model.attached[this.broker].delete(this.role) && !other.has(this.role)) {
      for (const name of [...model.rooms.keys()].sort()) {
        const room = model.rooms.get(name) as ModelRoom;
        if (!room.members.has(this.role)) continue;
        retire(room, this.role);
        departures.push({ room: name, role: this.role, recipients: [...room.members] });
      }
    }
    expectSame(actual, { ok: departures });
  }
  toString(): string {
    return `b${this.broker}.detach(${this.role})`;
  }
}

class Join extends StoreCommand {
  constructor(
    broker: 0 | 1,
    readonly room: string,
    readonly role: string,
  ) {
    super(broker);
  }
  async run(model: Model, real: Real): Promise<void> {
    const actual = await outcome(() => this.store(real).join(this.room, this.role));
    if (this.role === "") return expect(actual).toEqual({ code: "ERR_ROLE_NAME_INVALID" });
    if (!/^[a-z0-9][a-z0-9._-]{0,63}$/.test(this.room))
      return expect(actual).toEqual({ code: "ERR_ROOM_NAME_INVALID" });
    let room = model.rooms.get(this.room);
    const created = room === undefined;
    if (room === undefined) {
      if (model.rooms.size >= MODEL_LIMITS.maxRooms) return expect(actual).toEqual({ code: "ERR_ROOM_LIMIT" });
      room = { all: [], members: new Set(), cursors: new Map(), departed: [], keys: new Map() };
      model.rooms.set(this.room, room);
    }
    const joined = !room.members.has(this.role);
    if (joined) {
      if (room.members.size >= MODEL_LIMITS.maxMembers) return expect(actual).toEqual({ code: "ERR_MEMBER_LIMIT" });
      room.members.add(this.role);
      const departedAt = room.departed.indexOf(this.role);
      if (departedAt >= 0) room.departed.splice(departedAt, 1);
      else room.cursors.set(this.role, newest(room) - retained(room).length);
    }
    attachInModel(model, this.broker, this.role);
    const members = sorted([...room.members]);
    expectSame(actual, {
      ok: {
        created,
        joined,
        members,
        newestSeq: newest(room),
        unread: newest(room) - (room.cursors.get(this.role) as number),
        recipients: joined ? members : [],
      },
    });
  }
  toString(): string {
    return `b${this.broker}.join(${this.room}, ${this.role})`;
  }
}

class Leave extends StoreCommand {
  constructor(
    broker: 0 | 1,
    readonly room: string,
    readonly role: string,
  ) {
    super(broker);
  }
  async run(model: Model, real: Real): Promise<void> {
    const actual = await outcome(() => this.store(real).leave(this.room, this.role));
    const room = model.rooms.get(this.room);
    if (room === undefined || !room.members.has(this.role))
      return expectSame(actual, { ok: { left: false, recipients: [] } });
    retire(room, this.role);
    expectSame(actual, { ok: { left: true, recipients: [...room.members, this.role] } });
  }
  toString(): string {
    return `b${this.broker}.leave(${this.room}, ${this.role})`;
  }
}

class Post extends StoreCommand {
  constructor(
    broker: 0 | 1,
    readonly room: string,
    readonly role: string,
    readonly body: string,
    readonly headline: string | undefined,
    readonly key: string | undefined,
  ) {
    super(broker);
  }
  async run(model: Model, real: Real): Promise<void> {
    const options = {
      ...(this.headline === undefined ? {} : { headline: this.headline }),
      ...(this.key === undefined ? {} : { key: this.key }),
    };
    const actual = await outcome<{ seq: number; postedAt: number }>(() =>
      this.store(real).post(this.room, this.role, this.body, options),
    );
    const room = model.rooms.get(this.room);
    const earlier = this.key === undefined ? undefined : room?.keys.get(this.key);
    if (room !== undefined && earlier !== undefined) {
      // The same author's repeat, with the same text while the message is retained: the earlier post. Else a reuse.
      const kept = retained(room).find((m) => m.seq === earlier.seq);
      const same =
        earlier.author === this.role &&
        (kept === undefined || (kept.body === this.body && kept.headline === this.headline));
      if (!same) return expect(actual).toEqual({ code: "ERR_POST_KEY_REUSED" });
      return expect(actual).toEqual({
        ok: { seq: earlier.seq, postedAt: earlier.postedAt, replayed: true, recipients: [] },
      });
    }
    if (room === undefined || !room.members.has(this.role)) return expect(actual).toEqual({ code: "ERR_NOT_MEMBER" });
    if (Buffer.byteLength(this.body) > MODEL_LIMITS.maxBodyBytes)
      return expect(actual).toEqual({ code: "ERR_BODY_TOO_LARGE" });
    if (this.headline !== undefined && Buffer.byteLength(this.headline) > MODEL_LIMITS.maxHeadlineBytes) {
      return expect(actual).toEqual({ code: "ERR_HEADLINE_TOO_LARGE" });
    }
    if (!("ok" in actual)) return expect.fail(`post refused with ${actual.code}`);
    const seq = newest(room) + 1;
    const { postedAt } = actual.ok;
    expect(Number.isSafeInteger(postedAt) && postedAt > 0).toBe(true);
    room.all.push({
      seq,
      author: this.role,
      body: this.body,
      ...(this.headline === undefined ? {} : { headline: this.headline }),
      postedAt,
    });
    if (room.cursors.get(this.role) === seq - 1) room.cursors.set(this.role, seq);
    if (this.key !== undefined) {
      room.keys.set(this.key, { author: this.role, seq, postedAt });
      if (room.keys.size > MODEL_LIMITS.maxPostKeys) room.keys.delete(room.keys.keys().next().value as string);
    }
    expectSame(actual, { ok: { seq, postedAt, replayed: false, recipients: [...room.members] } });
  }
  toString(): string {
    return `b${this.broker}.post(${this.room}, ${this.role}, ${JSON.stringify(this.body)}, ${String(this.headline)}, ${String(this.key)})`;
  }
}

class Read extends StoreCommand {
  constructor(
    broker: 0 | 1,
    readonly room: string,
    readonly role: string,
    readonly afterSeq: number | undefined,
    readonly limit: number | undefined,
  ) {
    super(broker);
  }
  async run(model: Model, real: Real): Promise<void> {
    const options = {
      ...(this.afterSeq === undefined ? {} : { afterSeq: this.afterSeq }),
      ...(this.limit === undefined ? {} : { limit: this.limit }),
    };
    const actual = await outcome(() => this.store(real).read(this.room, this.role, options));
    const room = model.rooms.get(this.room);
    if (room === undefined || !room.members.has(this.role)) return expect(actual).toEqual({ code: "ERR_NOT_MEMBER" });
    if (this.afterSeq !== undefined && this.afterSeq < 0) return expect(actual).toEqual({ code: "ERR_SEQ_INVALID" });
    if (this.limit !== undefined && this.limit < 0) return expect(actual).toEqual({ code: "ERR_PAGE_LIMIT_INVALID" });
    const cursor = room.cursors.get(this.role) as number;
    const page = expectedPage(room, this.afterSeq ?? cursor, this.limit ?? MODEL_LIMITS.capacity);
    expect(actual).toEqual({ ok: { ...page, cursor } });
  }
  toString(): string {
    return `b${this.broker}.read(${this.room}, ${this.role}, ${String(this.afterSeq)}, ${String(this.limit)})`;
  }
}

class MarkRead extends StoreCommand {
  constructor(
    broker: 0 | 1,
    readonly room: string,
    readonly role: string,
    readonly seq: number,
  ) {
    super(broker);
  }
  async run(model: Model, real: Real): Promise<void> {
    const actual = await outcome(() => this.store(real).markRead(this.room, this.role, this.seq));
    const room = model.rooms.get(this.room);
    if (room === undefined || !room.members.has(this.role)) return expect(actual).toEqual({ code: "ERR_NOT_MEMBER" });
    if (this.seq < 0) return expect(actual).toEqual({ code: "ERR_SEQ_INVALID" });
    const cursor = Math.max(room.cursors.get(this.role) as number, Math.min(this.seq, newest(room)));
    room.cursors.set(this.role, cursor);
    expect(actual).toEqual({ ok: cursor });
  }
  toString(): string {
    return `b${this.broker}.markRead(${this.room}, ${this.role}, ${this.seq})`;
  }
}

class List extends StoreCommand {
  constructor(
    broker: 0 | 1,
    readonly role: string,
  ) {
    super(broker);
  }
  async run(model: Model, real: Real): Promise<void> {
    const actual = await outcome(() => this.store(real).list(this.role));
    const rooms: StoreRoomListing[] = [...model.rooms.keys()].sort().map((name) => {
      const room = model.rooms.get(name) as ModelRoom;
      const summary = {
        name,
        memberCount: room.members.size,
        messageCount: newest(room),
        retainedCount: retained(room).length,
      };
      return room.members.has(this.role)
        ? { ...summary, joined: true, unread: newest(room) - (room.cursors.get(this.role) as number) }
        : { ...summary, joined: false };
    });
    expect(actual).toEqual({ ok: rooms });
  }
  toString(): string {
    return `b${this.broker}.list(${this.role})`;
  }
}

class Members extends StoreCommand {
  constructor(
    broker: 0 | 1,
    readonly room: string,
  ) {
    super(broker);
  }
  async run(model: Model, real: Real): Promise<void> {
    const actual = await outcome(() => this.store(real).members(this.room));
    const room = model.rooms.get(this.room);
    expect(actual).toEqual({ ok: room === undefined ? undefined : sorted([...room.members]) });
  }
  toString(): string {
    return `b${this.broker}.members(${this.room})`;
  }
}

/** Commands weighted towards the ones that change state, on few rooms and roles, so runs build real histories. */
function commandArbitraries(): fc.Arbitrary<Command>[] {
  const broker = fc.constantFrom(...BROKERS);
  const role = fc.constantFrom(...ROLES);
  const room = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...ROOMS.slice(0, 3)) },
    { weight: 1, arbitrary: fc.constant(ROOMS[3]) },
  );
  const seq = fc.integer({ min: -1, max: 9 });
  const body = fc.oneof(
    { weight: 6, arbitrary: fc.string({ maxLength: 3, unit: fc.constantFrom("a", "é") }) },
    { weight: 1, arbitrary: fc.string({ minLength: 2, maxLength: 4, unit: fc.constantFrom("😀", "é") }) },
  );
  // fc.commands picks among its arbitraries evenly: a command is weighted by standing in the list that many times.
  const weighted = (weight: number, arbitrary: fc.Arbitrary<Command>): fc.Arbitrary<Command>[] =>
    Array.from({ length: weight }, () => arbitrary);
  return [
    weighted(
      1,
      fc
        .tuple(broker, fc.oneof({ weight: 9, arbitrary: role }, { weight: 1, arbitrary: fc.constant("") }))
        .map(([b, r]) => new Attach(b, r)),
    ),
    weighted(
      1,
      fc.tuple(broker, role).map(([b, r]) => new Detach(b, r)),
    ),
    weighted(
      3,
      fc
        .tuple(broker, room, fc.oneof({ weight: 19, arbitrary: role }, { weight: 1, arbitrary: fc.constant("") }))
        .map(([b, n, r]) => new Join(b, n, r)),
    ),
    weighted(
      1,
      fc.tuple(broker, room, role).map(([b, n, r]) => new Leave(b, n, r)),
    ),
    weighted(
      5,
      fc
        .tuple(
          broker,
          room,
          role,
          body,
          fc.option(fc.constantFrom("h", "héé"), { nil: undefined }),
          fc.option(fc.constantFrom("k1", "k2", "k3"), { nil: undefined, freq: 2 }),
        )
        .map(([b, n, r, text, headline, key]) => new Post(b, n, r, text, headline, key)),
    ),
    weighted(
      3,
      fc
        .tuple(
          broker,
          room,
          role,
          fc.option(seq, { nil: undefined }),
          fc.option(fc.integer({ min: -1, max: 4 }), { nil: undefined }),
        )
        .map(([b, n, r, after, limit]) => new Read(b, n, r, after, limit)),
    ),
    weighted(
      2,
      fc.tuple(broker, room, role, seq).map(([b, n, r, s]) => new MarkRead(b, n, r, s)),
    ),
    weighted(
      1,
      fc.tuple(broker, role).map(([b, r]) => new List(b, r)),
    ),
    weighted(
      1,
      fc.tuple(broker, room).map(([b, n]) => new Members(b, n)),
    ),
  ].flat();
}
