// A member that stops reading while others post, on whatever store the broker keeps its rooms in: these scenarios
// run against the memory store (backpressure.test.ts) and a real Redis (redis/stalled-reader.test.ts). On the
// memory store a pipelined batch is served in one turn of the event loop; on Redis each post is answered in a turn
// of its own, so only holding a stalled connection's events until its earlier write is taken merges them there.
import { expect, test } from "vitest";
import fc from "fast-check";
import type { Broker, BrokerOptions } from "@orphus/roundtable-broker";
import { announcedPosts, parseServerFrame, type RoundtableEvent } from "@orphus/roundtable-protocol";
import { RawPeer, frame } from "./helpers.js";

/** Starts a broker on the store under test with these options, closed after the test. */
export type BrokerStarter = (options?: Partial<BrokerOptions>) => Promise<Broker>;

/** Declares the stalled-reader tests against brokers `start` makes; `numRuns` runs of the property. */
export function stalledReaderTests(start: BrokerStarter, { numRuns }: { numRuns: number }): void {
  test.each([
    { how: "pipelined", pipelined: true },
    { how: "one at a time", pipelined: false },
  ])("a stalled version-2 reader hears all of 8,000 posts sent $how, and no ping is dropped", async ({ pipelined }) => {
    await stalledReaderHearsEveryPost(start, { posts: 8000, pipelined });
  });

  test("ten pipelined posts sent while a version-2 reader's socket is backed up reach it as one posts event", async () => {
    await postsMergeBehindABackedUpWrite(start);
  });

  test("a stalled reader of posts to many rooms loses pings past pingDropBytes, every one of them counted", async () => {
    await lossAcrossRoomsIsCounted(start, { posts: 3000 });
  });

  test("property: a reader stalled for random stretches hears every post, churn and reply, in order", async () => {
    await stalledStretchesLoseAndReorderNothing(start, { numRuns });
  });
}

type Frame = Record<string, unknown>;

/** What a peer hears of a room's posts, in order: seq and author, each posts event read as the posts it lists. */
function heardPosts(frames: readonly Frame[], room: string): { seq: number; author: string }[] {
  return frames.flatMap((f) =>
    "event" in f && f["room"] === room ? announcedPosts(parseServerFrame(f) as RoundtableEvent) : [],
  );
}

/** The seqs of `room` a peer heard, in order. */
export function heardSeqs(peer: RawPeer, room: string): number[] {
  return heardPosts(peer.frames, room).map(({ seq }) => seq);
}

/** 1, 2, ..., n. */
function seqsUpTo(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}

/**
 * Posts `count` posts to `room` with ids from `firstId`: pipelined, in one write (which the broker reads in several
 * turns), or one at a time, each sent once the one before it is answered; resolves once the last is answered.
 */
export async function postMany(
  peer: RawPeer,
  room: string,
  firstId: number,
  count: number,
  pipelined: boolean,
): Promise<void> {
  const request = (i: number): Frame => ({ id: firstId + i, op: "post", room, body: `post ${i}` });
  if (pipelined) {
    await peer.write(Buffer.concat(Array.from({ length: count }, (_, i) => frame(request(i)))));
    expect(await peer.reply(firstId + count - 1)).toMatchObject({ ok: true });
  } else {
    for (let i = 0; i < count; i++) {
      expect(await peer.request(request(i))).toMatchObject({ ok: true });
      // Replies only: dropping them keeps each wait from walking every earlier one.
      peer.frames.length = 0;
    }
  }
}

/** Says hello as `role` and joins `rooms`, each answered before the next. */
async function member(broker: Broker, role: string, rooms: readonly string[]): Promise<RawPeer> {
  const peer = await RawPeer.hello(broker.socketPath, role);
  for (const [i, room] of rooms.entries())
    expect(await peer.request({ id: 2 + i, op: "join", room })).toMatchObject({ ok: true });
  return peer;
}

/** Resumes a paused peer and waits for the reply to a status request: everything sent before it has arrived. */
async function resumeAndCatchUp(peer: RawPeer, id: number): Promise<{ pingsDropped: number }> {
  peer.socket.resume();
  const reply = (await peer.request({ id, op: "status" })) as { ok: boolean; result: { pingsDropped: number } };
  expect(reply.ok).toBe(true);
  return reply.result;
}

/**
 * A version-2 member stops reading while another posts `posts` posts to their room: once it reads again it hears
 * every one of them, in order, and no ping was dropped, pipelined or one at a time, at the default `pingDropBytes`.
 */
async function stalledReaderHearsEveryPost(
  start: BrokerStarter,
  { posts, pipelined }: { posts: number; pipelined: boolean },
): Promise<void> {
  const broker = await start();
  const author = await member(broker, "author", ["r"]);
  const reader = await member(broker, "reader", ["r"]);
  reader.socket.pause();

  await postMany(author, "r", 100, posts, pipelined);
  expect(broker.stats().pingsDropped).toBe(0);

  expect(await resumeAndCatchUp(reader, 9)).toMatchObject({ pingsDropped: 0 });
  expect(heardSeqs(reader, "r")).toEqual(seqsUpTo(posts));
}

/**
 * Posts that reach a version-2 member while its socket is backed up (it asked for fetch pages it does not read)
 * wait for that write and merge, however the store answers them: ten pipelined posts come as one posts event.
 */
async function postsMergeBehindABackedUpWrite(start: BrokerStarter): Promise<void> {
  // Room for the pages in the backlog without dropping pings: only their merging is under test here.
  const broker = await start({ pingDropBytes: 4 * 1024 * 1024 });
  const author = await member(broker, "author", ["r", "sync"]);
  const reader = await member(broker, "reader", ["r", "sync", "big"]);
  await fillRoom(reader, "big", 10);

  reader.socket.pause();
  await backUp(reader, "big", "sync", 30);
  await author.until(() => heardSeqs(author, "sync").length === 1);

  await postMany(author, "r", 100, 10, true);
  await resumeAndCatchUp(reader, 40);
  expect(reader.events().filter((event) => event["room"] === "r")).toEqual([
    { event: "posts", room: "r", posts: [{ seq: 1, author: "author", count: 10 }] },
  ]);
}

/** Bodies of the messages a stalled reader fetches to back its socket up: one page of them passes any socket buffer. */
const PAGE_BODY = "b".repeat(30_000);

/** Posts 16 large messages to `room` (a fetch page of about 480 KB), ids from `firstId`. */
async function fillRoom(peer: RawPeer, room: string, firstId: number): Promise<void> {
  for (let i = 0; i < 16; i++)
    expect(await peer.request({ id: firstId + i, op: "post", room, body: PAGE_BODY })).toMatchObject({ ok: true });
}

/**
 * A paused peer asks for two pages of `big` (about 960 KB, more than the kernel takes while nobody reads) and then
 * posts to `sync`: once another member of `sync` hears that post, the pages wait in the broker behind a write in
 * flight. Ids `firstId` to `firstId + 2`.
 */
async function backUp(peer: RawPeer, big: string, sync: string, firstId: number): Promise<void> {
  const fetch = (id: number): Buffer =>
    frame({ id, op: "fetch", room: big, afterSeq: 0, limit: 16, maxChars: 500_000 });
  await peer.write(
    Buffer.concat([
      fetch(firstId),
      fetch(firstId + 1),
      frame({ id: firstId + 2, op: "post", room: sync, body: "sync" }),
    ]),
  );
}

/**
 * Three authors take turns posting to twenty rooms while a version-2 member of all of them stalls behind a small
 * `pingDropBytes`: no two posts of a room in a row share an author, so every post it hears costs bytes. It loses
 * pings, and exactly the ones the broker counts: what it hears and what was dropped add up to every post, each
 * room's in order, and it stays connected.
 */
async function lossAcrossRoomsIsCounted(start: BrokerStarter, { posts }: { posts: number }): Promise<void> {
  const broker = await start({ pingDropBytes: 2048 });
  const rooms = Array.from({ length: 20 }, (_, i) => `room-${i}`);
  const authors = [];
  for (let i = 0; i < 3; i++) authors.push(await member(broker, `author-${i}`, rooms));
  const reader = await member(broker, "reader", rooms);
  reader.socket.pause();

  for (let i = 0; i < posts; i++) {
    const author = authors[i % 3] as RawPeer;
    expect(await author.request({ id: 100 + i, op: "post", room: rooms[i % rooms.length], body: "p" })).toMatchObject({
      ok: true,
    });
    author.frames.length = 0;
  }

  const { pingsDropped } = await resumeAndCatchUp(reader, 99);
  const heard = rooms.map((room) => heardSeqs(reader, room));
  expect(pingsDropped).toBeGreaterThan(0);
  expect(heard.reduce((sum, seqs) => sum + seqs.length, 0) + pingsDropped).toBe(posts);
  for (const seqs of heard) expect(seqs).toEqual([...new Set(seqs)].sort((a, b) => a - b));
  expect(broker.stats()).toMatchObject({ connections: 4, backpressureCloses: 0 });
}

type Action = { readonly kind: "post" | "join" | "leave"; readonly room: "a" | "b" };

/** What the reader should hear: an event (a post as its own post event) or the reply to one of its requests. */
type Heard = Record<string, unknown>;

/**
 * Property: a version-2 member that stalls for random stretches (its socket backed up by fetch pages it does not
 * read) while two others post, join and leave its rooms, pipelined or one request at a time, hears exactly what a
 * plain model says, in order: every post (no ping is lost below `pingDropBytes`), each membership event and each of
 * its own replies where it belongs. And posts sent in separate turns did merge while it stalled.
 */
async function stalledStretchesLoseAndReorderNothing(
  start: BrokerStarter,
  { numRuns }: { numRuns: number },
): Promise<void> {
  const broker = await start({ pingDropBytes: 16 * 1024 * 1024, maxOutboundBytes: 32 * 1024 * 1024, maxRooms: 4096 });
  const filler = await member(broker, "filler", ["big"]);
  await fillRoom(filler, "big", 10);
  const action = fc.record({
    kind: fc.constantFrom("post" as const, "post" as const, "post" as const, "join" as const, "leave" as const),
    room: fc.constantFrom("a" as const, "b" as const),
  });
  const batch = fc.record({
    who: fc.constantFrom(0 as const, 1 as const),
    pipelined: fc.boolean(),
    actions: fc.array(action, { minLength: 1, maxLength: 10 }),
  });
  const stretch = fc.record({ stalled: fc.boolean(), batches: fc.array(batch, { maxLength: 4 }), ask: fc.boolean() });
  let run = 0;
  /** Posts events that listed posts answered in different turns: what only holding merges. */
  let heldMerges = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(stretch, { minLength: 1, maxLength: 6 }), async (stretches) => {
      const p = `s${run++}-`;
      const room = { a: `${p}a`, b: `${p}b` };
      const sync = `${p}sync`;
      const writers = [
        await member(broker, `${p}w0`, [room.a, room.b]),
        await member(broker, `${p}w1`, [room.a, room.b]),
      ];
      const watcher = await member(broker, `${p}watcher`, [sync]);
      const reader = await member(broker, `${p}reader`, [room.a, room.b, sync, "big"]);
      const from = reader.frames.length;
      const model = new StretchModel(room, [`${p}w0`, `${p}w1`]);
      /** The turn each seq of each room was answered in, as the model counts turns (a batch pipelined is one). */
      const turnOf = new Map<string, number>();
      let turn = 0;
      let id = 100;
      let syncs = 0;
      /** The reader sends `requests`, the last a post to sync, and the test waits until the watcher hears it. */
      const readerSends = async (requests: Buffer[]): Promise<void> => {
        await reader.write(Buffer.concat(requests));
        syncs++;
        await watcher.until(() => heardSeqs(watcher, sync).length === syncs);
      };
      for (const { stalled, batches, ask } of stretches) {
        if (stalled) {
          reader.socket.pause();
          const fetch = (n: number): Buffer =>
            frame({ id: n, op: "fetch", room: "big", afterSeq: 0, limit: 16, maxChars: 500_000 });
          await readerSends([fetch(++id), fetch(++id), frame({ id: ++id, op: "post", room: sync, body: "sync" })]);
          model.replies(id - 2, id - 1, id);
        }
        for (const { who, pipelined, actions } of batches) {
          const writer = writers[who] as RawPeer;
          const requests = actions.map((a) => ({
            id: ++id,
            op: a.kind,
            room: room[a.room],
            ...(a.kind === "post" ? { body: "x" } : {}),
          }));
          if (pipelined) {
            turn++;
            await writer.write(Buffer.concat(requests.map(frame)));
            await writer.reply(id);
          } else {
            for (const request of requests) await writer.request(request);
          }
          for (const a of actions) {
            if (!pipelined) turn++;
            const seq = model.apply(who, a);
            if (seq !== undefined) turnOf.set(`${a.room}:${seq}`, turn);
          }
        }
        if (ask) {
          await readerSends([
            frame({ id: ++id, op: "status" }),
            frame({ id: ++id, op: "post", room: sync, body: "sync" }),
          ]);
          model.replies(id - 1, id);
        }
        if (stalled) reader.socket.resume();
      }
      const last = ++id;
      await resumeAndCatchUp(reader, last);
      model.replies(last);

      const heard = reader.frames.slice(from).flatMap((f): Heard[] => {
        if ("ok" in f) return [{ reply: f["id"] }];
        // Its other rooms are not under test: a reader of an earlier run may still leave "big" as this one joins.
        if (f["room"] !== room.a && f["room"] !== room.b) return [];
        const event = parseServerFrame(f) as RoundtableEvent;
        if (event.event !== "posts") return [f];
        const turns = new Set(
          announcedPosts(event).map(({ seq }) => turnOf.get(`${event.room === room.a ? "a" : "b"}:${seq}`)),
        );
        if (turns.size > 1) heldMerges++;
        return announcedPosts(event).map(({ seq, author }) => ({ event: "post", room: event.room, seq, author }));
      });
      expect(inRoomOrder(heard)).toEqual(inRoomOrder(model.heard));
      for (const peer of [...writers, watcher, reader]) peer.socket.destroy();
      await Promise.all([...writers, watcher, reader].map((peer) => peer.closed));
    }),
    { numRuns },
  );
  expect(broker.stats().pingsDropped).toBe(0);
  // The property covered merging across turns, not only within a pipelined batch.
  expect(heldMerges).toBeGreaterThan(0);
}

/**
 * `heard` with each stretch of posts between other frames sorted by room, stably: merging may announce a room's
 * later post before another room's earlier one, but keeps each room's posts in order and moves none past a reply
 * or a membership event, so two streams that agree on this form agree on everything the protocol promises.
 */
function inRoomOrder(heard: readonly Heard[]): Heard[] {
  const sorted: Heard[] = [];
  let posts: Heard[] = [];
  const flushPosts = (): void => {
    sorted.push(...posts.sort((x, y) => String(x["room"]).localeCompare(String(y["room"]))));
    posts = [];
  };
  for (const item of heard) {
    if (item["event"] === "post") posts.push(item);
    else {
      flushPosts();
      sorted.push(item);
    }
  }
  flushPosts();
  return sorted;
}

/** The plain model of two writers in rooms a and b with a reader that never leaves them, and what the reader hears. */
class StretchModel {
  readonly heard: Heard[] = [];
  readonly #members = { a: new Set([0, 1]), b: new Set([0, 1]) };
  readonly #seqs = { a: 0, b: 0 };

  constructor(
    readonly rooms: { readonly a: string; readonly b: string },
    readonly roles: readonly string[],
  ) {}

  /** Applies one writer's action; returns the seq a post got, or undefined when it was refused (or was no post). */
  apply(who: 0 | 1, { kind, room }: Action): number | undefined {
    const members = this.#members[room];
    const [name, role] = [this.rooms[room], this.roles[who]];
    if (kind === "join") {
      if (!members.has(who)) this.heard.push({ event: "join", room: name, seq: 0, role });
      members.add(who);
    } else if (kind === "leave") {
      if (members.delete(who)) this.heard.push({ event: "leave", room: name, seq: 0, role });
    } else if (members.has(who)) {
      const seq = ++this.#seqs[room];
      this.heard.push({ event: "post", room: name, seq, author: role });
      return seq;
    }
    return undefined;
  }

  /** The reader's own requests were answered, in this order. */
  replies(...ids: number[]): void {
    for (const id of ids) this.heard.push({ reply: id });
  }
}
