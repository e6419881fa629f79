import { randomBytes } from "node:crypto";
import { checkPageLimit, checkPostKey, checkRoleName, checkSeq } from "./checks.js";
import { NotMemberError, PostKeyReusedError, StoreClosedError } from "./errors.js";
import { DEFAULT_MAX_HELD_BYTES } from "./limits.js";
import { integerOption, type Clock } from "./options.js";
import { RoomRegistry } from "./registry.js";
import { heldTextBytes, type Room } from "./room.js";
import { resolveRoomStoreOptions, type RoomStoreOptions } from "./store-options.js";
import type {
  RoomActivity,
  RoomStore,
  RoomStoreEvent,
  RoomStoreLimits,
  StoreDeparture,
  StoreHeldText,
  StoreJoin,
  StorePeek,
  StorePeekOptions,
  StoreRoomView,
  StoreLeave,
  StorePost,
  StorePostOptions,
  StoreRead,
  StoreReadOptions,
  StoreRoomListing,
} from "./store.js";
import { peekEvicted } from "./store.js";

/** Options of a memory store. */
export interface MemoryRoomStoreOptions extends RoomStoreOptions {
  /** This broker's identity; default a random one. */
  readonly brokerId?: string;
  /**
   * Budget of message text all rooms hold together, in bytes counted two per UTF-16 code unit of bodies and
   * headlines; default {@link DEFAULT_MAX_HELD_BYTES}. A post that takes the total past it evicts the oldest messages
   * of the largest rooms (never the post itself) until it fits. At least twice the largest message's limits
   * (`maxBodyBytes` plus `maxHeadlineBytes`), so the largest post always fits.
   */
  readonly maxHeldBytes?: number;
}

/** A remembered post of an idempotency key: enough to answer a repeat, and to tell a repeat from a reuse. */
interface KeyedPost {
  readonly author: string;
  readonly seq: number;
  readonly postedAt: number;
}

/** What the stores of one memory space share: the rooms, who holds which role, the post keys, the text budget. */
class MemorySpace {
  readonly registry: RoomRegistry;
  /** Every room, in the order made: what the budget scans for the largest. */
  readonly rooms: Room[] = [];
  readonly maxHeldBytes: number;
  heldBytes = 0;
  evictedMessages = 0;
  /** Role → the brokers it has an open connection on. */
  readonly presence = new Map<string, Set<string>>();
  /** Room → post key → the post it named, oldest first. */
  readonly postKeys = new Map<string, Map<string, KeyedPost>>();
  readonly stores = new Set<MemoryRoomStore>();

  constructor(
    readonly limits: RoomStoreLimits,
    clock: Clock,
    maxHeldBytes: number | undefined,
  ) {
    // Each role holds one seat per room, its own name: membership belongs to the role, not to a connection.
    this.registry = new RoomRegistry({ ...limits, clock });
    // The largest message must fit once everything else is evicted; a body of N UTF-8 bytes has at most N units.
    const least = 2 * (limits.maxBodyBytes + limits.maxHeadlineBytes);
    this.maxHeldBytes = integerOption("maxHeldBytes", maxHeldBytes, Math.max(DEFAULT_MAX_HELD_BYTES, least), least);
  }

  /**
   * Counts what a post to `room` changed (its ring may have dropped its oldest to make room), then, past the budget,
   * evicts the oldest message of the room holding the most bytes until the total fits, the post itself (`kept`
   * bytes, the newest of `room`) excepted. Ties go to the room whose name sorts first. A scan of the rooms per
   * eviction, and nothing more on a post that fits.
   */
  charge(room: Room, before: number, kept: number): void {
    this.heldBytes += room.heldBytes - before;
    while (this.heldBytes > this.maxHeldBytes) {
      let largest: Room | undefined;
      let most = 0;
      for (const candidate of this.rooms) {
        const bytes = candidate === room ? candidate.heldBytes - kept : candidate.heldBytes;
        if (bytes > most || (bytes === most && bytes > 0 && candidate.name < (largest as Room).name)) {
          largest = candidate;
          most = bytes;
        }
      }
      // Unreachable while the budget holds the largest message: whatever is over it is another message's.
      if (largest === undefined) return;
      this.heldBytes -= largest.evictOldest();
      this.evictedMessages++;
    }
  }

  /**
   * Hands the activity to the subscribers of every store but `origin` that holds one of its recipients (the others
   * have nobody to tell), after the current call has returned.
   */
  deliver(
    origin: MemoryRoomStore,
    kind: RoomActivity["kind"],
    room: string,
    seq: number,
    role: string,
    recipients: readonly string[],
  ): void {
    // A lone store (one broker: the usual case) has nobody to tell, and makes no event.
    if (this.stores.size < 2) return;
    const event: RoomActivity = { type: "activity", kind, room, seq, role, recipients };
    for (const store of this.stores) {
      if (store !== origin && recipients.some((role) => store.holds(role))) store.hear(event);
    }
  }
}

/** The space the next store joins instead of making its own: set by `peer()` just before it constructs one. */
let joiningSpace: MemorySpace | undefined;

/**
 * The default room store: rooms in this process's memory, answering synchronously, gone when the process ends.
 * `peer()` opens another broker's store on the same rooms (for tests and embedders running several brokers in one
 * process); each peer hears the others' activity.
 */
export class MemoryRoomStore implements RoomStore {
  readonly kind: string = "memory";
  readonly description: string = "memory";
  readonly brokerId: string;
  readonly limits: RoomStoreLimits;
  readonly #space: MemorySpace;
  /** Roles attached through this store. */
  readonly #attached = new Set<string>();
  readonly #listeners = new Set<(event: RoomStoreEvent) => void>();
  #closed = false;

  constructor(options?: MemoryRoomStoreOptions) {
    let space = joiningSpace;
    joiningSpace = undefined;
    if (space === undefined) {
      const { limits, clock } = resolveRoomStoreOptions(options);
      space = new MemorySpace(limits, clock, options?.maxHeldBytes);
    }
    this.#space = space;
    this.limits = space.limits;
    this.brokerId = options?.brokerId ?? randomBytes(8).toString("hex");
    space.stores.add(this);
  }

  /** Another broker's store on the same rooms; `brokerId` defaults to a random one. */
  peer(brokerId?: string): MemoryRoomStore {
    joiningSpace = this.#space;
    return new MemoryRoomStore(brokerId === undefined ? undefined : { brokerId });
  }

  attach(role: string): void {
    this.#open("attach");
    checkRoleName(role, this.limits.maxRoleNameBytes);
    this.#attach(role);
  }

  detach(role: string): readonly StoreDeparture[] {
    this.#open("detach");
    return this.#detach(role);
  }

  join(name: string, role: string): StoreJoin {
    this.#open("join");
    checkRoleName(role, this.limits.maxRoleNameBytes);
    const { registry } = this.#space;
    const created = registry.get(name) === undefined;
    const room = registry.getOrCreate(name);
    if (created) this.#space.rooms.push(room);
    const joined = room.join(role, role);
    this.#attach(role);
    const members = room.members();
    if (joined) this.#space.deliver(this, "join", name, 0, role, members);
    return {
      created,
      joined,
      members: members.sort(),
      newestSeq: room.newestSeq,
      unread: room.unreadCount(role),
      recipients: joined ? members : [],
    };
  }

  leave(name: string, role: string): StoreLeave {
    this.#open("leave");
    const room = this.#space.registry.get(name);
    if (room === undefined || !room.leave(role, role)) return { left: false, recipients: [] };
    const recipients = [...room.members(), role];
    this.#space.deliver(this, "leave", name, 0, role, recipients);
    return { left: true, recipients };
  }

  post(name: string, author: string, body: string, options?: StorePostOptions): StorePost {
    this.#open("post");
    const key = options?.key;
    let keys: Map<string, KeyedPost> | undefined;
    if (key !== undefined) {
      checkRoleName(author, this.limits.maxRoleNameBytes);
      checkPostKey(key);
      // Asked before membership, so a retry after the role lost its membership still learns that its first attempt
      // was stored.
      keys = this.#space.postKeys.get(name);
      const earlier = keys?.get(key);
      if (earlier !== undefined) return this.#replay(name, key, earlier, author, body, options?.headline);
    }
    const room = this.#memberRoom(name, author);
    const before = room.heldBytes;
    const { seq, postedAt } = room.post(author, body, options?.headline);
    this.#space.charge(room, before, heldTextBytes(body, options?.headline));
    if (key !== undefined) this.#remember(name, keys, key, { author, seq, postedAt });
    const recipients = room.memberList();
    this.#space.deliver(this, "post", name, seq, author, recipients);
    return { seq, postedAt, replayed: false, recipients };
  }

  read(name: string, role: string, options?: StoreReadOptions): StoreRead {
    this.#open("read");
    const room = this.#memberRoom(name, role);
    const cursor = room.cursor(role) as number;
    const { messages, evicted, newestSeq, oldestSeq, hasMore } = room.page(
      options?.afterSeq ?? cursor,
      options?.limit ?? room.capacity,
    );
    // Built field by field: an object spread here cost more than the read itself (rooms.memory-store-overhead).
    return evicted === undefined
      ? { messages, newestSeq, oldestSeq, hasMore, cursor }
      : { messages, evicted, newestSeq, oldestSeq, hasMore, cursor };
  }

  markRead(name: string, role: string, seq: number): number {
    this.#open("markRead");
    return this.#memberRoom(name, role).markRead(role, seq);
  }

  list(role: string): readonly StoreRoomListing[] {
    this.#open("list");
    const { registry } = this.#space;
    return registry.list().map((summary) => {
      const room = registry.get(summary.name) as Room;
      return room.isMember(role)
        ? { ...summary, joined: true, unread: room.unreadCount(role) }
        : { ...summary, joined: false };
    });
  }

  members(name: string): readonly string[] | undefined {
    this.#open("members");
    return this.#space.registry.get(name)?.members().sort();
  }

  view(name?: string): readonly StoreRoomView[] {
    this.#open("view");
    const { registry } = this.#space;
    const names = name === undefined ? registry.list().map((summary) => summary.name) : [name];
    const views: StoreRoomView[] = [];
    for (const roomName of names) {
      const room = registry.get(roomName);
      if (room === undefined) continue;
      // What the room holds from its own counts, never a copy of its messages: a watched broker views a busy room
      // many times a second. Its held bytes are two per character of each body and headline (heldTextBytes).
      const { messageCount: newestSeq, retainedCount } = room.summary();
      const retainedChars = room.heldBytes / 2;
      const members = room
        .members()
        .sort()
        .map((role) => ({ role, unread: room.unreadCount(role) }));
      views.push({ name: roomName, newestSeq, retained: retainedCount, retainedChars, members });
    }
    return views;
  }

  peek(name: string, options: StorePeekOptions): StorePeek | undefined {
    this.#open("peek");
    const { afterSeq, beforeSeq, limit } = options;
    checkPageLimit(limit);
    if (afterSeq !== undefined) checkSeq("peek", afterSeq);
    if (beforeSeq !== undefined) checkSeq("peek", beforeSeq);
    const room = this.#space.registry.get(name);
    if (room === undefined) return undefined;
    const { messageCount: newestSeq, retainedCount } = room.summary();
    const oldestSeq = newestSeq - retainedCount + 1;
    const below = Math.min(newestSeq, (beforeSeq ?? Number.MAX_SAFE_INTEGER) - 1);
    const first = afterSeq === undefined ? Math.max(oldestSeq, below - limit + 1) : Math.max(afterSeq + 1, oldestSeq);
    const last = Math.min(below, first + limit - 1);
    const messages = last < first ? [] : room.page(first - 1, last - first + 1).messages;
    const evicted = afterSeq === undefined ? undefined : peekEvicted(afterSeq, newestSeq, retainedCount);
    return evicted === undefined ? { messages, newestSeq, oldestSeq } : { messages, newestSeq, oldestSeq, evicted };
  }

  /** The text all rooms of this store's memory space hold against its budget (shared with its peers). */
  heldText(): StoreHeldText {
    const { heldBytes, maxHeldBytes, evictedMessages } = this.#space;
    return { heldBytes, maxHeldBytes, evictedMessages };
  }

  subscribe(listener: (event: RoomStoreEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Detaches every role still attached here (the others hear them disconnect) and leaves the space. */
  close(): Promise<void> {
    if (!this.#closed) {
      for (const role of [...this.#attached]) this.#detach(role);
      this.#closed = true;
      this.#space.stores.delete(this);
      this.#listeners.clear();
    }
    return Promise.resolve();
  }

  /** Whether `role` has an open connection on this broker (is attached here). */
  holds(role: string): boolean {
    return this.#attached.has(role);
  }

  /** Queues `event` for this store's subscribers (called by the space for activity of another store). */
  hear(event: RoomStoreEvent): void {
    if (this.#listeners.size === 0) return;
    queueMicrotask(() => {
      for (const listener of this.#listeners) listener(event);
    });
  }

  #attach(role: string): void {
    if (this.#attached.has(role)) return;
    this.#attached.add(role);
    const { presence } = this.#space;
    let brokers = presence.get(role);
    if (brokers === undefined) presence.set(role, (brokers = new Set()));
    brokers.add(this.brokerId);
  }

  #detach(role: string): StoreDeparture[] {
    if (!this.#attached.delete(role)) return [];
    const { presence, registry } = this.#space;
    const brokers = presence.get(role);
    brokers?.delete(this.brokerId);
    if (brokers !== undefined && brokers.size > 0) return [];
    presence.delete(role);
    const departures = registry
      .dropConnection(role)
      .map(({ room }) => ({ room, role, recipients: (registry.get(room) as Room).members() }))
      .sort((a, b) => (a.room < b.room ? -1 : 1));
    for (const { room, recipients } of departures) {
      this.#space.deliver(this, "disconnect", room, 0, role, recipients);
    }
    return departures;
  }

  /**
   * The answer to a key the room holds: the earlier post when it is the same author's and (while that message is
   * retained) the same text; else PostKeyReusedError, since answering with someone else's seq would be a lie.
   */
  #replay(name: string, key: string, earlier: KeyedPost, author: string, body: string, headline?: string): StorePost {
    const [retained] = (this.#space.registry.get(name) as Room).page(earlier.seq - 1, 1).messages;
    const same =
      earlier.author === author &&
      (retained?.seq !== earlier.seq || (retained.body === body && retained.headline === headline));
    if (!same) throw new PostKeyReusedError(name, key, earlier.seq);
    return { seq: earlier.seq, postedAt: earlier.postedAt, replayed: true, recipients: [] };
  }

  #remember(room: string, keys: Map<string, KeyedPost> | undefined, key: string, post: KeyedPost): void {
    const { maxPostKeys } = this.limits;
    if (maxPostKeys === 0) return;
    if (keys === undefined) this.#space.postKeys.set(room, (keys = new Map()));
    keys.set(key, post);
    if (keys.size > maxPostKeys) keys.delete(keys.keys().next().value as string);
  }

  /** The room when `role` is a member of it; else NotMemberError (also when there is no such room). */
  #memberRoom(name: string, role: string): Room {
    const room = this.#space.registry.get(name);
    if (room === undefined || !room.isMember(role)) throw new NotMemberError(name, role);
    return room;
  }

  #open(operation: string): void {
    if (this.#closed) throw new StoreClosedError(this.description, operation);
  }
}
