import { describe, expect, test } from "vitest";
import { RawPeer, startTestBroker } from "./helpers.js";
import { until } from "../../../test-support/poll.js";

describe("membership and pings", () => {
  test("a post pings every other member with room, seq and author, never the body", async () => {
    const broker = await startTestBroker();
    const [planner, critic, reviewer] = await Promise.all(
      ["planner", "critic", "reviewer"].map((role) => RawPeer.hello(broker.socketPath, role)),
    );
    for (const [i, peer] of [planner, critic, reviewer].entries()) {
      expect(await peer!.request({ id: 10 + i, op: "join", room: "design" })).toMatchObject({ ok: true });
    }
    expect(
      await planner!.request({ id: 20, op: "post", room: "design", body: "a secret body", headline: "h" }),
    ).toMatchObject({ ok: true, result: { room: "design", seq: 1 } });
    for (const peer of [critic!, reviewer!]) {
      await peer.until(() => peer.events().some((e) => e["event"] === "post"));
      expect(peer.events().filter((e) => e["event"] === "post")).toEqual([
        { event: "post", room: "design", seq: 1, author: "planner" },
      ]);
      expect(JSON.stringify(peer.frames)).not.toContain("a secret body");
    }
    // The author hears nothing of its own post; a ping would have arrived before this reply.
    await planner!.request({ id: 21, op: "status" });
    expect(planner!.events().filter((e) => e["event"] === "post")).toEqual([]);
  });

  test("membership churn goes out with seq 0: join, leave, disconnect", async () => {
    const broker = await startTestBroker();
    const planner = await RawPeer.hello(broker.socketPath, "planner");
    await planner.request({ id: 2, op: "join", room: "r" });
    const critic = await RawPeer.hello(broker.socketPath, "critic");
    expect(await critic.request({ id: 2, op: "join", room: "r" })).toEqual({
      id: 2,
      ok: true,
      op: "join",
      result: { room: "r", created: false, members: ["critic", "planner"], newestSeq: 0, unread: 0 },
    });
    expect(await critic.request({ id: 3, op: "leave", room: "r" })).toEqual({
      id: 3,
      ok: true,
      op: "leave",
      result: { room: "r", left: true },
    });
    expect(await critic.request({ id: 4, op: "leave", room: "r" })).toMatchObject({ result: { left: false } });
    await critic.request({ id: 5, op: "join", room: "r" });
    critic.socket.destroy();
    await planner.until(() => planner.events().length === 4);
    expect(planner.events()).toEqual([
      { event: "join", room: "r", seq: 0, role: "critic" },
      { event: "leave", room: "r", seq: 0, role: "critic" },
      { event: "join", room: "r", seq: 0, role: "critic" },
      { event: "disconnect", room: "r", seq: 0, role: "critic" },
    ]);
    expect(await planner.request({ id: 3, op: "members", room: "r" })).toMatchObject({
      result: { room: "r", members: ["planner"] },
    });
  });
});

// docs/protocol.md, "Membership": membership belongs to the role; events go to every connection of every member role
// except the one whose request caused them.
describe("membership belongs to the role, over several connections", () => {
  /** Every open peer has seen everything sent before this: a reply on a connection follows its earlier events. */
  async function settle(...peers: RawPeer[]): Promise<void> {
    for (const peer of peers) await peer.request({ id: 900 + peer.frames.length, op: "status" });
  }

  test("a second connection of the author's role gets the post event; the posting connection does not", async () => {
    const broker = await startTestBroker();
    const seatA = await RawPeer.hello(broker.socketPath, "codex");
    const seatB = await RawPeer.hello(broker.socketPath, "codex");
    const critic = await RawPeer.hello(broker.socketPath, "critic");
    await seatA.request({ id: 2, op: "join", room: "design" });
    await critic.request({ id: 2, op: "join", room: "design" });
    expect(await seatA.request({ id: 3, op: "post", room: "design", body: "from seat A" })).toMatchObject({ ok: true });
    await settle(seatA, seatB, critic);
    const posts = (peer: RawPeer): unknown[] => peer.events().filter((e) => e["event"] === "post");
    expect(posts(seatB)).toEqual([{ event: "post", room: "design", seq: 1, author: "codex" }]);
    expect(posts(critic)).toEqual([{ event: "post", room: "design", seq: 1, author: "codex" }]);
    expect(posts(seatA)).toEqual([]);
  });

  test("a connection that never joined speaks for its member role: it posts, reads, hears, and leaves for it", async () => {
    const broker = await startTestBroker();
    const joined = await RawPeer.hello(broker.socketPath, "codex");
    const never = await RawPeer.hello(broker.socketPath, "codex");
    const planner = await RawPeer.hello(broker.socketPath, "planner");
    await joined.request({ id: 2, op: "join", room: "design" });
    await planner.request({ id: 2, op: "join", room: "design" });
    // The never-joined connection heard its own role join, and now hears the room.
    await planner.request({ id: 3, op: "post", room: "design", body: "proposal" });
    await settle(never);
    expect(never.events()).toEqual([
      { event: "join", room: "design", seq: 0, role: "codex" },
      { event: "join", room: "design", seq: 0, role: "planner" },
      { event: "post", room: "design", seq: 1, author: "planner" },
    ]);
    expect(await never.request({ id: 4, op: "rooms" })).toMatchObject({
      result: { rooms: [{ room: "design", members: 2, newestSeq: 1, joined: true, unread: 1 }] },
    });
    expect(await never.request({ id: 5, op: "digest", room: "design" })).toMatchObject({
      ok: true,
      result: { room: "design", throughSeq: 1 },
    });
    // The cursor is the role's: the connection that joined has nothing unread now.
    expect(await joined.request({ id: 6, op: "rooms" })).toMatchObject({ result: { rooms: [{ unread: 0 }] } });
    expect(await never.request({ id: 7, op: "post", room: "design", body: "reply" })).toMatchObject({
      ok: true,
      result: { seq: 2 },
    });
    // Leaving from the connection that never joined takes the role out, for both of its connections.
    expect(await never.request({ id: 8, op: "leave", room: "design" })).toMatchObject({
      result: { room: "design", left: true },
    });
    await settle(joined, planner);
    expect(joined.events().slice(-2)).toEqual([
      { event: "post", room: "design", seq: 2, author: "codex" },
      { event: "leave", room: "design", seq: 0, role: "codex" },
    ]);
    expect(planner.events().slice(-1)).toEqual([{ event: "leave", room: "design", seq: 0, role: "codex" }]);
    expect(await joined.request({ id: 9, op: "post", room: "design", body: "still here?" })).toMatchObject({
      ok: false,
      error: { code: "ERR_NOT_MEMBER" },
    });
    expect(await joined.request({ id: 10, op: "leave", room: "design" })).toMatchObject({ result: { left: false } });
    // Out means out: the role's connections hear nothing more from the room.
    const before = joined.events().length;
    await planner.request({ id: 11, op: "post", room: "design", body: "anyone?" });
    await settle(joined, never);
    expect(joined.events().length).toBe(before);
    expect(never.events().filter((e) => e["seq"] === 3)).toEqual([]);
  });

  test("the role stays a member while any of its connections is open, joined from it or not", async () => {
    const broker = await startTestBroker();
    const watcher = await RawPeer.hello(broker.socketPath, "watcher");
    await watcher.request({ id: 2, op: "join", room: "r" });
    const joined = await RawPeer.hello(broker.socketPath, "planner");
    const other = await RawPeer.hello(broker.socketPath, "planner");
    await joined.request({ id: 2, op: "join", room: "r" });
    joined.socket.destroy();
    await until(() => broker.stats().connections === 2);
    expect(await other.request({ id: 2, op: "post", room: "r", body: "still in" })).toMatchObject({ ok: true });
    other.socket.destroy();
    await watcher.until(() => watcher.events().length === 3);
    expect(watcher.events()).toEqual([
      { event: "join", room: "r", seq: 0, role: "planner" },
      { event: "post", room: "r", seq: 1, author: "planner" },
      { event: "disconnect", room: "r", seq: 0, role: "planner" },
    ]);
    expect(await watcher.request({ id: 3, op: "members", room: "r" })).toMatchObject({
      result: { members: ["watcher"] },
    });
  });

  test("one-shot post (connect, hello, post, close): refused when no other connection of the role holds the room", async () => {
    const broker = await startTestBroker();
    const planner = await RawPeer.hello(broker.socketPath, "planner");
    await planner.request({ id: 2, op: "join", room: "design" });
    // The human joined once from a CLI call that has since closed: that membership ended with its connection.
    const earlier = await RawPeer.hello(broker.socketPath, "human");
    await earlier.request({ id: 2, op: "join", room: "design" });
    earlier.socket.destroy();
    await until(() => broker.stats().connections === 1);
    const oneShot = await RawPeer.hello(broker.socketPath, "human");
    expect(await oneShot.request({ id: 2, op: "post", room: "design", body: "drive-by" })).toEqual({
      id: 2,
      ok: false,
      op: "post",
      error: {
        code: "ERR_NOT_MEMBER",
        message: 'Not a member of room "design"; join it first',
        details: { room: "design" },
      },
    });
    oneShot.socket.destroy();
    await settle(planner);
    expect(planner.events()).toEqual([
      { event: "join", room: "design", seq: 0, role: "human" },
      { event: "disconnect", room: "design", seq: 0, role: "human" },
    ]);
  });

  test("one-shot post: stored when another connection of the role holds the room, which hears it and keeps it", async () => {
    const broker = await startTestBroker();
    const planner = await RawPeer.hello(broker.socketPath, "planner");
    await planner.request({ id: 2, op: "join", room: "design" });
    const tail = await RawPeer.hello(broker.socketPath, "human");
    await tail.request({ id: 2, op: "join", room: "design" });
    const oneShot = await RawPeer.hello(broker.socketPath, "human");
    expect(await oneShot.request({ id: 2, op: "post", room: "design", body: "drive-by" })).toMatchObject({
      ok: true,
      result: { room: "design", seq: 1 },
    });
    oneShot.socket.destroy();
    await until(() => broker.stats().connections === 2);
    await settle(planner, tail);
    expect(tail.events()).toEqual([{ event: "post", room: "design", seq: 1, author: "human" }]);
    expect(planner.events()).toEqual([
      { event: "join", room: "design", seq: 0, role: "human" },
      { event: "post", room: "design", seq: 1, author: "human" },
    ]);
    expect(await planner.request({ id: 3, op: "members", room: "design" })).toMatchObject({
      result: { members: ["human", "planner"] },
    });
  });

  test("one-shot with a join first (what `roundtable post` does): the others see join, post, disconnect", async () => {
    const broker = await startTestBroker();
    const planner = await RawPeer.hello(broker.socketPath, "planner");
    await planner.request({ id: 2, op: "join", room: "design" });
    const oneShot = await RawPeer.hello(broker.socketPath, "human");
    await oneShot.request({ id: 2, op: "join", room: "design" });
    expect(await oneShot.request({ id: 3, op: "post", room: "design", body: "hi" })).toMatchObject({ ok: true });
    oneShot.socket.destroy();
    await planner.until(() => planner.events().length === 3);
    expect(planner.events()).toEqual([
      { event: "join", room: "design", seq: 0, role: "human" },
      { event: "post", room: "design", seq: 1, author: "human" },
      { event: "disconnect", room: "design", seq: 0, role: "human" },
    ]);
  });

  test("connections of a member opening and closing between posts of an unchanged room hear exactly those posts", async () => {
    // The room's member list stays the same object throughout, so this pins that the broker's remembered audience
    // for it follows every connection that opens or closes, not only membership changes.
    const broker = await startTestBroker();
    const author = await RawPeer.hello(broker.socketPath, "author");
    const first = await RawPeer.hello(broker.socketPath, "critic");
    await author.request({ id: 2, op: "join", room: "r" });
    await first.request({ id: 2, op: "join", room: "r" });
    const post = async (seq: number): Promise<void> => {
      expect(await author.request({ id: 10 + seq, op: "post", room: "r", body: `post ${seq}` })).toMatchObject({
        result: { seq },
      });
    };
    const seqs = (peer: RawPeer): unknown[] => peer.events().flatMap((e) => (e["event"] === "post" ? [e["seq"]] : []));
    await post(1);
    const second = await RawPeer.hello(broker.socketPath, "critic");
    await post(2);
    second.socket.destroy();
    await until(() => broker.stats().connections === 2);
    await post(3);
    const third = await RawPeer.hello(broker.socketPath, "critic");
    await post(4);
    await settle(first, third);
    expect(seqs(first)).toEqual([1, 2, 3, 4]);
    expect(seqs(second)).toEqual([2]);
    expect(seqs(third)).toEqual([4]);
  });

  test("joining again from a second connection changes nothing and tells nobody", async () => {
    const broker = await startTestBroker();
    const watcher = await RawPeer.hello(broker.socketPath, "watcher");
    await watcher.request({ id: 2, op: "join", room: "r" });
    const first = await RawPeer.hello(broker.socketPath, "planner");
    const second = await RawPeer.hello(broker.socketPath, "planner");
    await first.request({ id: 2, op: "join", room: "r" });
    expect(await second.request({ id: 2, op: "join", room: "r" })).toMatchObject({
      result: { created: false, members: ["planner", "watcher"] },
    });
    await settle(watcher, first);
    expect(watcher.events()).toEqual([{ event: "join", room: "r", seq: 0, role: "planner" }]);
    expect(first.events()).toEqual([]);
  });
});

describe("reading", () => {
  test("posting or reading without membership gets the exact not-member message", async () => {
    const broker = await startTestBroker();
    const peer = await RawPeer.hello(broker.socketPath, "planner");
    const other = await RawPeer.hello(broker.socketPath, "critic");
    await other.request({ id: 2, op: "join", room: "exists" });
    let id = 10;
    for (const room of ["exists", "never-created"]) {
      for (const request of [
        { op: "post", room, body: "x" },
        { op: "digest", room },
        { op: "fetch", room },
      ]) {
        expect(await peer.request({ id: ++id, ...request })).toEqual({
          id,
          ok: false,
          op: request.op,
          error: {
            code: "ERR_NOT_MEMBER",
            message: `Not a member of room "${room}"; join it first`,
            details: { room },
          },
        });
      }
    }
    expect(await peer.request({ id: 99, op: "members", room: "never-created" })).toMatchObject({
      ok: false,
      error: { code: "ERR_NO_SUCH_ROOM" },
    });
  });

  test("digest renders the unread messages within the budget and advances the cursor", async () => {
    const broker = await startTestBroker();
    const planner = await RawPeer.hello(broker.socketPath, "planner");
    const critic = await RawPeer.hello(broker.socketPath, "critic");
    await planner.request({ id: 2, op: "join", room: "r" });
    await critic.request({ id: 2, op: "join", room: "r" });
    for (let i = 1; i <= 3; i++) await planner.request({ id: 10 + i, op: "post", room: "r", body: `point ${i}` });
    expect(await critic.request({ id: 3, op: "rooms" })).toMatchObject({
      result: { rooms: [{ room: "r", members: 2, newestSeq: 3, joined: true, unread: 3 }] },
    });
    expect(await critic.request({ id: 4, op: "digest", room: "r" })).toEqual({
      id: 4,
      ok: true,
      op: "digest",
      result: {
        room: "r",
        text: "[#1 planner] point 1\n[#2 planner] point 2\n[#3 planner] point 3",
        full: 3,
        excerpted: 0,
        headlined: 0,
        collapsed: 0,
        evicted: 0,
        throughSeq: 3,
        fetchAfterSeq: null,
      },
    });
    expect(await critic.request({ id: 5, op: "digest", room: "r" })).toMatchObject({
      result: { text: "", full: 0, throughSeq: 3 },
    });
    await planner.request({ id: 20, op: "post", room: "r", body: "x".repeat(300), headline: "long one" });
    await planner.request({ id: 21, op: "post", room: "r", body: "y".repeat(60) });
    const tight = await critic.request({ id: 6, op: "digest", room: "r", budget: 110 });
    expect(tight).toMatchObject({ result: { full: 1, headlined: 1, collapsed: 0, throughSeq: 5 } });
    expect((tight["result"] as { text: string }).text).toBe(
      `[#4 planner, headline] long one\n[#5 planner] ${"y".repeat(60)}`,
    );
  });

  test("fetch returns a small page in full, says there is more, and advances the cursor", async () => {
    const broker = await startTestBroker();
    const planner = await RawPeer.hello(broker.socketPath, "planner");
    const critic = await RawPeer.hello(broker.socketPath, "critic");
    await planner.request({ id: 2, op: "join", room: "r" });
    await critic.request({ id: 2, op: "join", room: "r" });
    for (let i = 1; i <= 25; i++) {
      await planner.request({
        id: 100 + i,
        op: "post",
        room: "r",
        body: `m${i}`,
        ...(i === 1 ? { headline: "first" } : {}),
      });
    }
    const first = await critic.request({ id: 3, op: "fetch", room: "r" });
    const page = first["result"] as { messages: { seq: number; body: string; headline?: string }[]; more: boolean };
    expect(page.messages.map((m) => m.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(page.messages[0]).toMatchObject({ seq: 1, author: "planner", body: "m1", headline: "first" });
    expect(page.more).toBe(true);
    const second = await critic.request({ id: 4, op: "fetch", room: "r" });
    expect(second).toMatchObject({ result: { newestSeq: 25, more: false } });
    expect((second["result"] as { messages: { seq: number }[] }).messages.map((m) => m.seq)).toEqual([
      21, 22, 23, 24, 25,
    ]);
    // Re-reading old messages never moves the cursor backwards.
    const again = await critic.request({ id: 5, op: "fetch", room: "r", afterSeq: 0, limit: 2 });
    expect((again["result"] as { messages: { seq: number }[] }).messages.map((m) => m.seq)).toEqual([1, 2]);
    expect(await critic.request({ id: 6, op: "rooms" })).toMatchObject({ result: { rooms: [{ unread: 0 }] } });
  });

  test("a fetch past the ring's window reports what was evicted", async () => {
    const broker = await startTestBroker({ roomCapacity: 3 });
    const planner = await RawPeer.hello(broker.socketPath, "planner");
    await planner.request({ id: 2, op: "join", room: "r" });
    for (let i = 1; i <= 5; i++) await planner.request({ id: 10 + i, op: "post", room: "r", body: `m${i}` });
    expect(await planner.request({ id: 3, op: "fetch", room: "r", afterSeq: 0 })).toMatchObject({
      result: { evicted: { count: 2, fromSeq: 1, toSeq: 2 }, newestSeq: 5, more: false },
    });
  });

  test("a fetch page is cut at the byte cap but always carries one message", async () => {
    const broker = await startTestBroker({ maxFetchBytes: 250 });
    const planner = await RawPeer.hello(broker.socketPath, "planner");
    await planner.request({ id: 2, op: "join", room: "r" });
    for (let i = 1; i <= 3; i++) await planner.request({ id: 10 + i, op: "post", room: "r", body: "z".repeat(200) });
    const reply = await planner.request({ id: 3, op: "fetch", room: "r", afterSeq: 0 });
    expect((reply["result"] as { messages: unknown[] }).messages).toHaveLength(1);
    expect(reply).toMatchObject({ result: { more: true } });
  });

  test("status reports the broker", async () => {
    let now = 1_000_000;
    const broker = await startTestBroker({ clock: () => now });
    const peer = await RawPeer.hello(broker.socketPath, "planner");
    await peer.request({ id: 2, op: "join", room: "r" });
    now += 1234;
    expect(await peer.request({ id: 3, op: "status" })).toMatchObject({
      result: {
        pid: process.pid,
        uptimeMs: 1234,
        protocol: "orphus-roundtable",
        protocolVersion: 3,
        rooms: 1,
        connections: 1,
        socketPath: broker.socketPath,
        pingsDropped: 0,
        store: "memory",
        storeAvailable: true,
      },
    });
  });
});

describe("limits", () => {
  test("rooms, members, body, headline and room names are refused with their codes", async () => {
    const broker = await startTestBroker({ maxRooms: 1, maxMembers: 1, maxBodyBytes: 8, maxHeadlineBytes: 4 });
    const a = await RawPeer.hello(broker.socketPath, "a");
    const b = await RawPeer.hello(broker.socketPath, "b");
    await a.request({ id: 2, op: "join", room: "one" });
    expect(await a.request({ id: 3, op: "join", room: "two" })).toMatchObject({
      error: { code: "ERR_TOO_MANY_ROOMS", details: { maxRooms: 1 } },
    });
    expect(await b.request({ id: 2, op: "join", room: "one" })).toMatchObject({
      error: { code: "ERR_TOO_MANY_MEMBERS", details: { maxMembers: 1 } },
    });
    expect(await a.request({ id: 4, op: "post", room: "one", body: "123456789" })).toMatchObject({
      error: { code: "ERR_BODY_TOO_LARGE", details: { bytes: 9, maxBodyBytes: 8 } },
    });
    expect(await a.request({ id: 5, op: "post", room: "one", body: "ok", headline: "12345" })).toMatchObject({
      error: { code: "ERR_HEADLINE_TOO_LARGE", details: { bytes: 5, maxHeadlineBytes: 4 } },
    });
    // The protocol's ROOM_NAME_PATTERN, the one tools and the CLI check before sending.
    expect(await a.request({ id: 6, op: "join", room: "Bad Name" })).toMatchObject({
      error: { code: "ERR_INVALID_ROOM_NAME", details: { pattern: "^[a-z0-9][a-z0-9._-]{0,63}$" } },
    });
    expect(await a.request({ id: 8, op: "join", room: "x".repeat(65) })).toMatchObject({
      error: { code: "ERR_INVALID_ROOM_NAME" },
    });
    // Nothing refused was stored.
    expect(await a.request({ id: 7, op: "post", room: "one", body: "ok" })).toMatchObject({ result: { seq: 1 } });
  });
});
