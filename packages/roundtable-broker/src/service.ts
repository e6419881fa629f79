import { renderDigest } from "@orphus/digest";
import { encodeFrame } from "@orphus/framing";
import {
  BodyTooLargeError,
  HeadlineTooLargeError,
  MemberLimitError,
  NotMemberError,
  RoleNameInvalidError,
  RoomLimitError,
  RoomNameInvalidError,
  RoomRegistry,
  type Room,
  type RoomMessage,
} from "@orphus/rooms";
import {
  DEFAULT_DIGEST_BUDGET,
  DEFAULT_FETCH_LIMIT,
  notMemberMessage,
  type FetchedMessage,
  type RequestFor,
  type ResultFor,
  type RoundtableEvent,
  type WireError,
} from "@orphus/roundtable-protocol";
import type { BrokerConnection } from "./connection.js";
import { RefusalError } from "./errors.js";

/** Limits the room service applies. */
export interface RoomServiceOptions {
  readonly maxRooms: number;
  readonly maxMembers: number;
  readonly maxBodyBytes: number;
  readonly maxHeadlineBytes: number;
  readonly roomCapacity: number;
  readonly maxFetchBytes: number;
  readonly maxFrameBytes: number;
  readonly clock: () => number;
}

/** Turns a rooms failure into the refusal the wire carries; undefined for anything else (a bug: ERR_INTERNAL). */
function refusalFor(error: unknown, room: string): WireError | undefined {
  if (error instanceof NotMemberError) {
    return { code: "ERR_NOT_MEMBER", message: notMemberMessage(room), details: { room } };
  }
  if (error instanceof RoomNameInvalidError) {
    return { code: "ERR_INVALID_ROOM_NAME", message: error.message, details: { pattern: error.pattern.source } };
  }
  if (error instanceof RoomLimitError) {
    return { code: "ERR_TOO_MANY_ROOMS", message: error.message, details: { maxRooms: error.maxRooms } };
  }
  if (error instanceof MemberLimitError) {
    return { code: "ERR_TOO_MANY_MEMBERS", message: error.message, details: { maxMembers: error.maxMembers } };
  }
  if (error instanceof BodyTooLargeError) {
    return {
      code: "ERR_BODY_TOO_LARGE",
      message: error.message,
      details: { bytes: error.bytes, maxBodyBytes: error.maxBytes },
    };
  }
  if (error instanceof HeadlineTooLargeError) {
    return {
      code: "ERR_HEADLINE_TOO_LARGE",
      message: error.message,
      details: { bytes: error.bytes, maxHeadlineBytes: error.maxBytes },
    };
  }
  if (error instanceof RoleNameInvalidError) return { code: "ERR_INVALID_ROLE_NAME", message: error.message };
  return undefined;
}

/** Runs `action`, turning a rooms failure about `room` into a RefusalError. */
function refusing<T>(room: string, action: () => T): T {
  try {
    return action();
  } catch (error) {
    const wire = refusalFor(error, room);
    throw wire === undefined ? error : new RefusalError(wire);
  }
}

function toFetched(message: RoomMessage): FetchedMessage {
  return message.headline === undefined
    ? { seq: message.seq, author: message.author, body: message.body, postedAt: message.postedAt }
    : {
        seq: message.seq,
        author: message.author,
        body: message.body,
        headline: message.headline,
        postedAt: message.postedAt,
      };
}

/**
 * The rooms of one broker and the connections joined to each: runs every room op for a connection that said
 * hello, and pushes events to the other members. Rooms are never removed (their sequence numbers must not restart).
 */
export class RoomService {
  readonly registry: RoomRegistry;
  readonly #members = new Map<string, Set<BrokerConnection>>();
  /** Pings dropped by connections that have since closed, so the total survives them. */
  #droppedByClosed = 0;

  constructor(private readonly options: RoomServiceOptions) {
    this.registry = new RoomRegistry({
      maxRooms: options.maxRooms,
      maxMembers: options.maxMembers,
      maxBodyBytes: options.maxBodyBytes,
      maxHeadlineBytes: options.maxHeadlineBytes,
      capacity: options.roomCapacity,
      clock: options.clock,
    });
  }

  /** Pings dropped for slow readers since start. */
  pingsDropped(open: Iterable<BrokerConnection>): number {
    let total = this.#droppedByClosed;
    for (const connection of open) total += connection.pingsDropped;
    return total;
  }

  join(connection: BrokerConnection, role: string, { room: name }: RequestFor<"join">): ResultFor<"join"> {
    const created = this.registry.get(name) === undefined;
    const room = refusing(name, () => this.registry.getOrCreate(name));
    const becameMember = refusing(name, () => room.join(role, connection.id));
    connection.rooms.add(name);
    let joined = this.#members.get(name);
    if (joined === undefined) this.#members.set(name, (joined = new Set()));
    joined.add(connection);
    if (becameMember) this.#emit(name, { event: "join", room: name, seq: 0, role }, role);
    return {
      room: name,
      created,
      members: room.members().sort(),
      newestSeq: room.newestSeq,
      unread: room.unreadCount(role),
    };
  }

  leave(connection: BrokerConnection, role: string, { room: name }: RequestFor<"leave">): ResultFor<"leave"> {
    const room = this.registry.get(name);
    if (room === undefined || !connection.rooms.delete(name)) return { room: name, left: false };
    this.#members.get(name)?.delete(connection);
    if (room.leave(role, connection.id)) this.#emit(name, { event: "leave", room: name, seq: 0, role }, role);
    return { room: name, left: true };
  }

  post(_connection: BrokerConnection, role: string, request: RequestFor<"post">): ResultFor<"post"> {
    const room = this.#memberRoom(request.room, role);
    const message = refusing(request.room, () => room.post(role, request.body, request.headline));
    this.#emit(request.room, { event: "post", room: request.room, seq: message.seq, author: role }, role);
    return { room: request.room, seq: message.seq, postedAt: message.postedAt };
  }

  digest(_connection: BrokerConnection, role: string, request: RequestFor<"digest">): ResultFor<"digest"> {
    const room = this.#memberRoom(request.room, role);
    const page = room.unread(role);
    const digest = renderDigest({
      items: page.messages.map((m) =>
        m.headline === undefined
          ? { seq: m.seq, author: m.author, body: m.body }
          : { seq: m.seq, author: m.author, body: m.body, headline: m.headline }
      ),
      budget: request.budget ?? DEFAULT_DIGEST_BUDGET,
      evicted: page.evicted ?? null,
      recovery: "fetch",
    });
    const throughSeq = digest.newestSeq === null ? room.cursor(role) ?? 0 : room.markRead(role, digest.newestSeq);
    return {
      room: request.room,
      text: digest.text,
      full: digest.full.length,
      excerpted: digest.excerpts.length,
      headlined: digest.headlines.length,
      collapsed: digest.collapsed.length,
      evicted: digest.evicted?.count ?? 0,
      throughSeq,
      fetchAfterSeq: digest.afterSeq,
    };
  }

  fetch(_connection: BrokerConnection, role: string, request: RequestFor<"fetch">): ResultFor<"fetch"> {
    const room = this.#memberRoom(request.room, role);
    const afterSeq = request.afterSeq ?? room.cursor(role) ?? 0;
    const page = room.page(afterSeq, request.limit ?? DEFAULT_FETCH_LIMIT);
    const messages: FetchedMessage[] = [];
    let bytes = 0;
    for (const message of page.messages) {
      const fetched = toFetched(message);
      const cost = Buffer.byteLength(JSON.stringify(fetched), "utf8");
      // The byte cap keeps a page of large bodies inside one frame; the first message always goes.
      if (messages.length > 0 && bytes + cost > this.options.maxFetchBytes) break;
      messages.push(fetched);
      bytes += cost;
    }
    const last = messages[messages.length - 1];
    if (last !== undefined) room.markRead(role, last.seq);
    const more = page.hasMore || messages.length < page.messages.length;
    return page.evicted === undefined
      ? { room: request.room, messages, newestSeq: page.newestSeq, more }
      : { room: request.room, messages, evicted: page.evicted, newestSeq: page.newestSeq, more };
  }

  rooms(_connection: BrokerConnection, role: string): ResultFor<"rooms"> {
    const rooms = this.registry.list().map((summary) => {
      const room = this.registry.get(summary.name) as Room;
      const joined = room.isMember(role);
      const listing = { room: summary.name, members: summary.memberCount, newestSeq: summary.messageCount, joined };
      return joined ? { ...listing, unread: room.unreadCount(role) } : listing;
    });
    return { rooms };
  }

  members(_connection: BrokerConnection, _role: string, { room: name }: RequestFor<"members">): ResultFor<"members"> {
    const room = this.registry.get(name);
    if (room === undefined) {
      throw new RefusalError({
        code: "ERR_NO_SUCH_ROOM",
        message: `No room "${name}" on this broker; join it to create it`,
        details: { room: name },
      });
    }
    return { room: name, members: room.members().sort() };
  }

  /** Forgets a closed connection: its roles leave the rooms it alone held them in, and the others hear of it. */
  drop(connection: BrokerConnection): void {
    this.#droppedByClosed += connection.pingsDropped;
    for (const name of connection.rooms) this.#members.get(name)?.delete(connection);
    connection.rooms.clear();
    for (const departure of this.registry.dropConnection(connection.id)) {
      this.#emit(
        departure.room,
        { event: "disconnect", room: departure.room, seq: 0, role: departure.role },
        departure.role
      );
    }
  }

  /** The room `name` when `role` is a member; else the exact not-member refusal (also when the room does not exist). */
  #memberRoom(name: string, role: string): Room {
    const room = this.registry.get(name);
    if (room === undefined || !room.isMember(role)) {
      throw new RefusalError({ code: "ERR_NOT_MEMBER", message: notMemberMessage(name), details: { room: name } });
    }
    return room;
  }

  /** Sends `event` to every connection joined to `room` except those of the role that caused it. */
  #emit(room: string, event: RoundtableEvent, causedBy: string): void {
    const joined = this.#members.get(room);
    if (joined === undefined || joined.size === 0) return;
    let frame: Buffer | undefined;
    for (const connection of joined) {
      if (connection.role === causedBy) continue;
      frame ??= encodeFrame(event, { maxFrameBytes: this.options.maxFrameBytes });
      connection.sendEvent(frame);
    }
  }
}
