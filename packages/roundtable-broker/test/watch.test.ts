import { describe, expect, test } from "vitest";
import { announcedPosts, type RoundtableEvent } from "@orphus/roundtable-protocol";
import { manualTimers } from "../../../test-support/manual-timers.js";
import { RawPeer, frame, hello, startTestBroker } from "./helpers.js";

type Frame = Record<string, unknown>;

/**
 * A room with two members and three posts: planner posted 1 and 3, critic 2. An author's own post counts as read
 * only when it had read everything before it: critic has 3 unread, planner 2.
 */
async function seededRoom(socketPath: string): Promise<{ planner: RawPeer; critic: RawPeer }> {
  const planner = await RawPeer.hello(socketPath, "planner");
  const critic = await RawPeer.hello(socketPath, "critic");
  await planner.request({ id: 2, op: "join", room: "design" });
  await critic.request({ id: 2, op: "join", room: "design" });
  await planner.request({ id: 3, op: "post", room: "design", body: "ring first", headline: "ring" });
  await critic.request({ id: 3, op: "post", room: "design", body: "cursors per role\nsecond line" });
  await planner.request({ id: 4, op: "post", room: "design", body: "agreed" });
  return { planner, critic };
}

const result = (reply: Frame): Frame => reply["result"] as Frame;

describe("a watcher changes nothing", () => {
  test("it is absent from members, member counts and digests, moves no cursor and pings nobody", async () => {
    const broker = await startTestBroker();
    const { planner, critic } = await seededRoom(broker.socketPath);
    const framesBefore = [planner.frames.length, critic.frames.length];
    // A watcher labelled with a member's role: still no member, and the role's presence is not its doing.
    const watcher = await RawPeer.watcher(broker.socketPath, "critic");
    expect(result(await watcher.request({ id: 2, op: "watch" }))["rooms"]).toMatchObject([
      {
        room: "design",
        members: [
          { role: "critic", unread: 3 },
          { role: "planner", unread: 2 },
        ],
      },
    ]);
    expect(result(await watcher.request({ id: 3, op: "peek", room: "design" }))["messages"]).toHaveLength(3);
    expect(await watcher.request({ id: 4, op: "members", room: "design" })).toMatchObject({
      result: { members: ["critic", "planner"] },
    });
    expect(result(await watcher.request({ id: 5, op: "rooms" }))).toEqual({
      rooms: [{ room: "design", members: 2, newestSeq: 3, joined: false }],
    });
    watcher.socket.destroy();
    await watcher.closed;
    // Nothing reached the members, and their unread counts and digests are as they were.
    expect(await critic.request({ id: 9, op: "rooms" })).toMatchObject({
      result: { rooms: [{ room: "design", members: 2, joined: true, unread: 3 }] },
    });
    const digest = result(await critic.request({ id: 10, op: "digest", room: "design" }));
    expect(digest["text"]).toBe(
      "[#1 planner] ring first\n[#2 critic] cursors per role\n  second line\n[#3 planner] agreed",
    );
    expect(planner.frames.length).toBe(framesBefore[0]);
    expect(critic.frames.slice(framesBefore[1]).filter((f) => "event" in f)).toEqual([]);
    // critic is still present through its own connection only: closing it is its disconnect.
    critic.socket.destroy();
    const later = (): Frame[] => planner.frames.slice(framesBefore[0]);
    await planner.until(() => later().length === 1);
    expect(later()).toEqual([{ event: "disconnect", room: "design", seq: 0, role: "critic" }]);
  });

  test("member ops on a watcher and watcher ops on a member are refused with codes, the connections kept", async () => {
    const broker = await startTestBroker();
    const watcher = await RawPeer.watcher(broker.socketPath);
    for (const [i, request] of [
      { op: "join", room: "r" },
      { op: "leave", room: "r" },
      { op: "post", room: "r", body: "x" },
      { op: "digest", room: "r" },
      { op: "fetch", room: "r" },
    ].entries()) {
      const reply = await watcher.request({ id: 10 + i, ...request });
      expect(reply).toEqual({
        id: 10 + i,
        ok: false,
        op: request.op,
        error: {
          code: "ERR_WATCHER_CONNECTION",
          message: `A watcher connection cannot ${request.op}: it is no member of any room; open a member connection to ${request.op}`,
        },
      });
    }
    const member = new RawPeer(broker.socketPath);
    await member.request(hello(1, "planner", 3));
    expect(await member.request({ id: 2, op: "peek", room: "r" })).toEqual({
      id: 2,
      ok: false,
      op: "peek",
      error: {
        code: "ERR_NOT_WATCHER",
        message: "Only a watcher connection can peek: say hello with watch: true on a connection of its own",
      },
    });
    // A version-2 member does not know the ops: unknown, in a code it knows.
    const old = await RawPeer.hello(broker.socketPath, "critic");
    expect(await old.request({ id: 2, op: "watch" })).toMatchObject({ ok: false, error: { code: "ERR_UNKNOWN_OP" } });
    // Hostile watch and peek input: coded, and only that connection hears of it.
    expect(await watcher.request({ id: 20, op: "peek", room: "r", limit: 201 })).toMatchObject({
      ok: false,
      error: { code: "ERR_INVALID_REQUEST" },
    });
    expect(await watcher.request({ id: 21, op: "peek", room: "nowhere" })).toMatchObject({
      ok: false,
      error: { code: "ERR_NO_SUCH_ROOM" },
    });
    expect(await watcher.request({ id: 22, op: "peek", room: "r", maxChars: 600_000 })).toMatchObject({
      ok: false,
      error: { code: "ERR_INVALID_REQUEST" },
    });
    expect(await watcher.request({ id: 23, op: "watch", recent: "all" })).toMatchObject({ ok: true, op: "watch" });
    await watcher.write(Buffer.from([0, 0, 0, 2, 0x7b, 0x7b]));
    await watcher.closed;
    expect(await member.request({ id: 3, op: "status" })).toMatchObject({ ok: true });
    expect(broker.stats()).toMatchObject({ framingCloses: 1, watchers: 0 });
  });

  test("a watcher hello needs version 3", async () => {
    const broker = await startTestBroker();
    const peer = new RawPeer(broker.socketPath);
    expect(await peer.request({ ...hello(1, "viewer", 2), watch: true })).toEqual({
      id: 1,
      ok: false,
      op: "hello",
      error: {
        code: "ERR_INVALID_REQUEST",
        message: "Invalid hello request: watch needs protocol version 3 or later, got 2",
        details: { version: 2, watchSinceVersion: 3 },
      },
    });
  });
});

describe("what a watcher sees", () => {
  test("the snapshot: rooms, held, members, served counts and recent posts", async () => {
    const broker = await startTestBroker({ clock: () => 1_796_000_000_000 });
    const { critic } = await seededRoom(broker.socketPath);
    // critic reads: a digest of its three unread messages (86 characters), then a fetch of two.
    expect(result(await critic.request({ id: 5, op: "digest", room: "design" }))["text"]).toBe(
      "[#1 planner] ring first\n[#2 critic] cursors per role\n  second line\n[#3 planner] agreed",
    );
    const fetched = result(await critic.request({ id: 6, op: "fetch", room: "design", afterSeq: 0, limit: 2 }));
    expect(fetched["messages"]).toHaveLength(2);
    const watcher = await RawPeer.watcher(broker.socketPath);
    const snapshot = result(await watcher.request({ id: 2, op: "watch" }));
    expect(snapshot).toEqual({
      broker: {
        pid: process.pid,
        instance: expect.stringMatching(/^[0-9a-f]{16}$/),
        store: "memory",
        protocol: 3,
        startedAt: 1_796_000_000_000,
      },
      rooms: [
        {
          room: "design",
          lastSeq: 3,
          held: { messages: 3, chars: 10 + 4 + 28 + 6 },
          members: [
            { role: "critic", unread: 0 },
            { role: "planner", unread: 2 },
          ],
          served: [
            // The digest is 86 characters; the fetch 14 + 28; pings: #1 and #3 to critic, #2 to planner, each
            // `{"event":"post","room":"design","seq":N,"author":"<role>"}`.
            { role: "critic", digestChars: 86, fetchChars: 42, pingChars: 2 * (45 + 6 + 7 + 1) },
            { role: "planner", digestChars: 0, fetchChars: 0, pingChars: 45 + 6 + 6 + 1 },
          ],
          recent: [
            { seq: 1, author: "planner", postedAt: 1_796_000_000_000, headline: "ring", chars: 14 },
            { seq: 2, author: "critic", postedAt: 1_796_000_000_000, headline: "cursors per role", chars: 28 },
            { seq: 3, author: "planner", postedAt: 1_796_000_000_000, headline: "agreed", chars: 6 },
          ],
        },
      ],
    });
    expect(JSON.stringify({ event: "post", room: "design", seq: 1, author: "critic" }).length).toBe(45 + 6 + 6 + 1);
  });

  test("peek pages back from the newest and forward, bounded like fetch, moving no cursor", async () => {
    const broker = await startTestBroker();
    const { critic } = await seededRoom(broker.socketPath);
    const watcher = await RawPeer.watcher(broker.socketPath);
    const seqs = (reply: Frame): number[] => (result(reply)["messages"] as Frame[]).map((m) => m["seq"] as number);
    const newest = await watcher.request({ id: 2, op: "peek", room: "design", limit: 2 });
    expect(result(newest)).toMatchObject({ room: "design", newestSeq: 3, more: true });
    expect(seqs(newest)).toEqual([2, 3]);
    const older = await watcher.request({ id: 3, op: "peek", room: "design", beforeSeq: 2 });
    expect(result(older)).toEqual({
      room: "design",
      newestSeq: 3,
      more: false,
      messages: [{ seq: 1, author: "planner", body: "ring first", headline: "ring", postedAt: expect.any(Number) }],
    });
    // A cap of 30 characters: #3 (6) and #2 (28) do not both fit, so the page reading back holds #3 alone.
    const capped = await watcher.request({ id: 4, op: "peek", room: "design", maxChars: 30 });
    expect(seqs(capped)).toEqual([3]);
    expect(result(capped)["more"]).toBe(true);
    const forward = await watcher.request({ id: 5, op: "peek", room: "design", afterSeq: 1, maxChars: 30 });
    expect(seqs(forward)).toEqual([2]);
    expect(result(forward)["more"]).toBe(true);
    expect(await critic.request({ id: 9, op: "rooms" })).toMatchObject({ result: { rooms: [{ unread: 3 }] } });
  });

  test("watch events arrive for posts, joins, leaves and reads", async () => {
    const broker = await startTestBroker({ clock: () => 5 });
    const watcher = await RawPeer.watcher(broker.socketPath);
    expect(result(await watcher.request({ id: 2, op: "watch" }))["rooms"]).toEqual([]);
    const { planner, critic } = await seededRoom(broker.socketPath);
    await watcher.until(() => watcher.watchEvents().filter((e) => e["kind"] === "post").length === 3);
    const posts = watcher.watchEvents().filter((e) => e["kind"] === "post");
    expect(posts).toEqual([
      { kind: "post", room: "design", seq: 1, author: "planner", postedAt: 5, headline: "ring", chars: 14 },
      { kind: "post", room: "design", seq: 2, author: "critic", postedAt: 5, headline: "cursors per role", chars: 28 },
      { kind: "post", room: "design", seq: 3, author: "planner", postedAt: 5, headline: "agreed", chars: 6 },
    ]);
    await critic.request({ id: 9, op: "leave", room: "design" });
    const left = (): Frame | undefined =>
      watcher
        .watchEvents()
        .filter((e) => e["kind"] === "members")
        .at(-1);
    await watcher.until(() => JSON.stringify(left()?.["members"]) === '[{"role":"planner","unread":2}]');
    await planner.request({ id: 9, op: "digest", room: "design" });
    await watcher.until(() => JSON.stringify(left()?.["members"]) === '[{"role":"planner","unread":0}]');
    await watcher.until(() =>
      watcher.watchEvents().some((e) => e["kind"] === "served" && e["role"] === "planner" && e["digestChars"] === 62),
    );
    expect(
      watcher
        .watchEvents()
        .filter((e) => e["kind"] === "room")
        .at(-1),
    ).toEqual({
      kind: "room",
      room: "design",
      lastSeq: 3,
      held: { messages: 3, chars: 48 },
    });
    expect(JSON.stringify(watcher.frames)).not.toContain("second line");
  });
});

describe("watch work per tick", () => {
  test("changes within 50 ms of a round go out together at its end: one read, one room event", async () => {
    const timers = manualTimers({ start: 1_000 });
    const broker = await startTestBroker({ clock: timers.now, timers });
    const watcher = await RawPeer.watcher(broker.socketPath);
    await watcher.request({ id: 2, op: "watch" });
    const planner = await RawPeer.hello(broker.socketPath, "planner");
    // After a quiet spell a change goes out at the end of its turn.
    await planner.request({ id: 2, op: "join", room: "design" });
    await watcher.until(() => watcher.watchEvents().some((e) => e["kind"] === "room"));
    // Three posts, each in a turn of its own, within the next 50 ms: nothing goes out until the tick ends.
    for (let id = 3; id <= 5; id++) await planner.request({ id, op: "post", room: "design", body: `post ${id}` });
    await new Promise((resolve) => setImmediate(resolve));
    expect(watcher.watchEvents().filter((e) => e["kind"] === "post")).toEqual([]);
    expect(timers.fire(50)).toBe(1);
    await watcher.until(() => watcher.watchEvents().filter((e) => e["kind"] === "post").length === 3);
    await new Promise((resolve) => setImmediate(resolve));
    // One read of the room for the three posts: one room event, the posts in order.
    expect(watcher.watchEvents().filter((e) => e["kind"] === "room")).toEqual([
      { kind: "room", room: "design", lastSeq: 0, held: { messages: 0, chars: 0 } },
      { kind: "room", room: "design", lastSeq: 3, held: { messages: 3, chars: 18 } },
    ]);
    expect(watcher.watchEvents().flatMap((e) => (e["kind"] === "post" ? [e["seq"]] : []))).toEqual([1, 2, 3]);
  });
});

describe("a stalled watcher", () => {
  test("holds a bounded backlog while 2,000 posts go on, then reads a gap and may watch again", async () => {
    const maxWatchBacklogBytes = 16 * 1024;
    const broker = await startTestBroker({ maxWatchBacklogBytes });
    const watcher = await RawPeer.watcher(broker.socketPath);
    await watcher.request({ id: 2, op: "watch" });
    watcher.socket.pause();
    const planner = await RawPeer.hello(broker.socketPath, "planner");
    const critic = await RawPeer.hello(broker.socketPath, "critic");
    await planner.request({ id: 2, op: "join", room: "flood" });
    await critic.request({ id: 2, op: "join", room: "flood" });
    let largest = 0;
    for (let batch = 0; batch < 20; batch++) {
      const posts = Array.from({ length: 100 }, (_, i) =>
        frame({ id: 100 + batch * 100 + i, op: "post", room: "flood", body: `post ${batch}-${i} `.repeat(20) }),
      );
      await planner.write(Buffer.concat(posts));
      await planner.reply(100 + batch * 100 + 99);
      // A watch round runs at most every 50 ms: waiting past that gives every batch its own round, so the stalled
      // watcher is sent far more than its bound however fast the batches go (on a fast runtime 20 batches could
      // otherwise share one round and send too little to overflow).
      await new Promise((resolve) => setTimeout(resolve, 60));
      largest = Math.max(largest, broker.stats().watchBacklogBytes);
    }
    // The socket's own buffer is counted too; what the broker queues never passes the bound.
    expect(largest).toBeLessThanOrEqual(maxWatchBacklogBytes);
    expect(broker.stats().watchEventsDropped).toBeGreaterThan(0);
    // Posts went on meanwhile: the member heard every one of them.
    expect(result(await planner.reply(2099))["seq"]).toBe(2000);
    const heard = (): number => critic.events().flatMap((e) => announcedPosts(e as RoundtableEvent)).length;
    await critic.until(() => heard() === 2000);
    watcher.socket.resume();
    await watcher.until(() => watcher.watchEvents().some((e) => e["kind"] === "gap"));
    const gap = watcher.watchEvents().find((e) => e["kind"] === "gap");
    expect(gap).toEqual({ kind: "gap", dropped: expect.any(Number) });
    expect(gap?.["dropped"]).toBeGreaterThan(0);
    const again = result(await watcher.request({ id: 3, op: "watch" }));
    expect(again["rooms"]).toMatchObject([{ room: "flood", lastSeq: 2000, held: { messages: 500 } }]);
  });
});
