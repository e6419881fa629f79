import { renderDigest } from "@orphus/digest";
import {
  andThen,
  isPromiseLike,
  type Awaitable,
  type RoomActivity,
  type RoomStore,
  type RoomStoreEvent,
} from "@orphus/rooms";
import {
  DEFAULT_DIGEST_BUDGET,
  DEFAULT_FETCH_LIMIT,
  DEFAULT_PEEK_LIMIT,
  STORE_WIRE_VERSION,
  fetchMessageChars,
  type RequestFor,
  type ResultFor,
  type RoundtableEvent,
} from "@orphus/roundtable-protocol";
import type { BrokerConnection } from "./connection.js";
import { RefusalError } from "./errors.js";
import { EventNotice } from "./event-notice.js";
import { cutFetchPage, fetchCharCap } from "./fetch-page.js";
import type { BrokerLogger } from "./log.js";
import { storeDescription } from "./store-refusal.js";
import { WatchHub, type WatchHubOptions } from "./watch.js";

/** What the room service needs besides its store. */
export interface RoomServiceOptions extends WatchHubOptions {
  readonly maxFetchBytes: number;
  readonly maxFrameBytes: number;
  readonly logger: BrokerLogger;
}

/**
 * The rooms of one broker, held by its {@link RoomStore}, and the open connections of each role: runs every room op
 * for a connection that said hello, and pushes events to the members' connections. One code path for every store:
 * each op chains the store's answer with `andThen`, so the memory store (synchronous) pays no promise, and the
 * Redis store's answers arrive when they do. Failures are the store's errors, turned into wire refusals by the
 * broker (`store-refusal.ts`).
 *
 * Membership belongs to the role (docs/protocol.md, "Membership"): the store holds it, the service attaches a role
 * on its first connection here and detaches it when the last one closes. Events go to every local connection of
 * every recipient role the store names, except the connection whose request caused them; the store's `activity`
 * (what other brokers on a shared store did) goes to the local connections of its recipients.
 */
export class RoomService {
  /** Open connections that said hello, by role; a role is present while it has at least one. */
  readonly #connections = new Map<string, Set<BrokerConnection>>();
  /**
   * The last frozen recipient list events went to, and the connections of its roles then: a room's posts name the
   * same frozen list until its membership changes (the memory store's), so a run of them looks the roles up once.
   * Forgotten whenever a connection is counted or forgotten.
   */
  #lastRecipients: readonly string[] | undefined;
  #lastAudience: readonly BrokerConnection[] = [];
  /** Rooms this broker has served; a shared store may hold more. */
  readonly #rooms = new Set<string>();
  readonly #unsubscribe: () => void;
  /**
   * Connections that said hello before the store's last reset and have not been refused for it since: their next
   * request that names a room is refused with the reset (the event alone reaches neither a version-1 client nor one
   * that is not reading), so no reply of theirs looks normal after their memberships were lost.
   */
  readonly #owingReset = new Set<BrokerConnection>();
  /** Pings dropped by connections that have since closed, so the total survives them. */
  #droppedByClosed = 0;
  #storeAvailable = true;
  /** The watchers and the served counts (docs/protocol.md, "Watching"). */
  readonly watch: WatchHub;

  constructor(
    readonly store: RoomStore,
    private readonly options: RoomServiceOptions,
  ) {
    this.watch = new WatchHub(store, options);
    this.#unsubscribe = store.subscribe((event) => this.#heard(event));
  }

  /** Rooms this broker has served (joined or listed through it). */
  get roomCount(): number {
    return this.#rooms.size;
  }

  /** False between the store's `unavailable` and `available` events. */
  get storeAvailable(): boolean {
    return this.#storeAvailable;
  }

  /** Pings dropped for slow readers since start. */
  pingsDropped(open: Iterable<BrokerConnection>): number {
    let total = this.#droppedByClosed;
    for (const connection of open) total += connection.pingsDropped;
    return total;
  }

  /** Whether `connection` has not yet been refused for the store's last reset (see {@link resetTold}). */
  owesReset(connection: BrokerConnection): boolean {
    return this.#owingReset.has(connection);
  }

  /** `connection` was sent a refusal for the reset: it has been told. */
  resetTold(connection: BrokerConnection): void {
    this.#owingReset.delete(connection);
  }

  /**
   * Counts a connection that said hello as `role` among the role's connections: it now speaks for the role. The
   * role's first connection attaches it to the store; that is not waited for (hello answers at once, even while the
   * store is away), and a failure is only logged, since the store's heartbeat names every role this broker holds.
   */
  attach(connection: BrokerConnection, role: string): void {
    let connections = this.#connections.get(role);
    if (connections === undefined) this.#connections.set(role, (connections = new Set()));
    connections.add(connection);
    this.#lastRecipients = undefined;
    if (connections.size > 1) return;
    this.#background("attach", role, () => this.store.attach(role));
  }

  join(connection: BrokerConnection, role: string, { room }: RequestFor<"join">): Awaitable<ResultFor<"join">> {
    return andThen(this.store.join(room, role), (joined) => {
      this.#rooms.add(room);
      if (joined.joined) this.#emit(joined.recipients, { event: "join", room, seq: 0, role }, connection);
      if (this.watch.active) this.watch.roomChanged(room);
      const { created, members, newestSeq, unread } = joined;
      return { room, created, members: [...members], newestSeq, unread };
    });
  }

  leave(connection: BrokerConnection, role: string, { room }: RequestFor<"leave">): Awaitable<ResultFor<"leave">> {
    return andThen(this.store.leave(room, role), ({ left, recipients }) => {
      // The role's other connections are among the recipients: this leave event is the last they hear of the room.
      if (left) this.#emit(recipients, { event: "leave", room, seq: 0, role }, connection);
      if (left && this.watch.active) this.watch.roomChanged(room);
      return { room, left };
    });
  }

  /**
   * Stores a post. A repeated idempotency key is answered by the store before it checks membership (a retry over a
   * new connection finds its post although the role's membership may have ended with the old one), with no event.
   */
  post(connection: BrokerConnection, role: string, request: RequestFor<"post">): Awaitable<ResultFor<"post">> {
    const { room } = request;
    const posted = this.store.post(room, role, request.body, {
      headline: request.headline,
      key: request.idempotencyKey,
    });
    return andThen(posted, ({ seq, postedAt, replayed, recipients }) => {
      if (replayed) return { room, seq, postedAt, repeated: true };
      this.#emit(recipients, { event: "post", room, seq, author: role }, connection);
      if (this.watch.active) this.watch.roomChanged(room);
      return { room, seq, postedAt };
    });
  }

  digest(_connection: BrokerConnection, role: string, request: RequestFor<"digest">): Awaitable<ResultFor<"digest">> {
    const { room } = request;
    return andThen(this.store.read(room, role), (page) => {
      const digest = renderDigest({
        items: page.messages.map((m) =>
          m.headline === undefined
            ? { seq: m.seq, author: m.author, body: m.body }
            : { seq: m.seq, author: m.author, body: m.body, headline: m.headline },
        ),
        budget: request.budget ?? DEFAULT_DIGEST_BUDGET,
        evicted: page.evicted ?? null,
        recovery: "fetch",
      });
      const result = (throughSeq: number): ResultFor<"digest"> => ({
        room,
        text: digest.text,
        full: digest.full.length,
        excerpted: digest.excerpts.length,
        headlined: digest.headlines.length,
        collapsed: digest.collapsed.length,
        evicted: digest.evicted?.count ?? 0,
        throughSeq,
        fetchAfterSeq: digest.afterSeq,
      });
      this.#served(room, role, "digestChars", digest.text.length);
      if (digest.newestSeq === null) return result(page.cursor);
      return andThen(this.store.markRead(room, role, digest.newestSeq), result);
    });
  }

  fetch(_connection: BrokerConnection, role: string, request: RequestFor<"fetch">): Awaitable<ResultFor<"fetch">> {
    const { room } = request;
    const maxChars = fetchCharCap(request.maxChars, this.options.maxFetchBytes);
    const read = this.store.read(room, role, {
      afterSeq: request.afterSeq,
      limit: request.limit ?? DEFAULT_FETCH_LIMIT,
    });
    return andThen(read, (page) => {
      const afterSeq = request.afterSeq ?? page.cursor;
      const messages = cutFetchPage(page.messages, { maxChars, maxBytes: this.options.maxFetchBytes });
      const last = messages[messages.length - 1];
      const more = page.hasMore || messages.length < page.messages.length;
      const nextAfterSeq = last?.seq ?? Math.max(afterSeq, page.evicted?.toSeq ?? 0);
      const result = { room, messages, newestSeq: page.newestSeq, more, nextAfterSeq, maxChars };
      const done = page.evicted === undefined ? result : { ...result, evicted: page.evicted };
      let chars = 0;
      for (const message of messages) chars += fetchMessageChars(message);
      this.#served(room, role, "fetchChars", chars);
      // Answered once the cursor moved, so the connection's next request sees it moved.
      return last === undefined ? done : andThen(this.store.markRead(room, role, last.seq), () => done);
    });
  }

  /**
   * A page of a room's retained messages for a watcher, bounded like a fetch page and cut from the end it reads
   * from; no membership, no cursor moved.
   */
  peek(request: RequestFor<"peek">): Awaitable<ResultFor<"peek">> {
    const { room, afterSeq, beforeSeq } = request;
    const maxChars = fetchCharCap(request.maxChars, this.options.maxFetchBytes);
    const limit = request.limit ?? DEFAULT_PEEK_LIMIT;
    const options = {
      limit,
      ...(afterSeq === undefined ? {} : { afterSeq }),
      ...(beforeSeq === undefined ? {} : { beforeSeq }),
    };
    return andThen(this.store.peek(room, options), (page) => {
      if (page === undefined) throw noSuchRoom(room);
      const caps = { maxChars, maxBytes: this.options.maxFetchBytes };
      const forward = afterSeq !== undefined;
      const messages = forward
        ? cutFetchPage(page.messages, caps)
        : cutFetchPage([...page.messages].reverse(), caps).reverse();
      const first = messages[0];
      const last = messages[messages.length - 1];
      const end = Math.min(page.newestSeq, (beforeSeq ?? Number.MAX_SAFE_INTEGER) - 1);
      const more = forward
        ? last === undefined
          ? false
          : last.seq < end
        : first !== undefined && first.seq > page.oldestSeq;
      const result = { room, messages, newestSeq: page.newestSeq, more };
      return page.evicted === undefined ? result : { ...result, evicted: page.evicted };
    });
  }

  rooms(connection: BrokerConnection, role: string): Awaitable<ResultFor<"rooms">> {
    return andThen(this.store.list(role), (listings) => ({
      rooms: listings.map((listing) => {
        this.#rooms.add(listing.name);
        const summary = { room: listing.name, members: listing.memberCount, newestSeq: listing.messageCount };
        // A watcher's label is no role: it has joined nothing, whatever name it gave.
        return listing.joined && !connection.watcher
          ? { ...summary, joined: true, unread: listing.unread ?? 0 }
          : { ...summary, joined: false };
      }),
    }));
  }

  members(
    _connection: BrokerConnection,
    _role: string,
    { room }: RequestFor<"members">,
  ): Awaitable<ResultFor<"members">> {
    return andThen(this.store.members(room), (members) => {
      if (members !== undefined) return { room, members: [...members] };
      throw noSuchRoom(room);
    });
  }

  /**
   * Forgets a closed connection; when it was its role's last here, the role is detached from the store, which says
   * which rooms it thereby left for good, and their remaining members hear it disconnect.
   */
  drop(connection: BrokerConnection): void {
    if (connection.watcher) {
      this.watch.drop(connection);
      return;
    }
    this.#droppedByClosed += connection.pingsDropped;
    this.#owingReset.delete(connection);
    const role = connection.role;
    const connections = role === undefined ? undefined : this.#connections.get(role);
    if (role === undefined || connections === undefined || !connections.delete(connection)) return;
    this.#lastRecipients = undefined;
    if (connections.size > 0) return;
    this.#connections.delete(role);
    this.#background("detach", role, () =>
      andThen(this.store.detach(role), (departures) => {
        for (const { room, recipients } of departures) {
          this.#emit(recipients, { event: "disconnect", room, seq: 0, role }, connection);
          if (this.watch.active) this.watch.roomChanged(room);
        }
      }),
    );
  }

  /** Stops listening to the store (the broker closes it). */
  stop(): void {
    this.#unsubscribe();
    this.watch.stop();
  }

  /** Counts characters served to `role` in `room`; watchers hear the new totals at the end of the turn. */
  #served(room: string, role: string, kind: "digestChars" | "fetchChars", chars: number): void {
    const counts = this.watch.served.counts(room, role);
    if (counts === undefined) return;
    counts[kind] += chars;
    // The read moved the role's cursor (its unread count changed) and its served counts: both go out with the room.
    if (this.watch.active) this.watch.roomChanged(room);
  }

  /** Runs a store call nobody waits for: a failure is logged (the store's heartbeat makes membership good). */
  #background(operation: string, role: string, call: () => Awaitable<void>): void {
    const failed = (error: unknown): void => {
      this.options.logger.warn(`store ${operation} failed`, {
        role,
        code: (error as { code?: string }).code,
        error: error instanceof Error ? error.message : String(error),
      });
    };
    try {
      const done = call();
      if (isPromiseLike(done)) done.catch(failed);
    } catch (error) {
      failed(error);
    }
  }

  /** What the store tells its subscribers: other brokers' activity, a reset, availability. */
  #heard(event: RoomStoreEvent): void {
    const { logger } = this.options;
    switch (event.type) {
      case "activity":
        this.#rooms.add(event.room);
        this.#emit(event.recipients, activityEvent(event));
        if (this.watch.active) this.watch.roomChanged(event.room);
        return;
      case "reset":
        logger.error("the room store lost its data: every membership and read position is gone", {
          store: this.store.description,
          epoch: event.epoch,
          rooms: event.rooms.length,
        });
        this.#tellReset();
        this.watch.reset();
        return;
      case "unavailable":
        this.#storeAvailable = false;
        logger.error("the room store is unavailable; requests fail with ERR_STORE_UNAVAILABLE until it answers", {
          store: this.store.description,
          error: event.error.message,
        });
        return;
      case "available":
        this.#storeAvailable = true;
        logger.info("the room store answers again", { store: this.store.description });
        return;
    }
  }

  /**
   * Every connection that said hello hears of the reset, if its protocol version knows the event, and owes its next
   * request that names a room a refusal saying so.
   */
  #tellReset(): void {
    const notice = new EventNotice(
      { event: "reset", seq: 0, store: storeDescription(this.store) },
      this.options.maxFrameBytes,
    );
    for (const connections of this.#connections.values()) {
      for (const connection of connections) {
        this.#owingReset.add(connection);
        if (connection.peerVersion >= STORE_WIRE_VERSION) connection.sendEvent(notice);
      }
    }
  }

  /**
   * Sends `event` to every connection of every role in `recipients`, except `cause`, the connection whose request
   * caused it (none for another broker's activity).
   */
  #emit(recipients: readonly string[], event: RoundtableEvent, cause?: BrokerConnection): void {
    // Encoded only if a connection hears it, and then once; a version-2 connection may merge a post with others of
    // its room queued this turn, whether it was posted here or announced by another broker's activity.
    const notice = new EventNotice(event, this.options.maxFrameBytes);
    if (event.event !== "post") {
      for (const connection of this.#audience(recipients)) {
        if (connection !== cause) connection.sendEvent(notice);
      }
      return;
    }
    // Each post event a connection is sent counts as served to its role: the characters of its own JSON (room and
    // role names are ASCII without escapes, so that is the names' lengths, the seq's digits and the frame's fixed
    // text). Each connection remembers its counts for the room it last heard (ServedLedger.countsFor). Watchers hear
    // of the counts with the room, which the post (or the activity announcing it) marks.
    const { room, seq, author } = event;
    const chars = POST_EVENT_FIXED_CHARS + room.length + author.length + String(seq).length;
    const served = this.watch.served;
    for (const connection of this.#audience(recipients)) {
      if (connection === cause || !connection.sendEvent(notice)) continue;
      const counts = served.countsFor(connection, room);
      if (counts !== undefined) counts.pingChars += chars;
    }
  }

  /** The open connections of the roles in `recipients`, role by role; remembered for a frozen list (#lastRecipients). */
  #audience(recipients: readonly string[]): readonly BrokerConnection[] {
    if (recipients === this.#lastRecipients) return this.#lastAudience;
    const audience: BrokerConnection[] = [];
    for (const role of recipients) {
      const connections = this.#connections.get(role);
      if (connections !== undefined) for (const connection of connections) audience.push(connection);
    }
    // Only a frozen list can be known by identity: an array its owner may still change is read afresh each time.
    if (Object.isFrozen(recipients)) {
      this.#lastRecipients = recipients;
      this.#lastAudience = audience;
    }
    return audience;
  }
}

/** Characters of a post event's JSON besides its room, author and seq: `{"event":"post","room":"","seq":,"author":""}`. */
const POST_EVENT_FIXED_CHARS = 45;

function noSuchRoom(room: string): RefusalError {
  return new RefusalError({
    code: "ERR_NO_SUCH_ROOM",
    message: `No room "${room}" on this broker; join it to create it`,
    details: { room },
  });
}

/** The wire event of another broker's activity: a post names its author and seq, membership churn has seq 0. */
function activityEvent(activity: RoomActivity): RoundtableEvent {
  const { kind, room, seq, role } = activity;
  return kind === "post" ? { event: "post", room, seq, author: role } : { event: kind, room, seq: 0, role };
}
