// The page's view of the broker, updated event by event, against a naive reference that keeps everything and cuts
// only when asked: after any run of posts, members, served and room events, each room shows exactly the newest 100
// posts in arrival order, each role's latest served counts, the highest seq seen, and no name or headline longer
// than 300 characters.
import fc from "fast-check";
import { expect, test } from "vitest";
import type { WatchEvent } from "@orphus/roundtable-viewer";
import { ViewModel } from "../src/state.js";
import { fakeSnapshot } from "./support/fake-watch.js";

const ROOMS = ["design", "triage", "release"];
const name = fc.oneof(fc.constantFrom("planner", "critic", "reviewer"), fc.string({ maxLength: 400 }));

const event: fc.Arbitrary<WatchEvent> = fc
  .oneof(
    { weight: 6, arbitrary: fc.record({ room: fc.constantFrom(...ROOMS), author: name, headline: name }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("served" as const),
        room: fc.constantFrom(...ROOMS),
        role: name,
        digestChars: fc.nat(),
        fetchChars: fc.nat(),
        pingChars: fc.nat(),
        at: fc.constant("2026-12-05T00:00:01.000Z"),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("members" as const),
        room: fc.constantFrom(...ROOMS),
        members: fc.array(fc.record({ role: name, unread: fc.nat() }), { maxLength: 4 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("room" as const),
        room: fc.constantFrom(...ROOMS),
        held: fc.record({ messages: fc.nat(), chars: fc.nat() }),
        lastSeq: fc.nat({ max: 1000 }),
      }),
    },
  )
  .map((e): WatchEvent => ("kind" in e ? e : { kind: "post", ...e, seq: 0, at: "2026-12-05T00:00:01.000Z", chars: 1 }));

const cutRef = (text: string): string => (text.length <= 300 ? text : `${text.slice(0, 299)}…`);

test("each room shows the newest 100 posts, the latest served counts and the highest seq, every name cut", () => {
  fc.assert(
    fc.property(fc.array(event, { minLength: 250, maxLength: 600 }), (events) => {
      const view = new ViewModel(fakeSnapshot(), null, () => 0);
      const posts = new Map<string, { seq: number; author: string; headline: string }[]>();
      const served = new Map<string, Map<string, number>>();
      const lastSeq = new Map<string, number>();
      const seqs = new Map<string, number>();
      for (const raw of events) {
        let e = raw;
        if (e.kind === "post") {
          const seq = (seqs.get(e.room) ?? 0) + 1; // each room numbers its posts as the broker does
          seqs.set(e.room, seq);
          e = { ...e, seq };
          posts.set(e.room, [
            ...(posts.get(e.room) ?? []),
            { seq, author: cutRef(e.author), headline: cutRef(e.headline) },
          ]);
          lastSeq.set(e.room, Math.max(lastSeq.get(e.room) ?? 0, seq));
        } else if (e.kind === "served") {
          const roles = served.get(e.room) ?? new Map<string, number>();
          roles.set(cutRef(e.role), e.digestChars + e.fetchChars + e.pingChars);
          served.set(e.room, roles);
        } else if (e.kind === "room") {
          lastSeq.set(e.room, Math.max(lastSeq.get(e.room) ?? 0, e.lastSeq));
        }
        view.apply(e);
      }
      for (const room of view.state.rooms) {
        expect(room.posts.map(({ seq, author, headline }) => ({ seq, author, headline }))).toEqual(
          (posts.get(room.room) ?? []).slice(-100),
        );
        expect(new Map(room.served.map((s) => [s.role, s.digestChars + s.fetchChars + s.pingChars]))).toEqual(
          served.get(room.room) ?? new Map(),
        );
        expect(room.lastSeq).toBe(lastSeq.get(room.room) ?? 0);
        for (const text of [...room.members.map((m) => m.role), ...room.served.map((s) => s.role)]) {
          expect(text.length).toBeLessThanOrEqual(300);
        }
      }
    }),
  );
});
