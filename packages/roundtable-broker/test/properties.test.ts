import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { parseServerFrame } from "@orphus/roundtable-protocol";
import { startBroker, type Broker } from "@orphus/roundtable-broker";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RawPeer, frame, hello } from "./helpers.js";

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
      }
    ),
    { numRuns: 40 }
  );
});

type Action = { readonly kind: "join" | "leave" | "post"; readonly who: number; readonly room: "a" | "b" };

test("property: each member hears exactly the others' posts and churn in its rooms, never a body", async () => {
  const action = fc.record({
    kind: fc.constantFrom("join" as const, "leave" as const, "post" as const),
    who: fc.integer({ min: 0, max: 2 }),
    room: fc.constantFrom("a" as const, "b" as const),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(action, { maxLength: 25 }), async (actions: Action[]) => {
      const prefix = `m${run++}-`;
      const roles = ["r0", "r1", "r2"];
      const peers = await Promise.all(roles.map((role) => RawPeer.hello(broker.socketPath, role)));
      const members = { a: new Set<number>(), b: new Set<number>() };
      const seqs = { a: 0, b: 0 };
      const expected: Record<string, unknown>[][] = [[], [], []];
      const tell = (room: "a" | "b", except: number, event: Record<string, unknown>): void => {
        for (const member of members[room]) if (member !== except) expected[member]!.push(event);
      };
      let id = 10;
      for (const { kind, who, room } of actions) {
        const name = prefix + room;
        const reply = await peers[who]!.request(
          kind === "post"
            ? { id: ++id, op: kind, room: name, body: `secret-${id}` }
            : { id: ++id, op: kind, room: name }
        );
        if (kind === "join") {
          if (!members[room].has(who)) tell(room, who, { event: "join", room: name, seq: 0, role: roles[who] });
          members[room].add(who);
        } else if (kind === "leave") {
          if (members[room].delete(who)) tell(room, who, { event: "leave", room: name, seq: 0, role: roles[who] });
        } else if (members[room].has(who)) {
          expect(reply).toMatchObject({ ok: true, result: { seq: ++seqs[room] } });
          tell(room, who, { event: "post", room: name, seq: seqs[room], author: roles[who] });
        } else {
          expect(reply).toMatchObject({ ok: false, error: { code: "ERR_NOT_MEMBER" } });
        }
      }
      // A round trip on each connection flushes the events written to it before the reply.
      for (const peer of peers) await peer.request({ id: 999, op: "status" });
      for (const [i, peer] of peers.entries()) {
        expect(peer.events()).toEqual(expected[i]);
        expect(JSON.stringify(peer.frames)).not.toContain("secret-");
      }
      for (const peer of peers) peer.socket.destroy();
      await Promise.all(peers.map((peer) => peer.closed));
    }),
    { numRuns: 40 }
  );
});
