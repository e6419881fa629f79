// The broker's write path: what a connection is sent in one turn of the event loop leaves in one write, and post
// events of one room waiting for a version-2 connection leave merged into one posts event.
import { once } from "node:events";
import { join } from "node:path";
import { Socket, createServer } from "node:net";
import { afterEach, expect, test, vi } from "vitest";
import fc from "fast-check";
import {
  MAX_POSTS_PER_EVENT,
  announcedPosts,
  parseServerFrame,
  type RoundtableEvent,
} from "@orphus/roundtable-protocol";
import { BrokerConnection, type ConnectionHost } from "../src/connection.js";
import { EventNotice, isPostNotice, type PostNotice } from "../src/event-notice.js";
import { Outbox } from "../src/outbox.js";
import { PostRun, RUN_FULL } from "../src/post-run.js";
import { tempDir } from "../../../test-support/tmp.js";
import { RawPeer, frame, hello, onCleanup, startTestBroker } from "./helpers.js";

afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts `write` calls per socket of this process: the broker's sockets, since the peers' are left out. */
function countWrites(peers: readonly RawPeer[]): Map<Socket, number> {
  const ours = new Set(peers.map((peer) => peer.socket));
  const writes = new Map<Socket, number>();
  const original = Socket.prototype.write;
  vi.spyOn(Socket.prototype, "write").mockImplementation(function (this: Socket, ...args: unknown[]) {
    if (!ours.has(this)) writes.set(this, (writes.get(this) ?? 0) + 1);
    return (original as (...a: unknown[]) => boolean).apply(this, args);
  });
  return writes;
}

async function member(socketPath: string, role: string, room: string, version = 2): Promise<RawPeer> {
  const peer = new RawPeer(socketPath);
  await peer.connected;
  expect(await peer.request(hello(1, role, version))).toMatchObject({ ok: true });
  expect(await peer.request({ id: 2, op: "join", room })).toMatchObject({ ok: true });
  return peer;
}

/** The notice of a post event, as the room service makes it. */
function postNotice(room: string, seq: number, author: string, maxFrameBytes: number): PostNotice {
  const notice = new EventNotice({ event: "post", room, seq, author }, maxFrameBytes);
  if (!isPostNotice(notice)) throw new Error("expected a post notice");
  return notice;
}

/** A batch of posts to `room` in one write, ids from `firstId`. */
function posts(room: string, firstId: number, count: number): Buffer {
  return Buffer.concat(
    Array.from({ length: count }, (_, i) => frame({ id: firstId + i, op: "post", room, body: `post ${i}` })),
  );
}

test("a batch of posts to a room of 8 members leaves in one write per connection, merged for each member", async () => {
  const broker = await startTestBroker();
  const author = await member(broker.socketPath, "author", "busy");
  const listeners = [];
  for (let i = 0; i < 8; i++) listeners.push(await member(broker.socketPath, `listener-${i}`, "busy"));
  // Join events of later listeners reached the earlier ones; only what follows counts.
  const before = listeners.map((listener) => listener.events().length);
  const writes = countWrites([author, ...listeners]);

  await author.write(posts("busy", 10, 5));
  await author.reply(14);
  for (const [i, listener] of listeners.entries()) await listener.until(() => listener.events().length > before[i]!);

  // Nine connections wrote to, once each: five replies in one write, one posts event to each listener.
  expect([...writes.values()]).toEqual(Array.from({ length: 9 }, () => 1));
  expect(author.frames.slice(-5).map((f) => f["id"])).toEqual([10, 11, 12, 13, 14]);
  for (const [i, listener] of listeners.entries()) {
    expect(listener.events().slice(before[i])).toEqual([
      {
        event: "posts",
        room: "busy",
        posts: [{ seq: 1, author: "author", count: 5 }],
      },
    ]);
  }
});

/** Two connections over a real socket each, the author's and a version-2 listener's, served by `host`. */
async function connectionPair(
  host: ConnectionHost,
): Promise<{ author: RawPeer; listener: RawPeer; heard: BrokerConnection }> {
  const socketPath = join(tempDir(), "pair.sock");
  const accepted: Socket[] = [];
  const server = createServer((socket) => accepted.push(socket));
  server.listen(socketPath);
  await once(server, "listening");
  onCleanup(() => void server.close());
  const author = new RawPeer(socketPath);
  await author.connected;
  await vi.waitFor(() => expect(accepted).toHaveLength(1));
  const listener = new RawPeer(socketPath);
  await listener.connected;
  await vi.waitFor(() => expect(accepted).toHaveLength(2));
  new BrokerConnection(1, accepted[0] as Socket, host);
  const heard = new BrokerConnection(2, accepted[1] as Socket, host);
  heard.peerVersion = 2;
  return { author, listener, heard };
}

test("a post from the last frame of a read is written to an idle listener at once; one with frames behind it waits, merged", async () => {
  // A host that fans each post out to the listener, noting the bytes its socket took before the serve returned.
  let seq = 0;
  let heard: BrokerConnection | undefined;
  const writtenWhenServed: number[] = [];
  const host: ConnectionHost = {
    maxFrameBytes: 1 << 20,
    maxOutboundBytes: 1 << 20,
    pingDropBytes: 1 << 19,
    outbox: new Outbox(),
    maxQueuedRequests: 64,
    onFrame: () => {
      const listener = heard as BrokerConnection;
      listener.sendEvent(postNotice("room", ++seq, "author", 1 << 20));
      writtenWhenServed.push(listener.socket.bytesWritten);
    },
    onFramingError: () => {},
    onBackpressure: () => {},
    onClose: () => {},
  };
  const pair = await connectionPair(host);
  heard = pair.heard;

  // Alone in its read: on the wire before its serve returned, not at the end of the turn.
  await pair.author.write(frame({ id: 1, op: "post" }));
  await pair.listener.until((frames) => frames.length === 1);
  const lone = frame({ event: "post", room: "room", seq: 1, author: "author" }).length;
  expect(writtenWhenServed).toEqual([lone]);

  // Two in one read: the first is queued, so the second joins it, and both leave as one posts event after the serve.
  await pair.author.write(Buffer.concat([frame({ id: 2, op: "post" }), frame({ id: 3, op: "post" })]));
  await pair.listener.until((frames) => frames.length === 2);
  expect(writtenWhenServed).toEqual([lone, lone, lone]);
  expect(pair.listener.frames).toEqual([
    { event: "post", room: "room", seq: 1, author: "author" },
    { event: "posts", room: "room", posts: [{ seq: 2, author: "author", count: 2 }] },
  ]);
});

test("a version-1 peer gets one post event per post, in the same single write", async () => {
  const broker = await startTestBroker();
  const author = await member(broker.socketPath, "author", "busy");
  const old = await member(broker.socketPath, "old", "busy", 1);
  const writes = countWrites([author, old]);

  await author.write(posts("busy", 10, 3));
  await author.reply(12);
  await old.until((frames) => frames.filter((f) => f["event"] === "post").length === 3);

  expect([...writes.values()]).toEqual([1, 1]);
  expect(old.events()).toEqual([1, 2, 3].map((seq) => ({ event: "post", room: "busy", seq, author: "author" })));
});

test("a lone post is still a post event, and merging never moves a post ahead of churn queued before it", async () => {
  const broker = await startTestBroker();
  const author = await member(broker.socketPath, "author", "a");
  const listener = await member(broker.socketPath, "listener", "a");
  expect(await listener.request({ id: 3, op: "join", room: "b" })).toMatchObject({ ok: true });

  expect(await author.request({ id: 10, op: "post", room: "a", body: "alone" })).toMatchObject({ ok: true });
  // Two posts to a, the author joining b (a join event for the listener), two more posts to a, one to b: the
  // join ends the run of a, so the listener hears a's posts in two events on either side of it.
  await author.write(
    Buffer.concat([
      posts("a", 11, 2),
      frame({ id: 13, op: "join", room: "b" }),
      posts("a", 14, 2),
      frame({ id: 16, op: "post", room: "b", body: "to b" }),
    ]),
  );
  await author.reply(16);
  await listener.until((frames) => frames.some((f) => f["room"] === "b" && f["event"] === "post"));

  expect(listener.events()).toEqual([
    { event: "post", room: "a", seq: 1, author: "author" },
    { event: "posts", room: "a", posts: [{ seq: 2, author: "author", count: 2 }] },
    { event: "join", room: "b", seq: 0, role: "author" },
    { event: "posts", room: "a", posts: [{ seq: 4, author: "author", count: 2 }] },
    { event: "post", room: "b", seq: 1, author: "author" },
  ]);
});

test("posts of two rooms interleaved in one turn merge per room, each run where its room's first post was", async () => {
  const broker = await startTestBroker();
  const author = await member(broker.socketPath, "author", "a");
  expect(await author.request({ id: 3, op: "join", room: "b" })).toMatchObject({ ok: true });
  const listener = await member(broker.socketPath, "listener", "a");
  expect(await listener.request({ id: 3, op: "join", room: "b" })).toMatchObject({ ok: true });

  await author.write(
    Buffer.concat([
      frame({ id: 10, op: "post", room: "a", body: "a1" }),
      frame({ id: 11, op: "post", room: "b", body: "b1" }),
      frame({ id: 12, op: "post", room: "a", body: "a2" }),
      frame({ id: 13, op: "post", room: "b", body: "b2" }),
      frame({ id: 14, op: "post", room: "a", body: "a3" }),
    ]),
  );
  await author.reply(14);
  await listener.until((frames) => frames.filter((f) => f["event"] === "posts").length === 2);

  expect(listener.events()).toEqual([
    { event: "posts", room: "a", posts: [{ seq: 1, author: "author", count: 3 }] },
    { event: "posts", room: "b", posts: [{ seq: 1, author: "author", count: 2 }] },
  ]);
});

test("replies of one turn leave in one write, written from their text whatever characters they hold", async () => {
  const broker = await startTestBroker();
  const author = await member(broker.socketPath, "author", "utf");
  const writes = countWrites([author]);
  const body = "naïve café, 😀 and 漢字";

  await author.write(
    Buffer.concat([
      frame({ id: 10, op: "post", room: "utf", body }),
      frame({ id: 11, op: "fetch", room: "utf", afterSeq: 0 }),
      frame({ id: 12, op: "post", room: "utf", body: "plain" }),
    ]),
  );
  await author.reply(12);

  expect([...writes.values()]).toEqual([1]);
  expect(author.frames.slice(-3).map((f) => f["id"])).toEqual([10, 11, 12]);
  const fetched = author.frames.at(-2) as { result: { messages: { body: string }[] } };
  expect(fetched.result.messages.map((m) => m.body)).toEqual([body]);
});

test("a run of posts holds at most MAX_POSTS_PER_EVENT posts and never outgrows the frame limit", () => {
  const notice = (seq: number, author = "author"): PostNotice => postNotice("r", seq, author, 1024 * 1024);
  // Authors taking turns, so no two posts in a row share an entry: the longest a run gets.
  const turns = (seq: number): PostNotice => notice(seq, seq % 2 === 0 ? "critic" : "planner");
  const run = new PostRun("r", turns(1));
  for (let seq = 2; seq <= MAX_POSTS_PER_EVENT; seq++) expect(run.add(turns(seq), 1024 * 1024)).not.toBe(RUN_FULL);
  expect(run.add(turns(MAX_POSTS_PER_EVENT + 1), 1024 * 1024)).toBe(RUN_FULL);
  const encoded = run.encode();
  expect(run.bytes).toBe(encoded.length);
  const value = JSON.parse(encoded.subarray(4).toString("utf8")) as { posts: unknown[] };
  expect(value.posts).toHaveLength(MAX_POSTS_PER_EVENT);

  // With a 256-byte frame limit, a run of 64-character authors taking turns fits two posts (210 bytes; three take
  // 296); posts in a row by one of them only grow its count, a few bytes each.
  const [long, other] = ["a".repeat(64), "b".repeat(64)];
  const small = new PostRun("r", notice(1, long));
  expect(small.add(notice(2, other), 256)).not.toBe(RUN_FULL);
  expect(small.add(notice(3, long), 256)).toBe(RUN_FULL);
  expect(small.encode().length - 4).toBe(210);
  expect(small.bytes).toBe(small.encode().length);
  for (let seq = 3; seq <= 40; seq++) expect(small.add(notice(seq, other), 256)).not.toBe(RUN_FULL);
  expect(small.encode().subarray(4).toString()).toBe(
    `{"event":"posts","room":"r","posts":[{"seq":1,"author":"${long}"},{"seq":2,"author":"${other}","count":39}]}`,
  );
  expect(small.bytes).toBe(small.encode().length);
});

test("a run counts bytes, not UTF-16 units: names outside ASCII (a store with its own room pattern) frame as counted", () => {
  // The protocol keeps role names ASCII, but the room's name is whatever the store accepts: an injected store may
  // take "café". Counting by .length would undercount such a run, and a run could then pass the frame limit.
  const limit = 1024 * 1024;
  const notice = (seq: number, author: string): PostNotice => postNotice("café-☕", seq, author, limit);
  const run = new PostRun("café-☕", notice(1, "zoë"));
  for (const [seq, author] of [
    [2, "zoë"],
    [3, "評論者"],
    [4, "a"],
    [5, "評論者"],
  ] as const) {
    const before = run.bytes;
    expect(run.add(notice(seq, author), limit)).toBe(run.bytes - before);
  }
  const encoded = run.encode();
  expect(run.bytes).toBe(encoded.length);
  expect(encoded.readUInt32BE(0)).toBe(encoded.length - 4);
  expect(encoded.subarray(4).toString()).toBe(
    JSON.stringify({
      event: "posts",
      room: "café-☕",
      posts: [
        { seq: 1, author: "zoë", count: 2 },
        { seq: 3, author: "評論者" },
        { seq: 4, author: "a" },
        { seq: 5, author: "評論者" },
      ],
    }),
  );
  // At the frame limit, bytes are what count: two entries make a payload of 103 bytes (93 UTF-16 units).
  expect(new PostRun("café-☕", notice(1, "zoë")).add(notice(2, "評論者"), 102)).toBe(RUN_FULL);
  expect(new PostRun("café-☕", notice(1, "zoë")).add(notice(2, "評論者"), 103)).not.toBe(RUN_FULL);
});

test("runs listing the same posts share a frame, whatever notices made them; a run of other posts never does", () => {
  const limit = 1024 * 1024;
  const run = (room: string, seqs: readonly number[], authors = "aaaa"): PostRun => {
    const made = new PostRun(room, postNotice(room, seqs[0] ?? 1, authors[0] ?? "a", limit));
    seqs.slice(1).forEach((seq, i) => made.add(postNotice(room, seq, authors[i + 1] ?? "a", limit), limit));
    return made;
  };
  // Separate notices of the same posts, as two fan-outs (or another broker's activity) would make them.
  expect(run("r", [1, 2, 3]).sameAs(run("r", [1, 2, 3]))).toBe(true);
  expect(run("r", [7]).sameAs(run("r", [7]))).toBe(true);
  expect(run("r", [1, 2, 3]).encode()).toEqual(run("r", [1, 2, 3]).encode());
  for (const other of [
    run("q", [1, 2, 3]),
    run("r", [1, 2]),
    run("r", [1, 2, 4]),
    run("r", [1, 2, 3], "abab"),
    run("r", [1, 2, 3, 4]),
  ]) {
    expect(run("r", [1, 2, 3]).sameAs(other)).toBe(false);
  }
  expect(run("r", [1]).sameAs(run("q", [1]))).toBe(false);
});

test("property: a run's frame lists exactly its posts, in order, as the naive grouping writes them, at the bytes it counted", () => {
  /** The reference: posts in a row by one author (each seq one above the last) as one entry, by JSON.stringify. */
  const naive = (room: string, posts: readonly { seq: number; author: string }[]): string => {
    const entries: { seq: number; author: string; count?: number }[] = [];
    for (const post of posts) {
      const last = entries.at(-1);
      if (last !== undefined && last.author === post.author && last.seq + (last.count ?? 1) === post.seq) {
        last.count = (last.count ?? 1) + 1;
      } else {
        entries.push({ ...post });
      }
    }
    return JSON.stringify({ event: "posts", room, posts: entries });
  };
  fc.assert(
    fc.property(
      // Bursts: posts in a row by one author, after a gap of seqs (posts this connection does not hear) or none.
      fc.array(
        fc.record({
          gap: fc.constantFrom(0, 0, 1, 6, 99_999),
          author: fc.constantFrom("a", "critic", "r-9"),
          posts: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 1200 })),
        }),
        { minLength: 1, maxLength: 12 },
      ),
      fc.constantFrom(160, 400, 4096, 1024 * 1024),
      (bursts, maxFrameBytes) => {
        let seq = 0;
        const notices = bursts.flatMap(({ gap, author, posts }) => {
          seq += gap;
          return Array.from({ length: posts }, () => {
            seq += 1;
            return postNotice("room-1", seq, author, maxFrameBytes);
          });
        });
        // Split into runs the way a connection does: a post the open run refuses opens the next. Each answer of
        // add is what the run's byte count grew by, which the connection adds to its queue.
        const runs: PostRun[] = [];
        for (const notice of notices) {
          const open = runs.at(-1);
          const before = open?.bytes ?? 0;
          const grown = open === undefined ? RUN_FULL : open.add(notice, maxFrameBytes);
          if (grown === RUN_FULL) runs.push(new PostRun("room-1", notice));
          else expect(open?.bytes).toBe(before + grown);
        }
        // The runs' frames list every post once, in order, and each run as the naive grouping of its own posts.
        let from = 0;
        for (const run of runs) {
          const encoded = run.encode();
          expect(run.bytes).toBe(encoded.length);
          expect(encoded.length - 4).toBeLessThanOrEqual(maxFrameBytes);
          expect(run.posts).toBeLessThanOrEqual(MAX_POSTS_PER_EVENT);
          const payload = encoded.subarray(4).toString("utf8");
          const listed = notices
            .slice(from, from + run.posts)
            .map(({ post }) => ({ seq: post.seq, author: post.author }));
          from += run.posts;
          const event = parseServerFrame(JSON.parse(payload)) as RoundtableEvent;
          expect(announcedPosts(event)).toEqual(listed);
          if (run.posts > 1) expect(payload).toBe(naive("room-1", listed));
        }
        expect(from).toBe(notices.length);
      },
    ),
    { numRuns: 60 },
  );
});
