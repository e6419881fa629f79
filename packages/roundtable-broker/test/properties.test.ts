import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { announcedPosts, parseServerFrame } from "@orphus/roundtable-protocol";
import { startBroker, type Broker } from "@orphus/roundtable-broker";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RawPeer, frame, hello, startTestBroker } from "./helpers.js";

let broker: Broker;
let agentDir: string;
let run = 0;

beforeAll(async () => {
  agentDir = mkdtempSync(join(tmpdir(), "rt-"));
  const start = await startBroker({ agentDir });
  if (start.status !== "listening") throw new Error("expected to listen");
  broker = start.broker;
});

afterAll(async () => {
  await broker.close();
  rmSync(agentDir, { recursive: true, force: true });
});

test("property: however the byte stream is cut, every request gets its reply, in order", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom("status", "rooms", "join", "post", "fetch", "bad"), { minLength: 1, maxLength: 12 }),
      fc.array(fc.nat(), { maxLength: 12 }),
      async (ops, rawCuts) => {
        const room = `split-${run++}`;
        const requests = [
          hello(1, "splitter"),
          ...ops.map((op, i) => {
            const id = i + 2;
            if (op === "join") return { id, op, room };
            if (op === "post") return { id, op, room, body: `body ${id} ✓` };
            if (op === "fetch") return { id, op, room };
            if (op === "bad") return { id, op: "post", room, body: null };
            return { id, op };
          }),
        ];
        const bytes = Buffer.concat(requests.map(frame));
        const cuts = [...new Set(rawCuts.map((c) => c % bytes.length))].sort((a, b) => a - b);
        const peer = new RawPeer(broker.socketPath);
        await peer.connected;
        let from = 0;
        for (const cut of [...cuts, bytes.length]) {
          if (cut > from) await peer.write(bytes.subarray(from, cut));
          await new Promise((resolve) => setImmediate(resolve));
          from = Math.max(from, cut);
        }
        await peer.reply(requests.length);
        const replies = peer.frames.filter((f) => "ok" in f);
        expect(replies.map((r) => r["id"])).toEqual(requests.map((r) => r["id"]));
        for (const reply of replies) parseServerFrame(reply);
        peer.socket.destroy();
        await peer.closed;
      },
    ),
    { numRuns: 40 },
  );
});

type Action = { readonly kind: "join" | "leave" | "post"; readonly who: number; readonly room: "a" | "b" };

/**
 * The plain model of three roles r0, r1, r2 in rooms a and b: who is a member, each room's last seq, and the events
 * each role's connection should have heard, one post event per post.
 */
class EventModel {
  readonly roles = ["r0", "r1", "r2"];
  readonly expected: Record<string, unknown>[][] = [[], [], []];
  readonly #members = { a: new Set<number>(), b: new Set<number>() };
  readonly #seqs = { a: 0, b: 0 };

  constructor(readonly prefix: string) {}

  /** Applies one action; returns the seq a post got, or undefined when it was refused (or was no post). */
  apply({ kind, who, room }: Action): number | undefined {
    const name = this.prefix + room;
    const members = this.#members[room];
    if (kind === "join") {
      if (!members.has(who)) this.#tell(room, who, { event: "join", room: name, seq: 0, role: this.roles[who] });
      members.add(who);
    } else if (kind === "leave") {
      if (members.delete(who)) this.#tell(room, who, { event: "leave", room: name, seq: 0, role: this.roles[who] });
    } else if (members.has(who)) {
      const seq = ++this.#seqs[room];
      this.#tell(room, who, { event: "post", room: name, seq, author: this.roles[who] });
      return seq;
    }
    return undefined;
  }

  #tell(room: "a" | "b", except: number, event: Record<string, unknown>): void {
    for (const member of this.#members[room]) if (member !== except) this.expected[member]!.push(event);
  }
}

test("property: each member hears exactly the others' posts and churn in its rooms, never a body", async () => {
  const action = fc.record({
    kind: fc.constantFrom("join" as const, "leave" as const, "post" as const),
    who: fc.integer({ min: 0, max: 2 }),
    room: fc.constantFrom("a" as const, "b" as const),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(action, { maxLength: 25 }), async (actions: Action[]) => {
      const model = new EventModel(`m${run++}-`);
      const peers = await Promise.all(model.roles.map((role) => RawPeer.hello(broker.socketPath, role)));
      let id = 10;
      for (const action of actions) {
        const reply = await peers[action.who]!.request(request(++id, model.prefix, action));
        const seq = model.apply(action);
        if (seq !== undefined) expect(reply).toMatchObject({ ok: true, result: { seq } });
        else if (action.kind === "post") expect(reply).toMatchObject({ ok: false, error: { code: "ERR_NOT_MEMBER" } });
      }
      // A round trip on each connection flushes the events written to it before the reply.
      for (const peer of peers) await peer.request({ id: 999, op: "status" });
      for (const [i, peer] of peers.entries()) {
        expect(peer.events()).toEqual(model.expected[i]);
        expect(JSON.stringify(peer.frames)).not.toContain("secret-");
      }
      for (const peer of peers) peer.socket.destroy();
      await Promise.all(peers.map((peer) => peer.closed));
    }),
    { numRuns: 40 },
  );
});

/** The request for one action, its body a secret no event may carry. */
function request(id: number, prefix: string, { kind, room }: Action): Record<string, unknown> {
  return kind === "post"
    ? { id, op: kind, room: prefix + room, body: `secret-${id}` }
    : { id, op: kind, room: prefix + room };
}

/** A peer's events with every posts event read as the post events it stands for (announcedPosts). */
function expanded(events: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return events.flatMap((event) => {
    const parsed = parseServerFrame(event);
    if (!("event" in parsed) || parsed.event !== "posts") return [event];
    return announcedPosts(parsed).map(({ seq, author }) => ({ event: "post", room: parsed.room, seq, author }));
  });
}

test("property: pipelined batches merge posts, yet every member hears exactly the posts and churn, in order", async () => {
  const action = fc.record({
    kind: fc.constantFrom("join" as const, "leave" as const, "post" as const, "post" as const),
    room: fc.constantFrom("a" as const, "b" as const),
  });
  const batch = fc.record({
    who: fc.integer({ min: 0, max: 2 }),
    actions: fc.array(action, { minLength: 1, maxLength: 8 }),
  });
  // A broker of its own: rooms are never removed, and every run (and every shrink) takes two.
  const own = await startTestBroker({ maxRooms: 4096 });
  let postsEvents = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(batch, { maxLength: 8 }), async (batches) => {
      const model = new EventModel(`p${run++}-`);
      // r2 speaks version 1: it must never see a posts event.
      const peers = await Promise.all(
        model.roles.map(async (role, i) => {
          const peer = new RawPeer(own.socketPath);
          await peer.connected;
          await peer.request(hello(1, role, i === 2 ? 1 : 2));
          return peer;
        }),
      );
      let id = 10;
      for (const { who, actions } of batches) {
        const requests = actions.map((action) => request(++id, model.prefix, { ...action, who }));
        // The whole batch in one write: the broker handles it in one turn, which is where merging happens.
        await peers[who]!.write(Buffer.concat(requests.map(frame)));
        await peers[who]!.reply(id);
        for (const action of actions) model.apply({ ...action, who });
      }
      for (const peer of peers) await peer.request({ id: 999, op: "status" });
      for (const [i, peer] of peers.entries()) {
        expect(expanded(peer.events())).toEqual(model.expected[i]);
        const merged = peer.events().filter((event) => event["event"] === "posts").length;
        if (i === 2) expect(merged).toBe(0);
        postsEvents += merged;
        expect(JSON.stringify(peer.frames)).not.toContain("secret-");
      }
      for (const peer of peers) peer.socket.destroy();
      await Promise.all(peers.map((peer) => peer.closed));
    }),
    { numRuns: 40 },
  );
  // The runs did merge: the property covered posts events, not only lone posts.
  expect(postsEvents).toBeGreaterThan(0);
});
