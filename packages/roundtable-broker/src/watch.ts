import { sanitizeText } from "@orphus/digest";
import { frameText, type FrameText } from "@orphus/framing";
import type { Timers } from "@orphus/internal";
import {
  andThen,
  isPromiseLike,
  type Awaitable,
  type RoomMessage,
  type RoomStore,
  type StoreRoomView,
} from "@orphus/rooms";
import {
  MAX_WATCH_HEADLINE_CHARS,
  MAX_WATCH_RECENT,
  fetchMessageChars,
  type ResultFor,
  type ServedCounts,
  type WatchEvent,
  type WatchedPost,
  type WatchedRoom,
} from "@orphus/roundtable-protocol";
import type { BrokerConnection } from "./connection.js";
import type { BrokerLogger } from "./log.js";

/**
 * Watch events held for one watcher while it is behind: past this many the held ones are dropped and the watcher
 * gets a gap event. Members, served and room events replace their own earlier ones, so only posts pile up.
 */
export const MAX_HELD_WATCH_EVENTS = 256;

/** Rooms and roles per room whose served counts a broker keeps; past them new ones are not counted. */
export const MAX_SERVED_ROOMS = 1024;
export const MAX_SERVED_ROLES_PER_ROOM = 256;

/** Pause between a watched broker's reads of the whole store (what other brokers did, cursors they moved). */
export const WATCH_POLL_MS = 1000;

/**
 * Shortest pause between two rounds of watch events: a change made after a quiet spell goes out at the end of its
 * turn, and changes following within this pause wait for its end and go out together (one read of each changed
 * room, one members, room and served event each). So a busy broker does a bounded amount of watch work per pause,
 * however fast rooms are posted to, instead of a read and a round of events every turn. Twenty rounds a second
 * look live to a person watching, and a room shows every post up to 1,000 a second (50 a round).
 */
export const WATCH_TICK_MS = 50;

/** Pause before a watcher that could not take its events is tried again. */
const WATCH_RETRY_MS = 100;

/** Characters of a body read for its first line: enough for a headline, never the whole of a long body. */
const HEADLINE_SOURCE_CHARS = 4 * MAX_WATCH_HEADLINE_CHARS;

/** The headline a watcher is sent: the post's headline, else its body's first line, sanitised and bounded. */
export function watchHeadline(message: Pick<RoomMessage, "body" | "headline">): string {
  const source = message.headline ?? message.body;
  const text = sanitizeText(source.slice(0, HEADLINE_SOURCE_CHARS));
  const line = (text.split("\n").find((l) => l.trim() !== "") ?? "").trim();
  if (line.length <= MAX_WATCH_HEADLINE_CHARS) return line;
  let cut = line.slice(0, MAX_WATCH_HEADLINE_CHARS - 1);
  // Never end on half of a surrogate pair.
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** A stored message as a watcher sees it. */
export function watchedPost(message: RoomMessage): WatchedPost {
  return {
    seq: message.seq,
    author: message.author,
    postedAt: message.postedAt,
    headline: watchHeadline(message),
    chars: fetchMessageChars(message),
  };
}

interface Counts {
  digestChars: number;
  fetchChars: number;
  pingChars: number;
}

/** Where {@link ServedLedger.countsFor} remembers a connection's counts: the room, the ledger's generation, the counts. */
export interface ServedMemo {
  readonly room: string;
  readonly generation: number;
  readonly counts: Counts | undefined;
}

/** What holds a memo: a connection, by its role (set once, by hello). */
export interface ServedHolder {
  readonly role: string | undefined;
  servedMemo: ServedMemo | undefined;
}

/**
 * What this broker served each role of each room, in characters, from its start: digest text, fetch pages' message
 * text, post events. Per broker by design: counting on a shared store would add a store write to every read and
 * every ping, the hot path; each broker counts what it served its own connections (docs/protocol.md, "Watching").
 */
export class ServedLedger {
  readonly #rooms = new Map<string, Map<string, Counts>>();
  /** Bumped by clear(): a memo made before it is stale. */
  #generation = 0;

  /**
   * The counts of `holder`'s role in `room`, as {@link counts}, remembered on the holder (a connection, whose role
   * never changes) for the next post event of the same room: a fan-out then reads one field per listener instead of
   * two map lookups, which were a tenth of the broker's CPU per pipelined post to 8 members.
   */
  countsFor(holder: ServedHolder, room: string): Counts | undefined {
    const memo = holder.servedMemo;
    if (memo !== undefined && memo.room === room && memo.generation === this.#generation) return memo.counts;
    const counts = this.counts(room, holder.role as string);
    holder.servedMemo = { room, generation: this.#generation, counts };
    return counts;
  }

  /** The counts of `role` in `room`, made when new (undefined past the bounds: not counted). */
  counts(room: string, role: string): Counts | undefined {
    let roles = this.#rooms.get(room);
    if (roles === undefined) {
      if (this.#rooms.size >= MAX_SERVED_ROOMS) return undefined;
      this.#rooms.set(room, (roles = new Map()));
    }
    let counts = roles.get(role);
    if (counts === undefined) {
      if (roles.size >= MAX_SERVED_ROLES_PER_ROOM) return undefined;
      roles.set(role, (counts = { digestChars: 0, fetchChars: 0, pingChars: 0 }));
    }
    return counts;
  }

  /** The counts of each role of `room`, unsorted (undefined when none were counted). */
  roles(room: string): ReadonlyMap<string, Readonly<Counts>> | undefined {
    return this.#rooms.get(room);
  }

  /** The roles of the room the broker served something or that were counted, sorted by role. */
  list(room: string): ServedCounts[] {
    const roles = this.#rooms.get(room);
    if (roles === undefined) return [];
    return [...roles].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([role, counts]) => ({ role, ...counts }));
  }

  /** Forgets every count (the store lost its rooms). */
  clear(): void {
    this.#rooms.clear();
    this.#generation++;
  }
}

/** One watcher's held watch events, by key: a post's is its own, the others' replace an earlier one of theirs. */
class WatchFeed {
  readonly #held = new Map<string, WatchEvent>();
  /** Events dropped since the last one this watcher was sent; a gap event tells it before anything else. */
  #dropped = 0;
  /** Events dropped for this watcher in all. */
  lost = 0;

  constructor(readonly connection: BrokerConnection) {}

  get behind(): boolean {
    return this.#dropped > 0 || this.#held.size > 0;
  }

  /** Forgets what is held and any gap owed: the watcher is about to get a new snapshot. */
  clear(): void {
    this.#held.clear();
    this.#dropped = 0;
  }

  hold(key: string, event: WatchEvent): void {
    // Behind a gap everything is stale: the watcher asks for a new snapshot when it reads the gap.
    if (this.#dropped > 0) {
      this.#dropped++;
      this.lost++;
      return;
    }
    if (this.#held.delete(key) || this.#held.size < MAX_HELD_WATCH_EVENTS) {
      this.#held.set(key, event);
      return;
    }
    this.#dropped = this.#held.size + 1;
    this.lost += this.#dropped;
    this.#held.clear();
  }

  /** Sends what it can within the backlog bound; what does not fit is dropped and a gap owed. */
  flush(frameOf: (key: string, event: WatchEvent) => FrameText, maxBacklogBytes: number): void {
    if (this.#dropped > 0) {
      const gap: WatchEvent = { event: "watch", kind: "gap", dropped: this.#dropped };
      if (!this.connection.sendWatchFrame(frameOf("", gap), maxBacklogBytes)) return;
      this.#dropped = 0;
    }
    for (const [key, event] of this.#held) {
      if (!this.connection.sendWatchFrame(frameOf(key, event), maxBacklogBytes)) {
        this.#dropped = this.#held.size;
        this.lost += this.#dropped;
        this.#held.clear();
        return;
      }
      this.#held.delete(key);
    }
  }
}

/** What a watched broker last told its watchers of a room. */
interface KnownRoom {
  readonly newestSeq: number;
  readonly retained: number;
  readonly retainedChars: number;
  readonly members: string;
}

/** What the watch hub needs from its broker. */
export interface WatchHubOptions {
  readonly maxFrameBytes: number;
  readonly maxWatchBacklogBytes: number;
  readonly clock: () => number;
  readonly timers: Timers;
  readonly logger: BrokerLogger;
}

/**
 * The broker's watchers and what they are told. Costs nothing while nobody watches but the served counts: the room
 * service asks {@link active} before telling it anything else.
 *
 * Every change a watcher sees is read back from the store, so a room looks the same from every broker sharing it:
 * a change made here marks its room for a read at the end of the turn (many posts, one read), and while anyone
 * watches, the whole store is read every {@link WATCH_POLL_MS} for what other brokers did. Each read is compared with
 * what the watchers were last told; new posts are peeked for their headlines, and only differences go out. Reads run
 * one at a time. Each watcher holds at most {@link MAX_HELD_WATCH_EVENTS} events and is written at most its backlog
 * bound; past either, it loses them and is owed a gap, so a stalled watcher costs a bounded amount and no post waits.
 */
export class WatchHub {
  readonly served = new ServedLedger();
  readonly #store: RoomStore;
  readonly #options: WatchHubOptions;
  readonly #feeds = new Map<BrokerConnection, WatchFeed>();
  readonly #known = new Map<string, KnownRoom>();
  readonly #dirtyRooms = new Set<string>();
  /**
   * The total of each role's served counts when watchers were last told them. Counts only grow (until a reset makes
   * new ones), so a role is told again when its total moved: a post's fan-out marks nothing but its room.
   */
  #toldServed = new WeakMap<Readonly<Counts>, number>();
  #dirtyAll = false;
  #scheduled = false;
  /** When the last round of watch events started (the injected clock), for {@link WATCH_TICK_MS}. */
  #lastTurnAt = Number.NEGATIVE_INFINITY;
  #tickTimer: unknown;
  /** A read of the store under way: the next waits for it. */
  #reading: Promise<unknown> | undefined;
  #pollTimer: unknown;
  #retryTimer: unknown;
  /** Watch events lost by watchers that have since closed. */
  #lostByClosed = 0;

  constructor(store: RoomStore, options: WatchHubOptions) {
    this.#store = store;
    this.#options = options;
  }

  /** Whether any connection watches. */
  get active(): boolean {
    return this.#feeds.size > 0;
  }

  get watchers(): number {
    return this.#feeds.size;
  }

  /**
   * The room changed here (a post, a join, a leave, a read): its watchers hear of it at the end of the turn, with
   * the served counts of its roles that moved.
   */
  roomChanged(room: string): void {
    this.#dirtyRooms.add(room);
    this.#schedule();
  }

  /** The store lost its rooms: watchers are told, and what they were told is forgotten. */
  reset(): void {
    this.served.clear();
    this.#known.clear();
    this.#toldServed = new WeakMap();
    for (const feed of this.#feeds.values()) feed.hold("reset", { event: "watch", kind: "reset" });
    this.#schedule();
  }

  /**
   * Starts (or restarts) watching for `connection`: reads the whole store, tells the other watchers what changed,
   * and answers the snapshot; from then on the connection gets watch events.
   */
  snapshot(connection: BrokerConnection, broker: ResultFor<"watch">["broker"]): Awaitable<ResultFor<"watch">> {
    return this.#serial(() =>
      andThen(this.#read(undefined), (views) => {
        // A watcher asking again (after a gap) starts afresh: what it held is older than the snapshot.
        const feed = this.#feeds.get(connection);
        if (feed !== undefined) feed.clear();
        else if (connection.closeReason === undefined) {
          this.#feeds.set(connection, new WatchFeed(connection));
          this.#armPoll();
        }
        return andThen(this.#recent(views), (recent) => ({
          broker,
          rooms: views.map((view, i): WatchedRoom => ({
            room: view.name,
            lastSeq: view.newestSeq,
            held: { messages: view.retained, chars: view.retainedChars },
            members: view.members.map(({ role, unread }) => ({ role, unread })),
            served: this.served.list(view.name),
            recent: recent[i] ?? [],
          })),
        }));
      }),
    );
  }

  /** A watcher closed. */
  drop(connection: BrokerConnection): void {
    const feed = this.#feeds.get(connection);
    if (feed === undefined) return;
    this.#lostByClosed += feed.lost;
    this.#feeds.delete(connection);
    if (this.#feeds.size > 0) return;
    this.#known.clear();
    this.#dirtyRooms.clear();
    this.#dirtyAll = false;
    this.#clearTimers();
  }

  /** Stops its timers (the broker closes). */
  stop(): void {
    this.#feeds.clear();
    this.#clearTimers();
  }

  /** Watch events dropped for watchers that were behind, since start. */
  get eventsDropped(): number {
    let total = this.#lostByClosed;
    for (const feed of this.#feeds.values()) total += feed.lost;
    return total;
  }

  /** Bytes queued for watchers, or written but not yet taken by them. */
  get backlogBytes(): number {
    let total = 0;
    for (const connection of this.#feeds.keys()) total += connection.queuedBytes;
    return total;
  }

  #clearTimers(): void {
    const { timers } = this.#options;
    if (this.#pollTimer !== undefined) timers.clearTimeout(this.#pollTimer);
    if (this.#retryTimer !== undefined) timers.clearTimeout(this.#retryTimer);
    if (this.#tickTimer !== undefined) timers.clearTimeout(this.#tickTimer);
    this.#pollTimer = undefined;
    this.#retryTimer = undefined;
    this.#tickTimer = undefined;
    this.#scheduled = false;
  }

  #armPoll(): void {
    if (this.#pollTimer !== undefined) return;
    this.#pollTimer = this.#options.timers.setTimeout(() => {
      this.#pollTimer = undefined;
      if (!this.active) return;
      this.#dirtyAll = true;
      this.#schedule();
      this.#armPoll();
    }, WATCH_POLL_MS);
  }

  /** Runs the next round at the end of this turn, or at the end of the tick the last round started. */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    const wait = this.#lastTurnAt + WATCH_TICK_MS - this.#options.clock();
    // A clock that went back (or stands still, as tests inject) waits one tick at most.
    if (wait <= 0 || wait > WATCH_TICK_MS) setImmediate(this.#turn);
    else this.#tickTimer = this.#options.timers.setTimeout(this.#turn, wait);
  }

  /** At the end of a turn: the served counts that changed go out, and the rooms that changed are read. */
  readonly #turn = (): void => {
    this.#tickTimer = undefined;
    if (!this.#scheduled) return;
    this.#scheduled = false;
    if (!this.active) return;
    const at = this.#options.clock();
    this.#lastTurnAt = at;
    for (const room of this.#dirtyRooms) {
      for (const [role, counts] of this.served.roles(room) ?? []) {
        const total = counts.digestChars + counts.fetchChars + counts.pingChars;
        if (this.#toldServed.get(counts) === total) continue;
        this.#toldServed.set(counts, total);
        this.#tell(`s\0${room}\0${role}`, { event: "watch", kind: "served", room, role, ...counts, at });
      }
    }
    if (this.#dirtyAll || this.#dirtyRooms.size > 0) {
      const rooms = this.#dirtyAll || this.#dirtyRooms.size > 1 ? undefined : [...this.#dirtyRooms][0];
      this.#dirtyAll = false;
      this.#dirtyRooms.clear();
      const done = this.#serial(() => andThen(this.#read(rooms), () => undefined));
      if (isPromiseLike(done)) {
        done.then(
          () => this.#flush(),
          () => this.#flush(),
        );
        return;
      }
    }
    this.#flush();
  };

  /**
   * Reads `room` (or every room) and tells the watchers what changed since they were last told: new posts (peeked
   * for their headlines, the newest {@link MAX_WATCH_RECENT} of a burst), members and their unread counts, and what
   * the room holds. A failed read is logged; the next poll reads again.
   */
  #read(room: string | undefined): Awaitable<readonly StoreRoomView[]> {
    const failed = (error: unknown): readonly StoreRoomView[] => {
      this.#options.logger.warn("a watch read of the room store failed", {
        error: error instanceof Error ? error.message : String(error),
      });
      return [];
    };
    // A synchronous store throws where a promise would reject: either way the read fails alone.
    let told: Awaitable<readonly StoreRoomView[]>;
    try {
      told = andThen(this.#store.view(room), (views) => andThen(this.#tellChanges(views), () => views));
    } catch (error) {
      return failed(error);
    }
    return isPromiseLike(told) ? Promise.resolve(told).catch(failed) : told;
  }

  #tellChanges(views: readonly StoreRoomView[]): Awaitable<void> {
    let chain: Awaitable<void> = undefined;
    for (const view of views) {
      chain = andThen(chain, () => this.#tellRoom(view));
    }
    return chain;
  }

  #tellRoom(view: StoreRoomView): Awaitable<void> {
    const { name: room, newestSeq, retained, retainedChars } = view;
    const known = this.#known.get(room);
    const members = JSON.stringify(view.members);
    this.#known.set(room, { newestSeq, retained, retainedChars, members });
    if (!this.active) return;
    const posted =
      newestSeq > (known?.newestSeq ?? 0)
        ? this.#store.peek(room, {
            afterSeq: Math.max(known?.newestSeq ?? 0, newestSeq - MAX_WATCH_RECENT),
            limit: MAX_WATCH_RECENT,
          })
        : undefined;
    return andThen(posted, (page) => {
      for (const message of page?.messages ?? []) {
        this.#tell(`p\0${room}\0${message.seq}`, { event: "watch", kind: "post", room, ...watchedPost(message) });
      }
      if (members !== known?.members) {
        this.#tell(`m\0${room}`, { event: "watch", kind: "members", room, members: [...view.members] });
      }
      if (newestSeq !== known?.newestSeq || retained !== known.retained || retainedChars !== known.retainedChars) {
        this.#tell(`r\0${room}`, {
          event: "watch",
          kind: "room",
          room,
          lastSeq: newestSeq,
          held: { messages: retained, chars: retainedChars },
        });
      }
    });
  }

  /** The newest posts of each room, as a snapshot shows them. */
  #recent(views: readonly StoreRoomView[]): Awaitable<WatchedPost[][]> {
    const recent: WatchedPost[][] = [];
    let chain: Awaitable<void> = undefined;
    for (const view of views) {
      chain = andThen(chain, () =>
        andThen(view.newestSeq === 0 ? undefined : this.#store.peek(view.name, { limit: MAX_WATCH_RECENT }), (page) => {
          recent.push((page?.messages ?? []).map(watchedPost));
        }),
      );
    }
    return andThen(chain, () => recent);
  }

  /** Runs reads of the store one at a time: a synchronous store's at once, a promise's after the one under way. */
  #serial<T>(work: () => Awaitable<T>): Awaitable<T> {
    const before = this.#reading;
    const run = before === undefined ? work() : before.then(work, work);
    if (!isPromiseLike(run)) return run;
    const settled: Promise<unknown> = Promise.resolve(run).then(
      () => undefined,
      () => undefined,
    );
    this.#reading = settled;
    void settled.then(() => {
      if (this.#reading === settled) this.#reading = undefined;
    });
    return run;
  }

  #tell(key: string, event: WatchEvent): void {
    for (const feed of this.#feeds.values()) feed.hold(key, event);
  }

  /** Writes each watcher's held events; one that is behind is tried again shortly. */
  #flush(): void {
    // Each event's JSON is made once for every watcher, and written straight into each watcher's one write.
    const frames = new Map<string, FrameText>();
    const { maxFrameBytes, maxWatchBacklogBytes } = this.#options;
    const frameOf = (key: string, event: WatchEvent): FrameText => {
      if (key === "") return frameText(event, { maxFrameBytes });
      let frame = frames.get(key);
      if (frame === undefined) frames.set(key, (frame = frameText(event, { maxFrameBytes })));
      return frame;
    };
    let behind = false;
    for (const feed of this.#feeds.values()) {
      feed.flush(frameOf, maxWatchBacklogBytes);
      if (feed.behind) behind = true;
    }
    if (behind && this.#retryTimer === undefined) {
      this.#retryTimer = this.#options.timers.setTimeout(() => {
        this.#retryTimer = undefined;
        this.#flush();
      }, WATCH_RETRY_MS);
    }
  }
}
