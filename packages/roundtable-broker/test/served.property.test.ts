// The served counts a watcher reads, against a naive model: over random runs of posts, digests and fetches by three
// members, each role's digest characters are the sum of the digest texts it was answered, its fetch characters the
// sum of body and headline of every message it was sent in a fetch, and its ping characters the JSON of every post
// its connection heard, one post event each. The model adds up what the members received; the broker counts alone.
import fc from "fast-check";
import { expect, test } from "vitest";
import { announcedPosts, type RoundtableEvent } from "@orphus/roundtable-protocol";
import { RawPeer, startTestBroker } from "./helpers.js";

type Frame = Record<string, unknown>;
const ROLES = ["ann", "bob", "cy"] as const;

type Command =
  | { op: "post"; by: number; body: string; headline?: string }
  | { op: "digest"; by: number; budget: number }
  | { op: "fetch"; by: number; afterSeq: number; limit: number; maxChars: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    op: fc.constant("post" as const),
    by: fc.nat({ max: 2 }),
    body: fc.string({ minLength: 0, maxLength: 80, unit: "grapheme" }),
    headline: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
  }),
  fc.record({ op: fc.constant("digest" as const), by: fc.nat({ max: 2 }), budget: fc.integer({ min: 0, max: 300 }) }),
  fc.record({
    op: fc.constant("fetch" as const),
    by: fc.nat({ max: 2 }),
    afterSeq: fc.nat({ max: 12 }),
    limit: fc.integer({ min: 1, max: 5 }),
    maxChars: fc.integer({ min: 1, max: 200 }),
  }),
);

test("served counts equal what each role was sent, over random runs (40 runs)", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(command, { maxLength: 25 }), async (commands) => {
      const broker = await startTestBroker();
      try {
        const peers = await Promise.all(ROLES.map((role) => RawPeer.hello(broker.socketPath, role)));
        for (const peer of peers) await peer.request({ id: 2, op: "join", room: "r" });
        const model = ROLES.map(() => ({ digestChars: 0, fetchChars: 0, pingChars: 0 }));
        let id = 10;
        for (const c of commands) {
          const peer = peers[c.by] as RawPeer;
          const counts = model[c.by] as (typeof model)[number];
          const { by: _by, ...request } = c;
          const reply = await peer.request({ id: ++id, room: "r", ...request });
          const result = reply["result"] as Frame | undefined;
          if (c.op === "digest" && result !== undefined) counts.digestChars += (result["text"] as string).length;
          if (c.op === "fetch" && result !== undefined) {
            for (const m of result["messages"] as { body: string; headline?: string }[]) {
              counts.fetchChars += m.body.length + (m.headline?.length ?? 0);
            }
          }
        }
        // A status reply comes after every event queued before it: each peer has heard all it will hear.
        for (const [i, peer] of peers.entries()) {
          await peer.request({ id: ++id, op: "status" });
          for (const event of peer.events() as RoundtableEvent[]) {
            for (const post of announcedPosts(event)) {
              (model[i] as (typeof model)[number]).pingChars += JSON.stringify({
                event: "post",
                room: "r",
                seq: post.seq,
                author: post.author,
              }).length;
            }
          }
        }
        const watcher = await RawPeer.watcher(broker.socketPath);
        const snapshot = (await watcher.request({ id: 2, op: "watch" }))["result"] as { rooms: Frame[] };
        // A role is listed once it was served anything, or asked a digest or fetch (which may serve nothing).
        const expected = model
          .map((counts, i) => ({ role: ROLES[i] as string, ...counts }))
          .filter(
            (counts) =>
              counts.digestChars + counts.fetchChars + counts.pingChars > 0 ||
              commands.some((c) => c.op !== "post" && ROLES[c.by] === counts.role),
          );
        expect(snapshot.rooms[0]?.["served"]).toEqual(expected);
      } finally {
        await broker.close();
      }
    }),
    { numRuns: 40 },
  );
}, 120_000);
