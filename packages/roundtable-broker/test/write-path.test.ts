// The broker's write path: what a connection is sent in one turn of the event loop leaves in one write, and post
// events of one room waiting for a version-2 connection leave merged into one posts event.
import { Socket } from "node:net";
import { afterEach, expect, test, vi } from "vitest";
import { MAX_POSTS_PER_EVENT } from "@orphus/roundtable-protocol";
import { EventNotice } from "../src/event-notice.js";
import { PostRun } from "../src/post-run.js";
import { RawPeer, frame, hello, startTestBroker } from "./helpers.js";

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

/** A batch of posts to `room` in one write, ids from `firstId`. */
function posts(room: string, firstId: number, count: number): Buffer {
  return Buffer.concat(
    Array.from({ length: count }, (_, i) => frame({ id: firstId + i, op: "post", room, body: `post ${i}` }))
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
        posts: [1, 2, 3, 4, 5].map((seq) => ({ seq, author: "author" })),
      },
    ]);
  }
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
    ])
  );
  await author.reply(16);
  await listener.until((frames) => frames.some((f) => f["room"] === "b" && f["event"] === "post"));

  expect(listener.events()).toEqual([
    { event: "post", room: "a", seq: 1, author: "author" },
    { event: "posts", room: "a", posts: [{ seq: 2, author: "author" }, { seq: 3, author: "author" }] },
    { event: "join", room: "b", seq: 0, role: "author" },
    { event: "posts", room: "a", posts: [{ seq: 4, author: "author" }, { seq: 5, author: "author" }] },
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
    ])
  );
  await author.reply(14);
  await listener.until((frames) => frames.filter((f) => f["event"] === "posts").length === 2);

  expect(listener.events()).toEqual([
    { event: "posts", room: "a", posts: [1, 2, 3].map((seq) => ({ seq, author: "author" })) },
    { event: "posts", room: "b", posts: [1, 2].map((seq) => ({ seq, author: "author" })) },
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
    ])
  );
  await author.reply(12);

  expect([...writes.values()]).toEqual([1]);
  expect(author.frames.slice(-3).map((f) => f["id"])).toEqual([10, 11, 12]);
  const fetched = author.frames.at(-2) as { result: { messages: { body: string }[] } };
  expect(fetched.result.messages.map((m) => m.body)).toEqual([body]);
});

test("a run of posts holds at most MAX_POSTS_PER_EVENT posts and never outgrows the frame limit", () => {
  const notice = (seq: number, author = "author"): EventNotice =>
    new EventNotice({ event: "post", room: "r", seq, author }, 1024 * 1024);
  const run = new PostRun("r", notice(1));
  for (let seq = 2; seq <= MAX_POSTS_PER_EVENT; seq++) expect(run.add(notice(seq), 1024 * 1024)).toBe(true);
  expect(run.add(notice(MAX_POSTS_PER_EVENT + 1), 1024 * 1024)).toBe(false);
  const encoded = run.encode();
  expect(run.bytes).toBe(encoded.length);
  const value = JSON.parse(encoded.subarray(4).toString("utf8")) as { posts: unknown[] };
  expect(value.posts).toHaveLength(MAX_POSTS_PER_EVENT);

  // With a 256-byte frame limit, a run of 64-character authors fits two posts (210 bytes; three take 296).
  const long = "a".repeat(64);
  const small = new PostRun("r", notice(1, long));
  expect(small.add(notice(2, long), 256)).toBe(true);
  expect(small.add(notice(3, long), 256)).toBe(false);
  expect(small.encode().length - 4).toBe(210);
  expect(small.bytes).toBe(small.encode().length);
});
