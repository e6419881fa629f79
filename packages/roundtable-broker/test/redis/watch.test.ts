// Two brokers on one redis-server, a member on one and a watcher on each: the rooms, members and posts look the same
// from either broker, live as well as in the snapshot; served counts are each broker's own.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startRedisServer, type RedisServer } from "../../../../test-support/redis-server.js";
import { RawPeer, startTestBroker } from "../helpers.js";

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.close();
});

type Frame = Record<string, unknown>;
const result = (reply: Frame): Frame => reply["result"] as Frame;
/** A snapshot without what differs by broker: its identity, and the served counts it keeps itself. */
const rooms = (snapshot: Frame): unknown => (snapshot["rooms"] as Frame[]).map(({ served: _served, ...room }) => room);

test("a watcher of either broker sees the same rooms, members and posts; served counts are per broker", async () => {
  const a = await startTestBroker({ store: redis.url, clock: () => 1_796_000_000_000 });
  const b = await startTestBroker({ store: redis.url, clock: () => 1_796_000_000_000 });
  const ann = await RawPeer.hello(a.socketPath, "ann");
  const bob = await RawPeer.hello(b.socketPath, "bob");
  await ann.request({ id: 2, op: "join", room: "hall" });
  await bob.request({ id: 2, op: "join", room: "hall" });
  await ann.request({ id: 3, op: "post", room: "hall", body: "from a: é😀", headline: "hé" });
  await bob.request({ id: 3, op: "post", room: "hall", body: "from b" });
  // Each hears the other's post through its own broker (another broker's activity comes through Redis).
  for (const peer of [ann, bob]) await peer.until(() => peer.events().some((e) => e["event"] === "post"));
  const digest = result(await bob.request({ id: 4, op: "digest", room: "hall" }));
  const [watchA, watchB] = [await RawPeer.watcher(a.socketPath), await RawPeer.watcher(b.socketPath)];
  const [snapA, snapB] = [
    result(await watchA.request({ id: 2, op: "watch" })),
    result(await watchB.request({ id: 2, op: "watch" })),
  ];
  expect(rooms(snapA)).toEqual(rooms(snapB));
  expect(rooms(snapA)).toEqual([
    {
      room: "hall",
      lastSeq: 2,
      held: { messages: 2, chars: 11 + 2 + 6 },
      members: [
        { role: "ann", unread: 1 },
        { role: "bob", unread: 0 },
      ],
      recent: [
        { seq: 1, author: "ann", postedAt: expect.any(Number), headline: "hé", chars: 13 },
        { seq: 2, author: "bob", postedAt: expect.any(Number), headline: "from b", chars: 6 },
      ],
    },
  ]);
  // Broker a served ann a ping of #2; broker b served bob a ping of #1 and a digest.
  const served = (snapshot: Frame): unknown => (snapshot["rooms"] as Frame[])[0]?.["served"];
  expect(served(snapA)).toEqual([{ role: "ann", digestChars: 0, fetchChars: 0, pingChars: 45 + 4 + 3 + 1 }]);
  expect(served(snapB)).toEqual([
    { role: "bob", digestChars: (digest["text"] as string).length, fetchChars: 0, pingChars: 45 + 4 + 3 + 1 },
  ]);
  // Live: a post through a reaches the watcher of b, with its headline; a join through b reaches the watcher of a.
  await ann.request({ id: 5, op: "post", room: "hall", body: "third", headline: "3rd" });
  const cy = await RawPeer.hello(b.socketPath, "cy");
  await cy.request({ id: 2, op: "join", room: "hall" });
  for (const watcher of [watchA, watchB]) {
    await watcher.until(() =>
      watcher.watchEvents().some((e) => e["kind"] === "post" && e["seq"] === 3 && e["headline"] === "3rd"),
    );
    await watcher.until(() =>
      watcher
        .watchEvents()
        .some((e) => e["kind"] === "members" && JSON.stringify(e["members"]).includes('"role":"cy"')),
    );
  }
  // Peek through either broker reads the same texts, moving nobody's cursor.
  const peekA = result(await watchA.request({ id: 3, op: "peek", room: "hall" }));
  const peekB = result(await watchB.request({ id: 3, op: "peek", room: "hall" }));
  expect(peekA).toEqual(peekB);
  expect((peekA["messages"] as Frame[]).map((m) => m["body"])).toEqual(["from a: é😀", "from b", "third"]);
  expect(await bob.request({ id: 6, op: "rooms" })).toMatchObject({
    result: { rooms: [{ room: "hall", members: 3, unread: 1 }] },
  });
});
