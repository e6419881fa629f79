import type { Duplex } from "node:stream";
import { hasErrorCode } from "@orphus/internal";
import {
  PROTOCOL_NAME,
  PROTOCOL_VERSION,
  announcedPosts,
  type Op,
  type PostEvent,
  type RequestParams,
  type ResultFor,
  type RoundtableEvent,
  type WireRefusalError,
} from "@orphus/roundtable-protocol";
import { sameStore } from "@orphus/roundtable-locator";
import { BrokerConnection, checkPositiveInteger } from "./connection.js";
import { ClientClosedError, ConnectionLostError, RequestTimeoutError } from "./errors.js";
import { brokerFullFrom } from "./full-broker.js";
import {
  CONNECT_ROUND_DELAY_MS,
  DEFAULT_POST_ATTEMPTS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  LISTEN_FIRST_MS,
  MAX_CONNECT_ROUNDS,
  MAX_REMEMBERED_ROOMS,
} from "./limits.js";
import { ActivityCoalescer, type ActivityNotice } from "./pings.js";
import { idempotencyKeyFor } from "./post-key.js";
import { resolveRoleName } from "./role.js";
import { jittered, sleep, systemTimers, type ClientTimers } from "./timers.js";

/** What the client asks of one connect. */
export interface ConnectOptions {
  /**
   * False when the client only wants the broker that is running: it reconnects to retry a post, and a new broker
   * would not have that post anyway. A connector that cannot tell may ignore it. Default true.
   */
  readonly spawn?: boolean;
}

/** Opens a stream to a broker, starting one if it must; the client calls it at most once per connection it needs. */
export type Connector = (options?: ConnectOptions) => Promise<Duplex>;

/** Options of {@link RoundtableClient.post}. */
export interface PostOptions {
  /** One-line summary a digest shows when the body no longer fits; default: the body's first line. */
  readonly headline?: string;
  /**
   * The post's idempotency key; default a fresh random one. Pass the key of a post that failed with a timeout
   * (RequestTimeoutError.idempotencyKey) to retry it without storing it twice.
   */
  readonly idempotencyKey?: string;
}

/** What a client learned from the broker's hello. */
export type BrokerHello = ResultFor<"hello">;

/** What {@link RoundtableClient.join} returns: the broker's answer, and whether it recreated a room lost in a restart. */
export type JoinResult = ResultFor<"join"> & {
  /**
   * True when this join created a room this client had joined on a broker that has since restarted: the room is
   * new, its earlier history gone. Absent otherwise.
   */
  readonly recreated?: true;
};

/**
 * A broker restart a client met: the broker it had said hello to is gone and another answered (another instance, or
 * for a broker that names none, another pid). A broker on the memory store starts with no rooms.
 */
export interface BrokerRestart {
  /** What the broker before said in hello. */
  readonly previous: BrokerHello;
  /** What the broker now said in hello. */
  readonly current: BrokerHello;
  /** The rooms this client had joined on the broker before, and has not joined again since, in the order joined. */
  readonly rooms: readonly string[];
}

/**
 * Whether two hellos came from one run of a broker: the same instance, or (for brokers that name none) the same pid.
 */
export function sameBroker(a: BrokerHello, b: BrokerHello): boolean {
  return a.brokerInstance !== undefined || b.brokerInstance !== undefined
    ? a.brokerInstance === b.brokerInstance
    : a.brokerPid === b.brokerPid;
}

/** Options of {@link RoundtableClient}. */
export interface RoundtableClientOptions {
  /** Opens the stream to the broker (and starts the broker when nothing answers). */
  readonly connector: Connector;
  /** The role to speak as; default `session-<pid>`, with a warning that read positions will not survive a restart. */
  readonly role?: string;
  /** Receives one coalesced activity notice per quiet period; without it, no coalescer runs. */
  readonly onActivity?: (notice: ActivityNotice) => void;
  /** Quiet period of the activity coalescer; default 1.5 s. */
  readonly pingWindowMs?: number;
  /** Receives warnings (the ephemeral role name, a broker on another store); default process.emitWarning. */
  readonly onWarning?: (message: string) => void;
  /**
   * The room store this client's setting names (its masked description, `describeStoreSetting`): a broker that
   * answers on another store is warned about once, since this session then shares rooms with the wrong fleet.
   * Undefined checks nothing.
   */
  readonly expectedStore?: string;
  /** How long a request waits for its reply; default {@link DEFAULT_REQUEST_TIMEOUT_MS}. */
  readonly requestTimeoutMs?: number;
  /**
   * Attempts a post makes, the first included, when a timeout or a lost connection leaves its fate unknown; every
   * attempt carries the same idempotency key, so none stores it twice. Default {@link DEFAULT_POST_ATTEMPTS}.
   */
  readonly postAttempts?: number;
  /** Process id sent in hello and used for the fallback role name; default process.pid. */
  readonly pid?: number;
  /**
   * The timers of the client's own waits (the ping window, request timeouts, the pauses between connect rounds);
   * default the real ones. A broker's start-up (spawning it, polling for its socket, its deadline) keeps the wall
   * clock whatever is injected here: it waits on a real process.
   */
  readonly timers?: ClientTimers;
  /** Source of the jitter of the pauses between connect rounds, in [0, 1); default Math.random. */
  readonly random?: () => number;
}

/** Listener of raw broker events (membership churn included). */
export type EventListener = (event: RoundtableEvent) => void;

function isRetryableHelloFailure(error: unknown): boolean {
  return (
    error instanceof ConnectionLostError ||
    (hasErrorCode<WireRefusalError>(error, "ERR_WIRE_REFUSED") && error.wireCode === "ERR_SHUTTING_DOWN")
  );
}

/**
 * A lazy connection to the roundtable broker. Constructing it opens no socket and spawns nothing; the first call
 * connects (every concurrent first call waits on the same connect), and a lost connection is replaced on the next
 * call. Joins are never replayed: after a broker restart, posting to a room joined before fails with the broker's
 * `Not a member of room "<name>"; join it first`, and {@link RoundtableClient.takeBrokerRestart} tells of the
 * restart once, naming the rooms joined before it.
 */
export class RoundtableClient {
  /** The role this client speaks as. */
  readonly role: string;
  /** True when the role is the `session-<pid>` fallback, whose read positions do not survive a restart. */
  readonly ephemeralRole: boolean;
  readonly #connector: Connector;
  readonly #timers: ClientTimers;
  readonly #random: () => number;
  readonly #requestTimeoutMs: number;
  readonly #postAttempts: number;
  readonly #pid: number;
  readonly #warning: string | undefined;
  readonly #onWarning: (message: string, code: string) => void;
  readonly #expectedStore: string | undefined;
  /** The broker pid last warned about being on another store, so one broker is warned about once. */
  #storeWarnedPid: number | undefined;
  readonly #coalescer: ActivityCoalescer | undefined;
  readonly #listeners = new Set<EventListener>();
  readonly #lossListeners = new Set<(reason: string) => void>();
  #connection: BrokerConnection | undefined;
  #connecting: Promise<BrokerConnection> | undefined;
  /** Whether the connect under way may spawn a broker. */
  #connectingSpawns = true;
  #hello: BrokerHello | undefined;
  #connects = 0;
  /** Rooms joined through this client on the current broker and not left, in the order joined. */
  readonly #joinedRooms = new Set<string>();
  /** Rooms joined on a broker that restarted since, not joined again: a join creating one recreated it. */
  readonly #lostRooms = new Set<string>();
  /** A restart not yet taken by {@link RoundtableClient.takeBrokerRestart}. */
  #restart: BrokerRestart | undefined;
  #warned = false;
  #closed = false;

  constructor(options: RoundtableClientOptions) {
    this.#pid = options.pid ?? process.pid;
    const resolved = resolveRoleName(options.role, this.#pid);
    this.role = resolved.role;
    this.ephemeralRole = resolved.ephemeral;
    this.#warning = resolved.warning;
    this.#connector = options.connector;
    this.#timers = options.timers ?? systemTimers;
    this.#random = options.random ?? Math.random;
    this.#requestTimeoutMs = checkPositiveInteger(
      "requestTimeoutMs",
      options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      3_600_000,
    );
    this.#postAttempts = checkPositiveInteger("postAttempts", options.postAttempts ?? DEFAULT_POST_ATTEMPTS, 10);
    this.#onWarning = options.onWarning ?? ((message, code) => process.emitWarning(message, { code }));
    this.#expectedStore = options.expectedStore;
    this.#coalescer =
      options.onActivity === undefined
        ? undefined
        : new ActivityCoalescer({
            onNotice: options.onActivity,
            ignoreAuthor: this.role,
            timers: this.#timers,
            ...(options.pingWindowMs === undefined ? {} : { windowMs: options.pingWindowMs }),
          });
  }

  /** True while a connection to a broker is open. */
  get connected(): boolean {
    return this.#connection !== undefined && !this.#connection.closed;
  }

  /** What the current (or last) broker said in hello; undefined before the first connect. */
  get broker(): BrokerHello | undefined {
    return this.#hello;
  }

  /** Connections this client has opened so far (each one after a loss counts). */
  get connectCount(): number {
    return this.#connects;
  }

  /** Connects now rather than on the first call; resolves with the broker's hello. */
  async connect(): Promise<BrokerHello> {
    await this.#ensure("connect");
    return this.#hello as BrokerHello;
  }

  /** Sends any request; the typed methods below are shorthands. */
  request<O extends Exclude<Op, "hello">>(op: O, params: RequestParams<O>, timeoutMs?: number): Promise<ResultFor<O>> {
    const current = this.#connection;
    // The common case goes straight to the open connection, without a hop through the connect promise.
    if (!this.#closed && current !== undefined && !current.closed) return current.request(op, params, timeoutMs);
    return this.#ensure(op).then((connection) => connection.request(op, params, timeoutMs));
  }

  /**
   * Joins a room (creating it when it does not exist); this connection's role becomes a member. A join that creates
   * a room this client had joined before a broker restart says so (`recreated`).
   */
  async join(room: string): Promise<JoinResult> {
    const result = await this.request("join", { room });
    const recreated = this.#lostRooms.delete(room) && result.created;
    this.#joinedRooms.delete(room);
    this.#joinedRooms.add(room);
    if (this.#joinedRooms.size > MAX_REMEMBERED_ROOMS)
      this.#joinedRooms.delete(this.#joinedRooms.values().next().value as string);
    return recreated ? { ...result, recreated } : result;
  }

  /** Leaves a room; idempotent. */
  async leave(room: string): Promise<ResultFor<"leave">> {
    const result = await this.request("leave", { room });
    this.#joinedRooms.delete(room);
    this.#lostRooms.delete(room);
    return result;
  }

  /**
   * The broker restart this client met since the last call, if any, once: a host tells the model (the tool puts it
   * first in the result of its next call). Restarts met in between are taken as one, from the first broker to the
   * last.
   */
  takeBrokerRestart(): BrokerRestart | undefined {
    const restart = this.#restart;
    this.#restart = undefined;
    // Rooms joined again since are no longer to join.
    return restart === undefined
      ? undefined
      : { ...restart, rooms: restart.rooms.filter((room) => this.#lostRooms.has(room)) };
  }

  /**
   * Posts a message to a joined room. Every post carries an idempotency key (the given one, else a fresh one). When
   * its reply times out, or its connection is lost and a new one reaches the same broker (never starting one), the
   * post is sent again with the same key, up to `postAttempts` in all: the broker answers a repeat with the original
   * seq, so a retry never stores it twice. If every attempt times out, RequestTimeoutError says the post may have
   * been stored and carries the key for a later retry.
   */
  async post(room: string, body: string, options: PostOptions = {}): Promise<ResultFor<"post">> {
    const idempotencyKey = idempotencyKeyFor(options.idempotencyKey);
    const params = {
      room,
      body,
      ...(options.headline === undefined ? {} : { headline: options.headline }),
      idempotencyKey,
    };
    let connection = await this.#ensure("post");
    const broker = this.#hello;
    for (let attempt = 1; ; attempt++) {
      try {
        return await connection.request("post", params);
      } catch (error) {
        const retry = attempt < this.#postAttempts ? await this.#retryConnection(error, connection, broker) : undefined;
        if (retry !== undefined) {
          connection = retry;
          continue;
        }
        if (error instanceof RequestTimeoutError) {
          throw new RequestTimeoutError("post", error.timeoutMs, { idempotencyKey, attempts: attempt });
        }
        throw error;
      }
    }
  }

  /** The unread messages of a joined room within a character budget; advances the read cursor. */
  digest(room: string, options: { budget?: number } = {}): Promise<ResultFor<"digest">> {
    return this.request("digest", { room, ...(options.budget === undefined ? {} : { budget: options.budget }) });
  }

  /**
   * Messages of a joined room in full, a page at a time: at most `limit` messages and `maxChars` characters (broker
   * defaults 20 and 8,000), but always one whole message. Advances the read cursor; `nextAfterSeq` reads on.
   */
  fetch(
    room: string,
    options: { afterSeq?: number; limit?: number; maxChars?: number } = {},
  ): Promise<ResultFor<"fetch">> {
    return this.request("fetch", {
      room,
      ...(options.afterSeq === undefined ? {} : { afterSeq: options.afterSeq }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      ...(options.maxChars === undefined ? {} : { maxChars: options.maxChars }),
    });
  }

  /** Every room on the broker, with sizes, and unread counts for the joined ones. */
  rooms(): Promise<ResultFor<"rooms">> {
    return this.request("rooms", {});
  }

  /** The member roles of a room. */
  members(room: string): Promise<ResultFor<"members">> {
    return this.request("members", { room });
  }

  /** The broker's pid, uptime, version and load. */
  status(): Promise<ResultFor<"status">> {
    return this.request("status", {});
  }

  /**
   * Subscribes to raw broker events (membership churn included), as the wire has them: several posts to one room may
   * come as one `posts` event, so read posts with `announcedPosts(event)`. Returns the unsubscribe function.
   */
  onEvent(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Subscribes to the loss of an open connection (broker exit, kill, protocol failure; not close()); returns the
   * unsubscribe function. The next call reconnects, and rooms must be joined again.
   */
  onConnectionLost(listener: (reason: string) => void): () => void {
    this.#lossListeners.add(listener);
    return () => this.#lossListeners.delete(listener);
  }

  /**
   * Waits for the next post by another role, in `room` or in any joined room; resolves undefined after `timeoutMs`
   * or on abort. Connects first, so the wait sees events; rejects if the connection is lost while waiting.
   */
  async waitForPost(options: {
    room?: string;
    timeoutMs: number;
    signal?: AbortSignal;
  }): Promise<PostEvent | undefined> {
    const connection = await this.#ensure("wait");
    return new Promise<PostEvent | undefined>((resolve, reject) => {
      const finish = (outcome: () => void): void => {
        this.#timers.clearTimeout(timer);
        unsubscribe();
        unwatch();
        options.signal?.removeEventListener("abort", onAbort);
        outcome();
      };
      const unsubscribe = this.onEvent((event) => {
        // A reset names no room and announces no post.
        if (event.event === "reset") return;
        if (options.room !== undefined && event.room !== options.room) return;
        // A posts event lists several posts: the first by another role is the one waited for.
        const post = announcedPosts(event).find(({ seq, author }) => seq > 0 && author !== this.role);
        if (post !== undefined) finish(() => resolve({ event: "post", room: event.room, ...post }));
      });
      const timer = this.#timers.setTimeout(() => finish(() => resolve(undefined)), options.timeoutMs);
      const onAbort = (): void => finish(() => resolve(undefined));
      options.signal?.addEventListener("abort", onAbort, { once: true });
      // A lost connection ends the wait loudly rather than letting it run out its timeout.
      const unwatch = this.#onConnectionClosed(connection, () =>
        finish(() => reject(new ConnectionLostError("wait", "the broker closed the connection"))),
      );
      if (options.signal?.aborted === true) onAbort();
    });
  }

  /**
   * Says that the posts of `room` up to `throughSeq` reached the model another way (the tool's wait reports them):
   * activity pings leave them out, whether pending or still to come, so no ping repeats what a wait said.
   */
  markReported(room: string, throughSeq: number): void {
    this.#coalescer?.markReported(room, throughSeq);
  }

  /**
   * The newest seq of `room` reported another way ({@link RoundtableClient.markReported}) on the current broker, if any: a host that
   * holds a notice back (a busy session) drops the rooms it covers before showing it.
   */
  reportedThrough(room: string): number | undefined {
    return this.#coalescer?.reportedThrough(room);
  }

  /** Delivers any pending activity notice now. */
  flushActivity(): ActivityNotice | undefined {
    return this.#coalescer?.flush();
  }

  /** Closes the connection and drops pending pings; later calls fail with ClientClosedError. */
  close(): void {
    this.#closed = true;
    this.#coalescer?.dispose();
    this.#connection?.close();
    this.#connection = undefined;
  }

  readonly #closeWatchers = new Map<BrokerConnection, Set<() => void>>();

  /** Calls `callback` when `connection` closes (at once if it has); returns the function that cancels it. */
  #onConnectionClosed(connection: BrokerConnection, callback: () => void): () => void {
    if (connection.closed) {
      queueMicrotask(callback);
      return () => undefined;
    }
    let watchers = this.#closeWatchers.get(connection);
    if (watchers === undefined) {
      watchers = new Set();
      this.#closeWatchers.set(connection, watchers);
    }
    watchers.add(callback);
    return () => watchers.delete(callback);
  }

  /**
   * Where a post goes after `error` ended an attempt: the same connection after a timeout (it is still open), a
   * new connection after a lost one (found without spawning) to a broker that can answer for the post: the same
   * broker (known by its pid), or any broker on the same shared store, which holds the post keys; undefined when
   * there is none, or the error says nothing of the post's fate (a refusal is an answer).
   */
  async #retryConnection(
    error: unknown,
    connection: BrokerConnection,
    broker: BrokerHello | undefined,
  ): Promise<BrokerConnection | undefined> {
    const lost = error instanceof ConnectionLostError || (error instanceof RequestTimeoutError && connection.closed);
    if (!lost) return error instanceof RequestTimeoutError ? connection : undefined;
    try {
      const next = await this.#ensure("post", false);
      const now = this.#hello;
      if (broker === undefined || now === undefined) return undefined;
      const shared = broker.store !== "memory" && sameStore(broker.store, now.store);
      return sameBroker(now, broker) || shared ? next : undefined;
    } catch {
      return undefined;
    }
  }

  #ensure(op: string, spawn = true): Promise<BrokerConnection> {
    if (this.#closed) return Promise.reject(new ClientClosedError(op));
    const current = this.#connection;
    if (current !== undefined && !current.closed) return Promise.resolve(current);
    if (this.#connecting !== undefined) {
      // A connect that may not spawn must not decide for a caller that may: if it finds nothing, connect again.
      return spawn && !this.#connectingSpawns ? this.#connecting.catch(() => this.#ensure(op)) : this.#connecting;
    }
    this.#connectingSpawns = spawn;
    this.#connecting = this.#open(spawn).finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #open(spawn: boolean): Promise<BrokerConnection> {
    if (this.#warning !== undefined && !this.#warned) {
      this.#warned = true;
      this.#onWarning(this.#warning, "ORPHUS_ROUNDTABLE_EPHEMERAL_ROLE");
    }
    const previous = this.#hello;
    for (let round = 1; ; round++) {
      if (round > 1) {
        // The broker dropped the last round: come back after a jittered pause, so a crowd it dropped is spread out.
        await sleep(this.#timers, jittered(CONNECT_ROUND_DELAY_MS * 2 ** (round - 2), this.#random));
        if (this.#closed) throw new ClientClosedError("connect");
      }
      const stream = await this.#connector({ spawn });
      if (this.#closed) {
        stream.destroy();
        throw new ClientClosedError("connect");
      }
      const connection = new BrokerConnection(stream, {
        requestTimeoutMs: this.#requestTimeoutMs,
        timers: this.#timers,
        onEvent: (event) => this.#dispatch(event),
        onClose: (reason) => this.#connectionClosed(connection, reason),
      });
      this.#connects++;
      try {
        // A broker that dropped us may be full and refusing at once: hear it out before writing into its close.
        if (round > 1) await this.#listenFirst(connection);
        this.#hello = await connection.request("hello", {
          protocol: PROTOCOL_NAME,
          version: PROTOCOL_VERSION,
          role: this.role,
          pid: this.#pid,
        });
      } catch (error) {
        connection.close();
        const full = brokerFullFrom(error);
        if (full !== undefined) throw full;
        if (round < MAX_CONNECT_ROUNDS && isRetryableHelloFailure(error)) continue;
        throw error;
      }
      if (this.#closed) {
        connection.close();
        throw new ClientClosedError("connect");
      }
      if (previous !== undefined && !sameBroker(previous, this.#hello)) this.#restarted(previous, this.#hello);
      this.#checkStore(this.#hello);
      this.#connection = connection;
      return connection;
    }
  }

  /**
   * Waits {@link LISTEN_FIRST_MS} for the broker to speak first, writing nothing; ends early when the connection
   * closes, whose refusal (if the broker sent one) the hello that follows then fails with.
   */
  #listenFirst(connection: BrokerConnection): Promise<void> {
    return new Promise((resolve) => {
      const timer = this.#timers.setTimeout(() => {
        unwatch();
        resolve();
      }, LISTEN_FIRST_MS);
      const unwatch = this.#onConnectionClosed(connection, () => {
        this.#timers.clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Another broker answered than the one before: its rooms may be new, and the host has a restart to tell. */
  #restarted(previous: BrokerHello, current: BrokerHello): void {
    // Seqs name posts of one broker's rooms: marks of another broker's would silence a new one's posts.
    this.#coalescer?.forgetReported();
    const rooms = [...(this.#restart?.rooms ?? []), ...this.#joinedRooms];
    for (const room of this.#joinedRooms) this.#lostRooms.add(room);
    for (const room of this.#lostRooms) if (this.#lostRooms.size > MAX_REMEMBERED_ROOMS) this.#lostRooms.delete(room);
    this.#joinedRooms.clear();
    this.#restart = {
      previous: this.#restart?.previous ?? previous,
      current,
      rooms: [...new Set(rooms)].slice(-MAX_REMEMBERED_ROOMS),
    };
  }

  /** Warns, once per broker, when the broker keeps its rooms elsewhere than this client's setting says. */
  #checkStore(hello: BrokerHello): void {
    const expected = this.#expectedStore;
    const actual = hello.store;
    if (expected === undefined || sameStore(expected, actual) || this.#storeWarnedPid === hello.brokerPid) return;
    this.#storeWarnedPid = hello.brokerPid;
    this.#onWarning(
      `The roundtable broker (pid ${hello.brokerPid}) keeps its rooms in ${actual}, but this session's setting names ` +
        `${expected}: another session started that broker with another setting, so this session shares its rooms, ` +
        "not those of its own setting (a split fleet). Give every session of the fleet the same setting " +
        "(ORPHUS_ROUNDTABLE_STORE); the broker exits once its sessions end, and the next one starts on the setting " +
        `of the session that starts it (or stop it: kill ${hello.brokerPid}).`,
      "ORPHUS_ROUNDTABLE_STORE_MISMATCH",
    );
  }

  #connectionClosed(connection: BrokerConnection, reason: string): void {
    if (this.#connection === connection) {
      this.#connection = undefined;
      if (!this.#closed) for (const listener of this.#lossListeners) listener(reason);
    }
    const watchers = this.#closeWatchers.get(connection);
    this.#closeWatchers.delete(connection);
    for (const watcher of watchers ?? []) watcher();
  }

  #dispatch(event: RoundtableEvent): void {
    if (event.event === "post" || event.event === "posts") this.#coalescer?.push(event);
    for (const listener of this.#listeners) listener(event);
  }
}
