import { checkMessageSize, checkPageLimit, checkRoleName, checkSeq } from "./checks.js";
import { MemberLimitError, NotMemberError } from "./errors.js";
import { resolveRoomOptions, type Clock, type RoomLimits, type RoomOptions } from "./options.js";
import { SeqRing, type EvictedRange } from "./ring.js";

/**
 * The bytes a message's text takes in memory at most: two per UTF-16 code unit of the body and the headline (V8
 * holds a string in one or two bytes a unit). Counted from lengths, so a post pays no pass over its text; a body
 * within a limit of N UTF-8 bytes has at most N units, so it is charged at most 2N.
 */
export function heldTextBytes(body: string, headline: string | undefined): number {
  return 2 * (headline === undefined ? body.length : body.length + headline.length);
}

/** Identifies one client connection of the broker; a role may be joined from several. Compared with SameValueZero. */
export type ConnectionId = string | number;

/** A stored message. Frozen: what a reader gets is what the room holds. */
export interface RoomMessage {
  /** Position in the room, from 1; never reused. */
  readonly seq: number;
  /** Role name of the poster. */
  readonly author: string;
  readonly body: string;
  /** Optional one-line summary a digest can show in place of the body; absent when not given. */
  readonly headline?: string;
  /** Epoch milliseconds from the room's clock. */
  readonly postedAt: number;
}

/** One read of a room: messages after a sequence number, and what was evicted before the reader got there. */
export interface RoomPage {
  /** At most `limit` messages, oldest first, all with `seq` above the `afterSeq` asked for. */
  readonly messages: readonly RoomMessage[];
  /** Present when the read started before the retained window: the messages that were evicted unread. */
  readonly evicted?: EvictedRange;
  /** Newest seq in the room (0 before the first post). An `afterSeq` above it yields an empty page, not an error. */
  readonly newestSeq: number;
  /** Oldest retained seq (0 before the first post). */
  readonly oldestSeq: number;
  /** True when retained messages remain after the last one returned: read again after its seq. */
  readonly hasMore: boolean;
}

/** Counts describing a room, for listings. */
export interface RoomSummary {
  readonly name: string;
  /** Distinct member roles. */
  readonly memberCount: number;
  /** Messages ever posted, which is also the newest seq (sequence numbers are contiguous from 1). */
  readonly messageCount: number;
  /** Messages still retained in the ring. */
  readonly retainedCount: number;
}

/**
 * One room: a ring of messages, its member roles, and a read cursor per role name.
 *
 * A role may be joined from several connections and leaves only with its last one. Its cursor belongs to the
 * role name, not a connection, never moves backwards, and survives leaving, so a role that returns resumes where
 * it stopped. A role new to the room starts just before the oldest retained message: it can read the retained
 * history, and messages evicted before it arrived are not reported as its loss.
 */
export class Room {
  /** The room's name, as the registry validated it. */
  readonly name: string;
  /** The limits this room enforces, defaults applied. */
  readonly limits: RoomLimits;
  readonly #clock: Clock;
  readonly #ring: SeqRing<RoomMessage>;
  /** Member role → the connections it is joined from (never empty). */
  readonly #members = new Map<string, Set<ConnectionId>>();
  /** Role → last seq it has read, for members and for retained departed roles. */
  readonly #cursors = new Map<string, number>();
  /** Departed roles whose cursor is retained, in departure order (oldest first, so it is dropped first). */
  readonly #departed = new Set<string>();
  /** The member roles as one frozen list, shared until a role joins or leaves (see memberList). */
  #memberList: readonly string[] | undefined;

  constructor(name: string, options?: RoomOptions) {
    const { clock, ...limits } = resolveRoomOptions(options);
    this.name = name;
    this.limits = Object.freeze(limits);
    this.#clock = clock;
    this.#ring = new SeqRing<RoomMessage>(limits.capacity);
  }

  /** Messages the room retains before evicting the oldest. */
  get capacity(): number {
    return this.#ring.capacity;
  }

  /** Seq of the newest message; 0 before the first post. */
  get newestSeq(): number {
    return this.#ring.newestSeq;
  }

  /** Seq of the oldest retained message; 0 before the first post. */
  get oldestSeq(): number {
    return this.#ring.oldestSeq;
  }

  /** Messages retained: at most the capacity. */
  get retainedCount(): number {
    return this.#ring.size;
  }

  /**
   * Bytes the retained messages' text takes in memory at most: two per UTF-16 code unit of each body and headline
   * (what a store's budget across rooms counts).
   */
  get heldBytes(): number {
    return this.#ring.weight;
  }

  /** Distinct member roles. */
  get memberCount(): number {
    return this.#members.size;
  }

  /**
   * Joins `role` from `connectionId`. Returns true when the role just became a member, false when it already was
   * (from this or another connection). Throws RoleNameInvalidError, or MemberLimitError for a new role in a full room.
   */
  join(role: string, connectionId: ConnectionId): boolean {
    const { maxRoleNameBytes, maxMembers } = this.limits;
    checkRoleName(role, maxRoleNameBytes);
    const joined = this.#members.get(role);
    if (joined !== undefined) {
      joined.add(connectionId);
      return false;
    }
    if (this.#members.size >= maxMembers) throw new MemberLimitError(this.name, role, maxMembers);
    this.#members.set(role, new Set([connectionId]));
    this.#memberList = undefined;
    if (!this.#departed.delete(role)) this.#cursors.set(role, this.#ring.newestSeq - this.#ring.size);
    return true;
  }

  /**
   * Ends `role`'s membership through `connectionId`. Returns true when that was its last connection and the role
   * left the room; false when it stays joined elsewhere or was not joined from that connection. Its cursor is kept.
   */
  leave(role: string, connectionId: ConnectionId): boolean {
    const joined = this.#members.get(role);
    if (joined === undefined || !joined.delete(connectionId) || joined.size > 0) return false;
    this.#members.delete(role);
    this.#memberList = undefined;
    this.#retireCursor(role);
    return true;
  }

  /**
   * Leaves every role `connectionId` joined; returns the roles that thereby left the room for good, in the order
   * they joined it (which is also the order their cursors count as departed). A scan of at most maxMembers roles.
   */
  dropConnection(connectionId: ConnectionId): string[] {
    const left: string[] = [];
    for (const [role, joined] of [...this.#members]) {
      if (joined.has(connectionId) && this.leave(role, connectionId)) left.push(role);
    }
    return left;
  }

  /** Whether `role` is currently a member. */
  isMember(role: string): boolean {
    return this.#members.has(role);
  }

  /** Member roles, in the order they joined. */
  members(): string[] {
    return [...this.#members.keys()];
  }

  /**
   * Member roles, in the order they joined, as a frozen list that is the same object until a role joins or leaves:
   * a post hands its recipients on without copying them, and a reader can tell an unchanged list by identity.
   */
  memberList(): readonly string[] {
    this.#memberList ??= Object.freeze([...this.#members.keys()]);
    return this.#memberList;
  }

  /**
   * Stores a message from member `author` under the next seq and returns it. Sizes are UTF-8 bytes. An author who
   * had read everything before it has its own message counted as read; one with unread messages keeps its cursor.
   * Throws NotMemberError, BodyTooLargeError or HeadlineTooLargeError, storing nothing.
   */
  post(author: string, body: string, headline?: string): RoomMessage {
    const cursor = this.#memberCursor(author);
    checkMessageSize(this.name, body, headline, this.limits);
    const seq = this.#ring.nextSeq;
    const postedAt = this.#clock();
    const message: RoomMessage = Object.freeze(
      headline === undefined ? { seq, author, body, postedAt } : { seq, author, body, headline, postedAt },
    );
    this.#ring.append(message, heldTextBytes(body, headline));
    if (cursor === seq - 1) this.#cursors.set(author, seq);
    return message;
  }

  /**
   * Evicts the oldest retained message before the ring needs its slot (a store keeping its rooms under one byte
   * budget calls it) and returns the bytes it held, or 0 when none is retained. Cursors stay where they are: a read
   * from before it reports it evicted, as if the ring had wrapped.
   */
  evictOldest(): number {
    return this.#ring.evictOldest()?.weight ?? 0;
  }

  /**
   * Up to `limit` messages with seq above `afterSeq`, oldest first. When `afterSeq` is older than the retained
   * window the page says how many were evicted and their range. Throws SeqInvalidError or PageLimitInvalidError.
   */
  page(afterSeq: number, limit: number = this.capacity): RoomPage {
    checkSeq("page", afterSeq);
    checkPageLimit(limit);
    const slice = this.#ring.after(afterSeq, limit);
    const { newestSeq, oldestSeq, hasMore } = slice;
    return slice.evicted === undefined
      ? { messages: slice.items, newestSeq, oldestSeq, hasMore }
      : { messages: slice.items, evicted: slice.evicted, newestSeq, oldestSeq, hasMore };
  }

  /** The page after member `role`'s cursor (default: everything retained). Does not move the cursor. */
  unread(role: string, limit: number = this.capacity): RoomPage {
    return this.page(this.#memberCursor(role), limit);
  }

  /** How many messages member `role` has not read, counting those evicted before it could. */
  unreadCount(role: string): number {
    return this.#ring.newestSeq - this.#memberCursor(role);
  }

  /**
   * Marks everything up to `seq` read for member `role` and returns its cursor. The cursor never moves backwards
   * and never past the newest seq (a larger `seq` is clamped). Throws SeqInvalidError or NotMemberError.
   */
  markRead(role: string, seq: number): number {
    checkSeq("markRead", seq);
    const cursor = this.#memberCursor(role);
    const next = Math.min(seq, this.#ring.newestSeq);
    if (next <= cursor) return cursor;
    this.#cursors.set(role, next);
    return next;
  }

  /** Last seq `role` has read, for a member or a departed role whose cursor is retained; else undefined. */
  cursor(role: string): number | undefined {
    return this.#cursors.get(role);
  }

  /** Counts for listings. */
  summary(): RoomSummary {
    return {
      name: this.name,
      memberCount: this.#members.size,
      messageCount: this.#ring.newestSeq,
      retainedCount: this.#ring.size,
    };
  }

  #memberCursor(role: string): number {
    const cursor = this.#members.has(role) ? this.#cursors.get(role) : undefined;
    if (cursor === undefined) throw new NotMemberError(this.name, role);
    return cursor;
  }

  #retireCursor(role: string): void {
    this.#departed.add(role);
    if (this.#departed.size <= this.limits.maxRetainedCursors) return;
    const oldest = this.#departed.values().next().value as string;
    this.#departed.delete(oldest);
    this.#cursors.delete(oldest);
  }
}
