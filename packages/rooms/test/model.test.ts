// Model-based test: random sequences of room operations run against the real Room (through a RoomRegistry) and
// against a deliberately simple model that keeps every message ever posted in a plain array and works out the
// retained window, evictions and cursors from it directly.
import fc from "fast-check";
import { expect, test } from "vitest";
import { type ConnectionId, type Room, RoomRegistry, type RoomPage } from "@orphus/rooms";

const ROLES = ["ann", "bob", "cy", "dee"] as const;
const CONNECTIONS = ["c1", "c2", "c3", 4] as const;
const ROOM = "model-room";
const encoder = new TextEncoder();

interface ModelMessage {
  seq: number;
  author: string;
  body: string;
  headline?: string;
  postedAt: number;
}

interface Model {
  readonly capacity: number;
  readonly maxMembers: number;
  readonly maxRetainedCursors: number;
  readonly maxBodyBytes: number;
  /** Every message ever posted, in order: nothing is evicted here. */
  readonly all: ModelMessage[];
  /** Member role → its connections. */
  readonly members: Map<string, Set<ConnectionId>>;
  /** Role → cursor, for members and for departed roles whose cursor is retained. */
  readonly cursors: Map<string, number>;
  /** Departed roles with a retained cursor, earliest departure first. */
  readonly departed: string[];
  now: number;
}

interface Real {
  readonly registry: RoomRegistry;
  readonly room: Room;
  readonly time: { now: number };
  /** The highest cursor each role has been seen at, to check cursors never move backwards. */
  readonly seenCursors: Map<string, number>;
}

/** The messages the ring should still hold: the last `capacity` of everything posted. */
function retained(model: Model): ModelMessage[] {
  return model.all.slice(Math.max(0, model.all.length - model.capacity));
}

/** What a read after `afterSeq`, at most `limit`, should return, derived from the full history. */
function expectedPage(model: Model, afterSeq: number, limit: number): RoomPage {
  const window = retained(model);
  const oldestSeq = window[0]?.seq ?? 0;
  const newestSeq = model.all.at(-1)?.seq ?? 0;
  const after = window.filter((m) => m.seq > afterSeq);
  const evictedUnread = model.all.filter((m) => m.seq > afterSeq && m.seq < oldestSeq);
  const page: RoomPage = {
    messages: after.slice(0, limit),
    newestSeq,
    oldestSeq,
    hasMore: after.length > limit,
  };
  const first = evictedUnread[0];
  const last = evictedUnread.at(-1);
  if (first === undefined || last === undefined) return page;
  return { ...page, evicted: { count: evictedUnread.length, fromSeq: first.seq, toSeq: last.seq } };
}

function leaveInModel(model: Model, role: string, connection: ConnectionId): boolean {
  const connections = model.members.get(role);
  if (connections === undefined || !connections.delete(connection)) return false;
  if (connections.size > 0) return false;
  model.members.delete(role);
  model.departed.push(role);
  if (model.departed.length > model.maxRetainedCursors) model.cursors.delete(model.departed.shift() as string);
  return true;
}

/** After every command: the room agrees with the model on everything observable, and the bounds hold. */
function checkInvariants(model: Model, real: Real): void {
  const { room } = real;
  const window = retained(model);
  // One comparison of everything observable keeps the per-command cost low enough for many runs.
  expect({
    newestSeq: room.newestSeq,
    oldestSeq: room.oldestSeq,
    retainedCount: room.retainedCount,
    members: room.members(),
    memberList: room.memberList(),
    isMember: ROLES.map((r) => room.isMember(r)),
    cursors: ROLES.map((r) => room.cursor(r)),
    list: real.registry.list(),
  }).toEqual({
    newestSeq: model.all.length,
    oldestSeq: window[0]?.seq ?? 0,
    retainedCount: window.length,
    members: [...model.members.keys()],
    memberList: [...model.members.keys()],
    isMember: ROLES.map((r) => model.members.has(r)),
    cursors: ROLES.map((r) => model.cursors.get(r)),
    list: [
      { name: ROOM, memberCount: model.members.size, messageCount: model.all.length, retainedCount: window.length },
    ],
  });
  // The bounds, and cursors never moving backwards (a dropped cursor starts afresh on rejoin).
  if (room.retainedCount > model.capacity || room.memberCount > model.maxMembers) {
    expect.fail(`room over its bounds: ${room.retainedCount} messages, ${room.memberCount} members`);
  }
  for (const role of ROLES) {
    const cursor = room.cursor(role);
    if (cursor === undefined) {
      real.seenCursors.delete(role);
      continue;
    }
    if (cursor < (real.seenCursors.get(role) ?? 0) || cursor > room.newestSeq) {
      expect.fail(`cursor of ${role} moved to ${cursor}: was ${String(real.seenCursors.get(role))}`);
    }
    real.seenCursors.set(role, cursor);
  }
}

/** Every command applies in every state: the room must answer, or refuse with the right code, whatever comes. */
abstract class RoomCommand implements fc.Command<Model, Real> {
  check(): boolean {
    return true;
  }
  abstract run(model: Model, real: Real): void;
  abstract toString(): string;
}

class JoinCommand extends RoomCommand {
  constructor(
    readonly role: string,
    readonly connection: ConnectionId,
  ) {
    super();
  }
  run(model: Model, real: Real): void {
    const connections = model.members.get(this.role);
    if (connections === undefined && model.members.size >= model.maxMembers) {
      expect(() => real.room.join(this.role, this.connection)).toThrow(
        expect.objectContaining({ code: "ERR_MEMBER_LIMIT" }),
      );
    } else if (connections !== undefined) {
      expect(real.room.join(this.role, this.connection)).toBe(false);
      connections.add(this.connection);
    } else {
      expect(real.room.join(this.role, this.connection)).toBe(true);
      model.members.set(this.role, new Set([this.connection]));
      const departedAt = model.departed.indexOf(this.role);
      if (departedAt >= 0) model.departed.splice(departedAt, 1);
      // A role new to the room starts just before the oldest message still retained.
      else model.cursors.set(this.role, (retained(model)[0]?.seq ?? 1) - 1);
    }
    checkInvariants(model, real);
  }
  toString(): string {
    return `join(${this.role}, ${String(this.connection)})`;
  }
}

class LeaveCommand extends RoomCommand {
  constructor(
    readonly role: string,
    readonly connection: ConnectionId,
  ) {
    super();
  }
  run(model: Model, real: Real): void {
    const left = leaveInModel(model, this.role, this.connection);
    expect(real.room.leave(this.role, this.connection)).toBe(left);
    checkInvariants(model, real);
  }
  toString(): string {
    return `leave(${this.role}, ${String(this.connection)})`;
  }
}

class DropConnectionCommand extends RoomCommand {
  constructor(readonly connection: ConnectionId) {
    super();
  }
  run(model: Model, real: Real): void {
    const left = [...model.members.keys()].filter((role) => leaveInModel(model, role, this.connection));
    expect(real.registry.dropConnection(this.connection)).toEqual(left.map((role) => ({ room: ROOM, role })));
    checkInvariants(model, real);
  }
  toString(): string {
    return `dropConnection(${String(this.connection)})`;
  }
}

class PostCommand extends RoomCommand {
  #author = "";
  constructor(
    /** Index into the current members, or a role name to post as whether a member or not. */
    readonly as: number | string,
    readonly body: string,
    readonly headline: string | undefined,
  ) {
    super();
  }
  run(model: Model, real: Real): void {
    const members = [...model.members.keys()];
    const author = typeof this.as === "string" ? this.as : (members[this.as % members.length] ?? ROLES[0]);
    this.#author = author;
    const post = (): unknown => real.room.post(author, this.body, this.headline);
    if (!model.members.has(author)) {
      expect(post).toThrow(expect.objectContaining({ code: "ERR_NOT_MEMBER" }));
    } else if (encoder.encode(this.body).length > model.maxBodyBytes) {
      expect(post).toThrow(expect.objectContaining({ code: "ERR_BODY_TOO_LARGE" }));
    } else {
      const previous = model.all.at(-1)?.seq ?? 0;
      const expected: ModelMessage = { seq: model.all.length + 1, author, body: this.body, postedAt: model.now };
      if (this.headline !== undefined) expected.headline = this.headline;
      const message = real.room.post(author, this.body, this.headline);
      expect(message).toEqual(expected);
      // Strictly increasing, hence never reused.
      expect(message.seq).toBeGreaterThan(previous);
      // An author who had read everything has its own message counted as read.
      if (model.cursors.get(author) === previous) model.cursors.set(author, message.seq);
      model.all.push(expected);
    }
    checkInvariants(model, real);
  }
  toString(): string {
    return `post(${this.#author || String(this.as)}, ${JSON.stringify(this.body)}, ${JSON.stringify(this.headline)})`;
  }
}

class MarkReadCommand extends RoomCommand {
  constructor(
    readonly role: string,
    /** Offset from the newest seq, so marks land before, on and past it. */
    readonly offset: number,
  ) {
    super();
  }
  run(model: Model, real: Real): void {
    const seq = Math.max(0, model.all.length + this.offset);
    const cursor = model.cursors.get(this.role);
    if (!model.members.has(this.role) || cursor === undefined) {
      expect(() => real.room.markRead(this.role, seq)).toThrow(expect.objectContaining({ code: "ERR_NOT_MEMBER" }));
    } else {
      const next = Math.max(cursor, Math.min(seq, model.all.length));
      expect(real.room.markRead(this.role, seq)).toBe(next);
      model.cursors.set(this.role, next);
    }
    checkInvariants(model, real);
  }
  toString(): string {
    return `markRead(${this.role}, newest${this.offset >= 0 ? "+" : ""}${this.offset})`;
  }
}

class UnreadCommand extends RoomCommand {
  constructor(
    readonly role: string,
    readonly limit: number | undefined,
  ) {
    super();
  }
  run(model: Model, real: Real): void {
    const cursor = model.cursors.get(this.role);
    if (!model.members.has(this.role) || cursor === undefined) {
      const notMember = expect.objectContaining({ code: "ERR_NOT_MEMBER" });
      expect(() => real.room.unread(this.role, this.limit)).toThrow(notMember);
      expect(() => real.room.unreadCount(this.role)).toThrow(notMember);
    } else {
      const expected = expectedPage(model, cursor, this.limit ?? model.capacity);
      expect(real.room.unread(this.role, this.limit)).toEqual(expected);
      expect(real.room.unreadCount(this.role)).toBe(model.all.filter((m) => m.seq > cursor).length);
    }
    checkInvariants(model, real);
  }
  toString(): string {
    return `unread(${this.role}, ${String(this.limit)})`;
  }
}

class PageCommand extends RoomCommand {
  constructor(
    /** Fraction of the way from 0 to a little past the newest seq. */
    readonly position: number,
    readonly limit: number,
  ) {
    super();
  }
  run(model: Model, real: Real): void {
    const afterSeq = Math.floor(this.position * (model.all.length + 3));
    expect(real.room.page(afterSeq, this.limit)).toEqual(expectedPage(model, afterSeq, this.limit));
    checkInvariants(model, real);
  }
  toString(): string {
    return `page(${this.position.toFixed(2)} of newest+3, ${this.limit})`;
  }
}

class TickCommand extends RoomCommand {
  constructor(readonly ms: number) {
    super();
  }
  run(model: Model, real: Real): void {
    model.now += this.ms;
    real.time.now += this.ms;
  }
  toString(): string {
    return `tick(${this.ms})`;
  }
}

const role = fc.constantFrom(...ROLES);
const connection = fc.constantFrom(...CONNECTIONS);
// Characters of 1, 2, 3 and 4 UTF-8 bytes, plus any code point, so byte limits and character counts disagree.
const anyCodePoint = fc.string({ unit: "binary", minLength: 1, maxLength: 1 });
const character = fc.oneof(fc.constantFrom("a", "é", "€", "😀"), anyCodePoint);
const text = fc.string({ unit: character, maxLength: 5 });
const headline = fc.option(text, { nil: undefined });
const limit = fc.integer({ min: 0, max: 8 });

const commandArbitraries = [
  // Joining and posting are listed twice, so rooms have members to post and the ring wraps many times a run.
  fc.tuple(role, connection).map(([r, c]) => new JoinCommand(r, c)),
  fc.tuple(role, connection).map(([r, c]) => new JoinCommand(r, c)),
  fc.tuple(role, connection).map(([r, c]) => new LeaveCommand(r, c)),
  connection.map((c) => new DropConnectionCommand(c)),
  fc.tuple(role, text, headline).map(([r, b, h]) => new PostCommand(r, b, h)),
  fc.tuple(fc.nat(ROLES.length), text, headline).map(([i, b, h]) => new PostCommand(i, b, h)),
  fc.tuple(fc.nat(ROLES.length), text).map(([i, b]) => new PostCommand(i, b, undefined)),
  fc.tuple(role, fc.integer({ min: -4, max: 3 })).map(([r, o]) => new MarkReadCommand(r, o)),
  fc.tuple(role, fc.option(limit, { nil: undefined })).map(([r, l]) => new UnreadCommand(r, l)),
  fc.tuple(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), limit).map(([p, l]) => new PageCommand(p, l)),
  fc.integer({ min: 1, max: 1000 }).map((ms) => new TickCommand(ms)),
];

const roomOptions = fc.record({
  capacity: fc.integer({ min: 1, max: 6 }),
  maxMembers: fc.integer({ min: 1, max: ROLES.length }),
  maxRetainedCursors: fc.integer({ min: 0, max: 3 }),
  // Small enough that multi-byte bodies of a few characters cross it.
  maxBodyBytes: fc.integer({ min: 6, max: 24 }),
});

test("a room agrees with a keep-everything model over random post/join/leave/markRead/unread/page runs", () => {
  fc.assert(
    fc.property(roomOptions, fc.commands(commandArbitraries, { maxCommands: 100, size: "max" }), (options, cmds) => {
      const time = { now: 1_700_000_000_000 };
      const registry = new RoomRegistry({ ...options, clock: () => time.now });
      const setup = () => ({
        model: {
          ...options,
          all: [],
          members: new Map(),
          cursors: new Map(),
          departed: [],
          now: time.now,
        } satisfies Model,
        real: { registry, room: registry.getOrCreate(ROOM), time, seenCursors: new Map<string, number>() },
      });
      fc.modelRun(setup, cmds);
    }),
    { numRuns: 100 },
  );
});
