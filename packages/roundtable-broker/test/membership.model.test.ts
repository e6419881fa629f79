// The broker's membership over several connections per role, against a plain model of docs/protocol.md's
// "Membership" section: membership belongs to the role; a role is in a room from a join by any of its connections
// until a leave by any of them or until its last connection closes; every connection of a member role receives the
// room's events except the connection that caused them; a leave reaches the role's own other connections too.
// Real broker, real Unix sockets, hand-encoded frames; after every command each open connection is settled with a
// round trip, so "what it has received" is exact.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { expect, test } from "vitest";
import { startBroker, type Broker } from "@orphus/roundtable-broker";
import { RawPeer } from "./helpers.js";
import { until } from "../../../test-support/poll.js";

const ROLES = ["ann", "bob", "cy"] as const;
const ROOMS = ["alpha", "beta"] as const;
/** Open connections at once, so a run exercises several per role without growing without bound. */
const MAX_OPEN = 6;

type Frame = Record<string, unknown>;

/** The plain model: which connections are open, which roles are in which room, and what each connection heard. */
interface Model {
  nextConnection: number;
  /** Open connections in opening order: id and role. */
  open: { id: number; role: string }[];
  members: Map<string, Set<string>>;
  seqs: Map<string, number>;
  /** Everything each open connection should have received, in order. */
  heard: Map<number, Frame[]>;
}

interface Real {
  broker: Broker;
  peers: Map<number, RawPeer>;
  nextRequest: number;
}

/** The member roles of a room; a room is created by its first join only, so asking creates nothing. */
function membersOf(model: Model, room: string): Set<string> {
  return model.members.get(room) ?? new Set();
}

/** The model's delivery rule: every open connection of the given roles, except the one that caused the event. */
function deliver(model: Model, event: Frame, roles: Iterable<string>, cause: number | undefined): void {
  const to = new Set(roles);
  for (const connection of model.open) {
    if (connection.id !== cause && to.has(connection.role)) model.heard.get(connection.id)?.push(event);
  }
}

async function request(real: Real, id: number, body: Frame): Promise<Frame> {
  const peer = real.peers.get(id);
  if (peer === undefined) throw new Error(`no peer ${id}`);
  return peer.request({ id: real.nextRequest++, ...body });
}

/** Each open connection has received everything sent to it before: its reply comes after its earlier events. */
async function settleAndCompare(model: Model, real: Real): Promise<void> {
  for (const { id } of model.open) {
    await request(real, id, { op: "status" });
    expect(real.peers.get(id)?.events(), `events of connection ${id}`).toEqual(model.heard.get(id));
  }
}

/** A command run on one of the open connections (picked by index, modulo how many are open), in a room or not. */
abstract class OnConnection implements fc.AsyncCommand<Model, Real> {
  abstract readonly name: string;
  constructor(
    readonly index: number,
    readonly room: string = "",
  ) {}
  check(model: Readonly<Model>): boolean {
    return model.open.length > 0;
  }
  abstract run(model: Model, real: Real): Promise<void>;
  protected connection(model: Model): { id: number; role: string } {
    return model.open[this.index % model.open.length] as { id: number; role: string };
  }
  toString(): string {
    return `${this.name}(#${this.index}${this.room === "" ? "" : `, ${this.room}`})`;
  }
}

class Open implements fc.AsyncCommand<Model, Real> {
  constructor(readonly role: string) {}
  check(model: Readonly<Model>): boolean {
    return model.open.length < MAX_OPEN;
  }
  async run(model: Model, real: Real): Promise<void> {
    const id = model.nextConnection++;
    model.open.push({ id, role: this.role });
    model.heard.set(id, []);
    real.peers.set(id, await RawPeer.hello(real.broker.socketPath, this.role));
    await settleAndCompare(model, real);
  }
  toString(): string {
    return `open(${this.role})`;
  }
}

class Close extends OnConnection {
  readonly name = "close";
  async run(model: Model, real: Real): Promise<void> {
    const { id, role } = this.connection(model);
    model.open = model.open.filter((c) => c.id !== id);
    model.heard.delete(id);
    if (!model.open.some((c) => c.role === role)) {
      for (const room of ROOMS) {
        const members = membersOf(model, room);
        if (!members.delete(role)) continue;
        deliver(model, { event: "disconnect", room, seq: 0, role }, members, id);
      }
    }
    real.peers.get(id)?.socket.destroy();
    real.peers.delete(id);
    await until(() => real.broker.stats().connections === model.open.length);
    await settleAndCompare(model, real);
  }
}

class Join extends OnConnection {
  readonly name = "join";
  async run(model: Model, real: Real): Promise<void> {
    const { id, role } = this.connection(model);
    const created = !model.members.has(this.room);
    const members = membersOf(model, this.room);
    model.members.set(this.room, members);
    if (!members.has(role)) {
      members.add(role);
      deliver(model, { event: "join", room: this.room, seq: 0, role }, members, id);
    }
    const reply = await request(real, id, { op: "join", room: this.room });
    expect(reply["result"]).toMatchObject({ room: this.room, created, members: [...members].sort() });
    await settleAndCompare(model, real);
  }
}

class Leave extends OnConnection {
  readonly name = "leave";
  async run(model: Model, real: Real): Promise<void> {
    const { id, role } = this.connection(model);
    const members = membersOf(model, this.room);
    const left = members.delete(role);
    if (left) deliver(model, { event: "leave", room: this.room, seq: 0, role }, [...members, role], id);
    const reply = await request(real, id, { op: "leave", room: this.room });
    expect(reply["result"]).toEqual({ room: this.room, left });
    await settleAndCompare(model, real);
  }
}

class Post extends OnConnection {
  readonly name = "post";
  async run(model: Model, real: Real): Promise<void> {
    const { id, role } = this.connection(model);
    const members = membersOf(model, this.room);
    const reply = await request(real, id, { op: "post", room: this.room, body: `from ${role} on #${id}` });
    if (members.has(role)) {
      const seq = (model.seqs.get(this.room) ?? 0) + 1;
      model.seqs.set(this.room, seq);
      deliver(model, { event: "post", room: this.room, seq, author: role }, members, id);
      expect(reply).toMatchObject({ ok: true, result: { room: this.room, seq } });
    } else {
      expect(reply).toMatchObject({ ok: false, error: { code: "ERR_NOT_MEMBER" } });
    }
    await settleAndCompare(model, real);
  }
}

/** What `rooms` says about membership, from any connection of a role, matches the model. */
class Rooms extends OnConnection {
  readonly name = "rooms";
  async run(model: Model, real: Real): Promise<void> {
    const { id, role } = this.connection(model);
    const reply = await request(real, id, { op: "rooms" });
    const listed = (reply["result"] as { rooms: { room: string; joined: boolean; members: number }[] }).rooms;
    const expected = [...model.members.keys()].sort().map((room) => ({
      room,
      joined: membersOf(model, room).has(role),
      members: membersOf(model, room).size,
    }));
    expect(listed.map(({ room, joined, members }) => ({ room, joined, members }))).toEqual(expected);
  }
}

const index = fc.nat({ max: MAX_OPEN * 2 });
const room = fc.constantFrom(...ROOMS);
const commands = fc.commands(
  [
    // Opens and joins twice as likely as the rest, so runs reach several connections per role in shared rooms.
    fc.constantFrom(...ROLES).map((role) => new Open(role)),
    fc.constantFrom(...ROLES).map((role) => new Open(role)),
    index.map((i) => new Close(i)),
    fc.tuple(index, room).map(([i, r]) => new Join(i, r)),
    fc.tuple(index, room).map(([i, r]) => new Join(i, r)),
    fc.tuple(index, room).map(([i, r]) => new Leave(i, r)),
    fc.tuple(index, room).map(([i, r]) => new Post(i, r)),
    index.map((i) => new Rooms(i)),
  ],
  { maxCommands: 40, size: "max" },
);

test("model: membership over several connections per role matches the plain model", async () => {
  await fc.assert(
    fc.asyncProperty(commands, async (run) => {
      const agentDir = mkdtempSync(join(tmpdir(), "rtm-"));
      const start = await startBroker({ agentDir, registryDir: false });
      if (start.status !== "listening") throw new Error("expected a listening broker");
      const real: Real = { broker: start.broker, peers: new Map(), nextRequest: 1000 };
      const model: Model = { nextConnection: 1, open: [], members: new Map(), seqs: new Map(), heard: new Map() };
      try {
        await fc.asyncModelRun(() => ({ model, real }), run);
      } finally {
        for (const peer of real.peers.values()) peer.socket.destroy();
        await start.broker.close();
        rmSync(agentDir, { recursive: true, force: true });
      }
    }),
    { numRuns: 60 },
  );
}, 120_000);
