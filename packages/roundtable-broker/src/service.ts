import { renderDigest } from "@orphus/digest";
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
} from "@orphus/rooms";
import {
  DEFAULT_DIGEST_BUDGET,
  DEFAULT_FETCH_LIMIT,
  ROOM_NAME_PATTERN,
  notMemberMessage,
  type RequestFor,
  type ResultFor,
  type RoundtableEvent,
  type WireError,
} from "@orphus/roundtable-protocol";
import type { BrokerConnection } from "./connection.js";
import { RefusalError } from "./errors.js";
import { EventNotice } from "./event-notice.js";
import { cutFetchPage, fetchCharCap } from "./fetch-page.js";
import { PostKeys } from "./post-keys.js";

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
  /** Keyed posts per room whose idempotency keys are remembered. */
  readonly postKeyWindow: number;
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

/**
 * The rooms of one broker and the open connections of each role: runs every room op for a connection that said
 * hello, and pushes events to the members' connections. Rooms are never removed (their sequence numbers must not
 * restart).
 *
 * Membership belongs to the role (docs/protocol.md, "Membership"): a role is a member of a room from a join by any of
 * its connections until a leave by any of them, or until its last connection closes. So each role is joined to a
 * room under one seat, its own name, whichever connection asks, and `registry.dropConnection(role)` takes it out of
 * every room when its last connection goes. Events go to every connection of every member role except the one whose
 * request caused them.
 */
export class RoomService {
  readonly registry: RoomRegistry;
  /** Open connections that said hello, by role; a role is present while it has at least one. */
  readonly #connections = new Map<string, Set<BrokerConnection>>();
  readonly #postKeys: PostKeys;
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
      // The protocol's pattern, so the broker and every caller that checks a room name first agree.
      roomNamePattern: ROOM_NAME_PATTERN,
    });
    this.#postKeys = new PostKeys(options.postKeyWindow);
  }

  /** Pings dropped for slow readers since start. */
  pingsDropped(open: Iterable<BrokerConnection>): number {
    let total = this.#droppedByClosed;
    for (const connection of open) total += connection.pingsDropped;
    return total;
  }

  /** Counts a connection that said hello as `role` among the role's connections: it now speaks for the role. */
  attach(connection: BrokerConnection, role: string): void {
    let connections = this.#connections.get(role);
    if (connections === undefined) this.#connections.set(role, (connections = new Set()));
    connections.add(connection);
  }

  join(connection: BrokerConnection, role: string, { room: name }: RequestFor<"join">): ResultFor<"join"> {
    const created = this.registry.get(name) === undefined;
    const room = refusing(name, () => this.registry.getOrCreate(name));
    const becameMember = refusing(name, () => room.join(role, role));
    if (becameMember) this.#emit(room, { event: "join", room: name, seq: 0, role }, connection);
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
    if (room === undefined || !room.leave(role, role)) return { room: name, left: false };
    // The role's other connections are out too: this leave event is the last they hear from the room.
    this.#emit(room, { event: "leave", room: name, seq: 0, role }, connection, role);
    return { room: name, left: true };
  }

  post(connection: BrokerConnection, role: string, request: RequestFor<"post">): ResultFor<"post"> {
    // A repeat is answered before the membership check: a retry over a new connection finds its post even though
    // the role's membership may have ended with the connection it was sent on.
    const repeat = this.#postKeys.repeatOf(this.registry.get(request.room), role, request);
    if (repeat !== undefined) return repeat;
    const room = this.#memberRoom(request.room, role);
    const message = refusing(request.room, () => room.post(role, request.body, request.headline));
    this.#postKeys.remember(request.room, request.idempotencyKey, message);
    this.#emit(room, { event: "post", room: request.room, seq: message.seq, author: role }, connection);
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
    const maxChars = fetchCharCap(request.maxChars, this.options.maxFetchBytes);
    const afterSeq = request.afterSeq ?? room.cursor(role) ?? 0;
    const page = room.page(afterSeq, request.limit ?? DEFAULT_FETCH_LIMIT);
    const messages = cutFetchPage(page.messages, { maxChars, maxBytes: this.options.maxFetchBytes });
    const last = messages[messages.length - 1];
    if (last !== undefined) room.markRead(role, last.seq);
    const more = page.hasMore || messages.length < page.messages.length;
    const nextAfterSeq = last?.seq ?? Math.max(afterSeq, page.evicted?.toSeq ?? 0);
    const result = { room: request.room, messages, newestSeq: page.newestSeq, more, nextAfterSeq, maxChars };
    return page.evicted === undefined ? result : { ...result, evicted: page.evicted };
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

  /** Forgets a closed connection; when it was its role's last, the role leaves every room and the others hear of it. */
  drop(connection: BrokerConnection): void {
    this.#droppedByClosed += connection.pingsDropped;
    const role = connection.role;
    const connections = role === undefined ? undefined : this.#connections.get(role);
    if (role === undefined || connections === undefined || !connections.delete(connection)) return;
    if (connections.size > 0) return;
    this.#connections.delete(role);
    for (const departure of this.registry.dropConnection(role)) {
      const room = this.registry.get(departure.room) as Room;
      this.#emit(room, { event: "disconnect", room: departure.room, seq: 0, role }, connection);
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

  /**
   * Sends `event` to every connection of every member role of `room`, and of `departed` (a role that just left),
   * except `cause`, the connection whose request caused it.
   */
  #emit(room: Room, event: RoundtableEvent, cause: BrokerConnection, departed?: string): void {
    // Encoded once, and only if a connection hears it; each connection may merge a post with others of its room.
    const notice = new EventNotice(event, this.options.maxFrameBytes);
    const send = (role: string): void => {
      for (const connection of this.#connections.get(role) ?? []) {
        if (connection !== cause) connection.sendEvent(notice);
      }
    };
    for (const role of room.members()) send(role);
    if (departed !== undefined) send(departed);
  }
}
