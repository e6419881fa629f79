import { createHash, randomBytes } from "node:crypto";
import type { ConnectionOptions } from "node:tls";
import {
  MemberLimitError,
  NotMemberError,
  PostKeyReusedError,
  RoomLimitError,
  StoreClosedError,
  StoreResetError,
  StoreUnavailableError,
  checkMessageSize,
  checkPageLimit,
  checkPostKey,
  checkRoleName,
  checkRoomName,
  checkSeq,
  resolveRoomStoreOptions,
  type RoomMessage,
  type RoomStore,
  type RoomStoreEvent,
  type RoomStoreLimits,
  type RoomStoreOptions,
  type StoreDeparture,
  type StoreJoin,
  type StoreLeave,
  type StorePost,
  type StorePostOptions,
  type StoreRead,
  type StoreReadOptions,
  type StoreRoomListing,
  type StoreRoomView,
  type StorePeek,
  type StorePeekOptions,
  peekEvicted,
} from "@orphus/rooms";
import { Redis } from "ioredis";
import { StoreLimitsMismatchError } from "./errors.js";
import {
  DEFAULT_ACTIVITY_RETAINED,
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_KEY_PREFIX,
  DEFAULT_MEMBER_TTL_MS,
  DEFAULT_STORE_TIMEOUT_MS,
  DEFAULT_WATCH_BLOCK_MS,
  MAX_RECONNECT_DELAY_MS,
} from "./limits.js";
import { inboxKey } from "./keys.js";
import { positiveInteger } from "./options.js";
import { STORE_SCRIPT } from "./script.js";
import { parseStoreUrl, scrub, type StoreUrl } from "./url.js";
import { ActivityWatcher } from "./watcher.js";

/** Options of a Redis room store: where Redis is, how long a call may take, and the room limits. */
export interface RedisRoomStoreOptions extends RoomStoreOptions {
  /** `redis://[user:password@]host[:port][/db]`, or `rediss://…` for TLS. Take it from the environment or a file. */
  readonly url: string;
  /** This broker's identity among the store's brokers; default a random one. */
  readonly brokerId?: string;
  /** Prefix of every key; default {@link DEFAULT_KEY_PREFIX}. */
  readonly keyPrefix?: string;
  /** Longest a call (one command) may take before ERR_STORE_UNAVAILABLE; default {@link DEFAULT_STORE_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** Interval of heartbeats; default {@link DEFAULT_HEARTBEAT_MS}. */
  readonly heartbeatMs?: number;
  /** How long a broker's roles stay held after its last heartbeat; default {@link DEFAULT_MEMBER_TTL_MS}. */
  readonly memberTtlMs?: number;
  /**
   * After Redis lost its data, how long joins that would create a room wait, so that every running broker finds the
   * reset and continues the rooms it knew before any of them starts again at 1; written by the broker that takes up
   * the new epoch. Default `heartbeatMs + timeoutMs`: each running broker finds the reset within one heartbeat.
   */
  readonly recoveryWindowMs?: number;
  /** Longest one blocking read of activity waits; default {@link DEFAULT_WATCH_BLOCK_MS}. */
  readonly watchBlockMs?: number;
  /** Entries kept per broker inbox of activity; default {@link DEFAULT_ACTIVITY_RETAINED}. */
  readonly activityRetained?: number;
  /** TLS options for `rediss://` (a CA, a client certificate); default Node's. */
  readonly tls?: ConnectionOptions;
}

type Reply = readonly unknown[];

/**
 * How often a join waiting in a recovery window asks again: a running broker usually continues its rooms within a
 * second of a Redis restart, and the join should go on then rather than at the end of the window.
 */
const RECOVERY_POLL_MS = 200;

/**
 * Opens a room store on Redis: connects, takes up the store's epoch (writing it on first use), checks that the
 * store's limits are this broker's, and registers this broker. Throws StoreUrlInvalidError, RoomsOptionError,
 * StoreLimitsMismatchError, or StoreUnavailableError when Redis cannot be reached within the timeout.
 */
export async function openRedisRoomStore(options: RedisRoomStoreOptions): Promise<RedisRoomStore> {
  const url = parseStoreUrl(options.url);
  const { limits } = resolveRoomStoreOptions(options);
  const timeoutMs = positiveInteger("timeoutMs", options.timeoutMs, DEFAULT_STORE_TIMEOUT_MS);
  const heartbeatMs = positiveInteger("heartbeatMs", options.heartbeatMs, DEFAULT_HEARTBEAT_MS);
  const settings: Settings = {
    keyPrefix: options.keyPrefix ?? DEFAULT_KEY_PREFIX,
    timeoutMs,
    heartbeatMs,
    memberTtlMs: positiveInteger("memberTtlMs", options.memberTtlMs, DEFAULT_MEMBER_TTL_MS),
    recoveryWindowMs: positiveInteger("recoveryWindowMs", options.recoveryWindowMs, heartbeatMs + timeoutMs),
    watchBlockMs: positiveInteger("watchBlockMs", options.watchBlockMs, DEFAULT_WATCH_BLOCK_MS),
    activityRetained: positiveInteger("activityRetained", options.activityRetained, DEFAULT_ACTIVITY_RETAINED),
  };
  const client = new Redis(options.url, {
    lazyConnect: true,
    protocol: 2,
    connectTimeout: settings.timeoutMs,
    commandTimeout: settings.timeoutMs,
    // Fail at once while disconnected instead of queueing without bound; reconnect in the background.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (times: number) => Math.min(times * 100, MAX_RECONNECT_DELAY_MS),
    connectionName: "orphus-roundtable",
    ...(options.tls === undefined ? {} : { tls: options.tls }),
  });
  // Errors surface through the calls that meet them; unhandled, ioredis would print them (unmasked) itself. The
  // last one says why a connection failed (WRONGPASS, ECONNREFUSED) where connect() only says it closed.
  let lastError: unknown;
  client.on("error", (error: unknown) => (lastError = error));
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw unavailable(url, "open", settings.timeoutMs, lastError ?? error);
  }
  const store = new RedisRoomStore(client, url, limits, settings, options.brokerId ?? randomBytes(8).toString("hex"));
  try {
    await store.start();
  } catch (error) {
    client.disconnect();
    throw error;
  }
  return store;
}

function unavailable(url: StoreUrl, operation: string, timeoutMs: number, error: unknown): StoreUnavailableError {
  const reason = scrub(error instanceof Error ? error.message : String(error), url.secrets);
  // The client's own error may quote what it was sent; only its scrubbed message is kept.
  return new StoreUnavailableError(url.masked, operation, timeoutMs, reason);
}

interface Settings {
  readonly keyPrefix: string;
  readonly timeoutMs: number;
  readonly heartbeatMs: number;
  readonly memberTtlMs: number;
  readonly recoveryWindowMs: number;
  readonly watchBlockMs: number;
  readonly activityRetained: number;
}

/**
 * A room store on Redis Streams, shared by every broker that opens one on the same Redis and key prefix. See the
 * package README for the data layout. Open it with {@link openRedisRoomStore}.
 */
export class RedisRoomStore implements RoomStore {
  readonly kind = "redis";
  /** The URL with its password masked. */
  readonly description: string;
  readonly keyPrefix: string;
  readonly #client: Redis;
  readonly #url: StoreUrl;
  readonly #settings: Settings;
  /** ARGV 5 to 11 of every call: the limits the script enforces. */
  readonly #limitArgs: readonly string[];
  readonly #limitsJson: string;
  readonly #sha: string;
  readonly #listeners = new Set<(event: RoomStoreEvent) => void>();
  readonly #attached = new Set<string>();
  /** Roles with a join under way → how many. */
  readonly #joining = new Map<string, number>();
  /** The highest seq this store has seen per room, to continue each past it after a reset. */
  readonly #known = new Map<string, number>();
  #epoch = "";
  #watcher: ActivityWatcher;
  #watching = false;
  #heartbeat: NodeJS.Timeout | undefined;
  #recovery: Promise<void> | undefined;
  /** Wakes every join waiting for a recovery window to close (close() calls them). */
  readonly #pauses = new Set<() => void>();
  #down = false;
  #closing = false;
  #closed = false;

  constructor(
    client: Redis,
    url: StoreUrl,
    readonly limits: RoomStoreLimits,
    settings: Settings,
    readonly brokerId: string,
  ) {
    this.#client = client;
    this.#url = url;
    this.#settings = settings;
    this.description = url.masked;
    this.keyPrefix = settings.keyPrefix;
    this.#limitArgs = [
      limits.capacity,
      limits.maxRooms,
      limits.maxMembers,
      limits.maxRetainedCursors,
      limits.maxPostKeys,
      settings.activityRetained,
      settings.memberTtlMs,
    ].map(String);
    this.#limitsJson = JSON.stringify({
      capacity: limits.capacity,
      maxRooms: limits.maxRooms,
      maxMembers: limits.maxMembers,
      maxRetainedCursors: limits.maxRetainedCursors,
      maxPostKeys: limits.maxPostKeys,
      maxBodyBytes: limits.maxBodyBytes,
      maxHeadlineBytes: limits.maxHeadlineBytes,
      maxRoleNameBytes: limits.maxRoleNameBytes,
      roomNamePattern: limits.roomNamePattern.source,
    });
    this.#sha = sha1(STORE_SCRIPT);
    this.#watcher = new ActivityWatcher(
      {
        keyPrefix: this.keyPrefix,
        brokerId,
        blockMs: settings.watchBlockMs,
        hear: (activity) => {
          if (activity.kind === "post") this.#saw(activity.room, activity.seq);
          this.#emit(activity);
        },
      },
      "0-0",
    );
  }

  /** Takes up the epoch, checks the limits, registers this broker and starts its heartbeat. Called once by open. */
  async start(): Promise<void> {
    const proposed = randomBytes(8).toString("hex");
    const [, epoch, limits] = await this.#send("open", proposed, [this.#limitsJson]);
    if (limits !== this.#limitsJson)
      throw new StoreLimitsMismatchError(this.description, this.#limitsJson, String(limits));
    this.#epoch = String(epoch);
    await this.#call("heartbeat", this.#held());
    this.#heartbeat = setInterval(() => void this.#beat(), this.#settings.heartbeatMs);
    this.#heartbeat.unref();
    // A connection back after a drop most often means a restarted Redis: look at the epoch now, not at the next
    // heartbeat, so that this broker continues its rooms (and ends other brokers' waiting joins) within a second.
    this.#client.on("ready", () => void this.#beat());
  }

  async attach(role: string): Promise<void> {
    checkRoleName(role, this.limits.maxRoleNameBytes);
    // Held from now on, before the reply: a heartbeat sent meanwhile names exactly the roles this broker holds.
    this.#attached.add(role);
    await this.#call("attach", [role]);
  }

  async detach(role: string): Promise<readonly StoreDeparture[]> {
    this.#attached.delete(role);
    const reply = await this.#call("detach", [role]);
    const departures: StoreDeparture[] = [];
    for (let i = 1; i + 1 < reply.length; i += 2) {
      departures.push({ room: String(reply[i]), role, recipients: JSON.parse(String(reply[i + 1])) as string[] });
    }
    return departures;
  }

  async join(room: string, role: string): Promise<StoreJoin> {
    checkRoleName(role, this.limits.maxRoleNameBytes);
    checkRoomName(room, this.limits.roomNamePattern);
    // Counted as held while the join is under way, so a heartbeat sent meanwhile does not drop what it adds.
    this.#joining.set(role, (this.#joining.get(role) ?? 0) + 1);
    let reply: Reply;
    try {
      reply = await this.#joinOnceServed(room, role);
      this.#refusal(reply, room, role);
      this.#attached.add(role);
    } finally {
      const left = (this.#joining.get(role) ?? 1) - 1;
      if (left === 0) this.#joining.delete(role);
      else this.#joining.set(role, left);
    }
    const [, created, joined, seq, cursor] = reply;
    this.#saw(room, Number(seq));
    const members = strings(reply, 5);
    return {
      created: created === 1,
      joined: joined === 1,
      members: [...members].sort(),
      newestSeq: Number(seq),
      unread: Number(seq) - Number(cursor),
      recipients: joined === 1 ? members : [],
    };
  }

  /**
   * The join call, asked again while the store is recovering from a reset and the room does not exist yet: another
   * running broker may be about to continue it past its last seq. It waits what the script says is left of the
   * window (at most this store's own window), asking again every {@link RECOVERY_POLL_MS} so that a room another
   * broker continued meanwhile is joined then; close() ends the wait.
   */
  async #joinOnceServed(room: string, role: string): Promise<Reply> {
    for (;;) {
      const reply = await this.#call("join", [room, role]);
      if (reply[0] !== "recovering") return reply;
      const left = Math.min(Math.max(1, Number(reply[1])), this.#settings.recoveryWindowMs);
      await this.#pause(Math.min(left, RECOVERY_POLL_MS));
      if (this.#closing) throw new StoreClosedError(this.description, "join");
    }
  }

  async leave(room: string, role: string): Promise<StoreLeave> {
    const reply = await this.#call("leave", [room, role]);
    return reply[1] === 1 ? { left: true, recipients: strings(reply, 2) } : { left: false, recipients: [] };
  }

  async post(room: string, author: string, body: string, options?: StorePostOptions): Promise<StorePost> {
    const key = options?.key;
    if (key !== undefined) {
      checkRoleName(author, this.limits.maxRoleNameBytes);
      checkPostKey(key);
    }
    const headline = options?.headline;
    const refused = refusalOf(() => checkMessageSize(room, body, headline, this.limits));
    const reply = await this.#call("post", [
      refused === undefined ? "0" : "1",
      room,
      author,
      body,
      headline === undefined ? "" : `+${headline}`,
      key ?? "",
      // The message's characters (body and headline, as a fetch page counts them), for the room's count.
      String(body.length + (headline?.length ?? 0)),
    ]);
    if (reply[0] === "replay") {
      const [seq, postedAt] = String(reply[1]).split(":").map(Number) as [number, number];
      return { seq, postedAt, replayed: true, recipients: [] };
    }
    if (reply[0] === "key-reused") throw new PostKeyReusedError(room, key ?? "", Number(reply[1]));
    this.#refusal(reply, room, author, refused);
    const seq = Number(reply[1]);
    this.#saw(room, seq);
    return { seq, postedAt: Number(reply[2]), replayed: false, recipients: strings(reply, 3) };
  }

  async read(room: string, role: string, options?: StoreReadOptions): Promise<StoreRead> {
    const afterSeq = options?.afterSeq;
    const limit = options?.limit;
    const refused = refusalOf(() => {
      if (afterSeq !== undefined) checkSeq("page", afterSeq);
      if (limit !== undefined) checkPageLimit(limit);
    });
    const reply = await this.#call("read", [
      refused === undefined ? "0" : "1",
      room,
      role,
      afterSeq === undefined ? "" : String(afterSeq),
      limit === undefined ? "" : String(limit),
    ]);
    this.#refusal(reply, room, role, refused);
    const newestSeq = Number(reply[1]);
    const retained = Number(reply[2]);
    const cursor = Number(reply[3]);
    const after = Number(reply[4]);
    this.#saw(room, newestSeq);
    const messages = (reply[5] as [string, string[]][]).map(([id, fields]) => message(id, fields));
    return { ...pageOf(messages, after, limit ?? this.limits.capacity, newestSeq, retained), cursor };
  }

  async markRead(room: string, role: string, seq: number): Promise<number> {
    const refused = refusalOf(() => checkSeq("markRead", seq));
    const reply = await this.#call("mark-read", [refused === undefined ? "0" : "1", room, role, String(seq)]);
    this.#refusal(reply, room, role, refused);
    return Number(reply[1]);
  }

  async list(role: string): Promise<readonly StoreRoomListing[]> {
    const reply = await this.#call("list", [role]);
    return (reply.slice(1) as [string, number, number, number, number, number][]).map(
      ([name, memberCount, seq, retainedCount, joined, cursor]) => {
        this.#saw(name, seq);
        const summary = { name, memberCount, messageCount: seq, retainedCount };
        return joined === 1 ? { ...summary, joined: true, unread: seq - cursor } : { ...summary, joined: false };
      },
    );
  }

  async members(room: string): Promise<readonly string[] | undefined> {
    const reply = await this.#call("members", [room]);
    return reply[0] === "no-room" ? undefined : [...strings(reply, 1)].sort();
  }

  async view(room?: string): Promise<readonly StoreRoomView[]> {
    const reply = await this.#call("view", [room ?? ""]);
    return (reply.slice(1) as [string, number, number, number, (string | number)[]][]).map(
      ([name, newestSeq, retained, retainedChars, flat]) => {
        this.#saw(name, newestSeq);
        const members: { role: string; unread: number }[] = [];
        for (let i = 0; i + 1 < flat.length; i += 2)
          members.push({ role: String(flat[i]), unread: Number(flat[i + 1]) });
        members.sort((a, b) => (a.role < b.role ? -1 : a.role > b.role ? 1 : 0));
        return { name, newestSeq, retained, retainedChars, members };
      },
    );
  }

  async peek(room: string, options: StorePeekOptions): Promise<StorePeek | undefined> {
    const { afterSeq, beforeSeq, limit } = options;
    checkPageLimit(limit);
    if (afterSeq !== undefined) checkSeq("peek", afterSeq);
    if (beforeSeq !== undefined) checkSeq("peek", beforeSeq);
    const reply = await this.#call("peek", [
      room,
      afterSeq === undefined ? "" : String(afterSeq),
      beforeSeq === undefined ? "" : String(beforeSeq),
      String(limit),
    ]);
    if (reply[0] === "no-room") return undefined;
    const newestSeq = Number(reply[1]);
    const retained = Number(reply[2]);
    this.#saw(room, newestSeq);
    const messages = (reply[3] as [string, string[]][]).map(([id, fields]) => message(id, fields));
    const page = { messages, newestSeq, oldestSeq: newestSeq - retained + 1 };
    const evicted = afterSeq === undefined ? undefined : peekEvicted(afterSeq, newestSeq, retained);
    return evicted === undefined ? page : { ...page, evicted };
  }

  subscribe(listener: (event: RoomStoreEvent) => void): () => void {
    this.#listeners.add(listener);
    if (!this.#watching && !this.#closed) this.#startWatcher();
    return () => this.#listeners.delete(listener);
  }

  /** Stops the heartbeat and the watcher; this broker's roles that no other broker holds leave their rooms. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closing = true;
    for (const wake of [...this.#pauses]) wake();
    clearInterval(this.#heartbeat);
    try {
      await this.#call("close", []);
    } catch {
      // Redis is away: the other brokers' heartbeats sweep this broker's roles once its TTL runs out.
    }
    this.#closed = true;
    this.#listeners.clear();
    await this.#watcher.stop();
    this.#client.disconnect();
  }

  // --- calls -----------------------------------------------------------------------------------------------------

  /** One EVALSHA of the store script (EVAL when the server lost it); an unreachable server is StoreUnavailableError. */
  async #send(op: string, epoch: string, args: readonly string[]): Promise<Reply> {
    const argv = [op, this.keyPrefix, epoch, this.brokerId, ...this.#limitArgs, ...args];
    try {
      try {
        return (await this.#client.evalsha(this.#sha, 0, ...argv)) as Reply;
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
        return (await this.#client.eval(STORE_SCRIPT, 0, ...argv)) as Reply;
      }
    } catch (error) {
      const failure = unavailable(this.#url, op, this.#settings.timeoutMs, error);
      if (!this.#down) {
        this.#down = true;
        this.#emit({ type: "unavailable", error: failure });
      }
      throw failure;
    }
  }

  /** A call under the current epoch; a reset found on the way is taken up once and fails this call. */
  async #call(op: string, args: readonly string[]): Promise<Reply> {
    if (this.#closed) throw new StoreClosedError(this.description, op);
    const epoch = this.#epoch;
    const reply = await this.#send(op, epoch, args);
    if (this.#down) {
      this.#down = false;
      this.#emit({ type: "available" });
    }
    if (reply[0] !== "reset") return reply;
    const found = String(reply[1]);
    if (this.#epoch === epoch) this.#recovery ??= this.#recover(epoch).finally(() => (this.#recovery = undefined));
    await this.#recovery;
    throw new StoreResetError(this.description, epoch, found === "" ? undefined : found);
  }

  /** The data is gone: take up a new epoch (or the one another broker wrote) and continue known rooms past their seqs. */
  async #recover(lost: string): Promise<void> {
    const rooms = [...this.#known].map(([room, continuesAfter]) => ({ room, continuesAfter }));
    const floors = rooms.flatMap(({ room, continuesAfter }) => [room, String(continuesAfter)]);
    const [, epoch] = await this.#send("recover", lost, [
      randomBytes(8).toString("hex"),
      this.#limitsJson,
      String(this.#settings.recoveryWindowMs),
      ...floors,
    ]);
    this.#epoch = String(epoch);
    this.#watcher.restart();
    this.#emit({ type: "reset", epoch: this.#epoch, rooms });
    await this.#call("heartbeat", this.#held()).catch(() => undefined);
  }

  /** Resolves after `ms`, or at once when the store closes. */
  #pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.#pauses.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      timer.unref();
      this.#pauses.add(wake);
    });
  }

  async #beat(): Promise<void> {
    try {
      await this.#call("heartbeat", this.#held());
    } catch {
      // Reported through the availability and reset events; the next heartbeat tries again.
    }
  }

  /** Starts the blocking reads of activity on a connection of their own (a blocked connection serves nothing else). */
  #startWatcher(): void {
    this.#watching = true;
    const connection = this.#client.duplicate({
      lazyConnect: false,
      commandTimeout: this.#settings.watchBlockMs + this.#settings.timeoutMs,
      connectionName: "orphus-roundtable-watch",
    });
    connection.on("error", () => {});
    // Where the inbox stands now, asked on the command connection so the answer is ordered with this store's calls:
    // a subscriber hears what happened after it subscribed, nothing from before. Nothing here can reject: a failed
    // ask starts from the inbox's end, and start only takes the connection into a loop that catches its own failures.
    void this.#client
      .call("XREVRANGE", inboxKey(this.keyPrefix, this.brokerId), "+", "-", "COUNT", "1")
      .then((reply) => ((reply as [string][])[0]?.[0] ?? "0-0") as string | undefined)
      .catch(() => undefined)
      .then((from) => this.#watcher.start(connection, from));
  }

  /** The roles this broker holds, for a heartbeat: attached, or with a join under way. */
  #held(): string[] {
    const held = new Set(this.#attached);
    for (const role of this.#joining.keys()) held.add(role);
    return [...held];
  }

  #emit(event: RoomStoreEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own; the others still hear the event.
      }
    }
  }

  #saw(room: string, seq: number): void {
    if (seq > (this.#known.get(room) ?? 0)) this.#known.set(room, seq);
  }

  /** Throws the refusal a reply carries, if any: the pending local refusal, or one the script found. */
  #refusal(reply: Reply, room: string, role: string, refused?: Error): void {
    switch (reply[0]) {
      case "ok":
        return;
      case "refused":
        throw refused ?? new Error("the store refused a call it was not asked to refuse");
      case "not-member":
        throw new NotMemberError(room, role);
      case "room-limit":
        throw new RoomLimitError(room, this.limits.maxRooms);
      case "member-limit":
        throw new MemberLimitError(room, role, this.limits.maxMembers);
      default:
        throw new Error(`unexpected store reply ${JSON.stringify(reply[0])}`);
    }
  }
}

/** The error `check` throws, or undefined: a local refusal that membership may still outrank. */
function refusalOf(check: () => void): Error | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

function strings(reply: Reply, from: number): string[] {
  return reply.slice(from).map(String);
}

function message(id: string, fields: readonly string[]): RoomMessage {
  let author = "";
  let body = "";
  let postedAt = 0;
  let headline: string | undefined;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const value = fields[i + 1] as string;
    if (fields[i] === "a") author = value;
    else if (fields[i] === "b") body = value;
    else if (fields[i] === "t") postedAt = Number(value);
    else if (fields[i] === "h") headline = value.slice(1);
  }
  const seq = Number.parseInt(id, 10);
  return headline === undefined ? { seq, author, body, postedAt } : { seq, author, body, headline, postedAt };
}

/**
 * The page the ring would give: the same window, eviction and hasMore rules as `SeqRing.after`, worked out from the
 * newest seq and the number retained. After a reset the stream may hold fewer than the seqs imply; what is missing
 * then reads as evicted.
 */
function pageOf(messages: RoomMessage[], afterSeq: number, limit: number, newestSeq: number, retained: number) {
  const firstRetained = newestSeq - retained + 1;
  const first = Math.max(afterSeq + 1, firstRetained);
  const last = Math.min(newestSeq, first + limit - 1);
  const page = { messages, newestSeq, oldestSeq: retained === 0 ? 0 : firstRetained, hasMore: last < newestSeq };
  if (firstRetained <= afterSeq + 1) return page;
  return { ...page, evicted: { count: firstRetained - afterSeq - 1, fromSeq: afterSeq + 1, toSeq: firstRetained - 1 } };
}

function sha1(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}
