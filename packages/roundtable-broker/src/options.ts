import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_HEADLINE_BYTES,
  DEFAULT_MAX_HELD_BYTES,
  DEFAULT_MAX_MEMBERS,
  DEFAULT_MAX_ROOMS,
  DEFAULT_RING_CAPACITY,
  type RoomStore,
} from "@orphus/rooms";
import {
  BrokerOptionError,
  MEMORY_STORE,
  isRedisStoreUrl,
  maskStoreSetting,
  resolveRegistryDir,
} from "@orphus/roundtable-locator";
import { IDEMPOTENCY_KEY_WINDOW } from "@orphus/roundtable-protocol";
import {
  DEFAULT_HELLO_TIMEOUT_MS,
  DEFAULT_IDLE_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_FETCH_BYTES,
  DEFAULT_MAX_WATCH_BACKLOG_BYTES,
  DEFAULT_BROKER_MAX_FRAME_BYTES,
  DEFAULT_MAX_OUTBOUND_BYTES,
  DEFAULT_MAX_QUEUED_REQUESTS,
  DEFAULT_PATH_CHECK_MS,
  DEFAULT_PING_DROP_BYTES,
  DEFAULT_PROBE_TIMEOUT_MS,
} from "./limits.js";
import { globalTimers, type TimerHandle, type Timers as BrokerTimers } from "@orphus/internal";
import { silentLogger, type BrokerLogger } from "./log.js";

// The timers the broker schedules its idle exit, hello timeouts and path checks with: the one interface every package
// shares, under the name the broker has always exported.
export type { BrokerTimers, TimerHandle };

/** Options of {@link startBroker}; every limit has an exported default. */
export interface BrokerOptions {
  /** The agent directory; the socket is `<agentDir>/roundtable/broker.sock`. Required: resolve it with resolveAgentDir. */
  readonly agentDir: string;
  /** Wait after the last connection closes before shutting down; default {@link DEFAULT_IDLE_MS}. */
  readonly idleMs?: number;
  /**
   * True only for the bin: the broker then owns its process and exits it (code 0) once closed. An embedded broker
   * (a test, a demo) closes its server, resolves `closed`, and leaves the host process running. Default false.
   */
  readonly ownsProcess?: boolean;
  /** Wait for an answer when probing an existing socket at start-up; default {@link DEFAULT_PROBE_TIMEOUT_MS}. */
  readonly probeTimeoutMs?: number;
  /** Wait for a new connection's hello before closing it; default {@link DEFAULT_HELLO_TIMEOUT_MS}. */
  readonly helloTimeoutMs?: number;
  /**
   * Directory of the per-user registry of running brokers, where this broker adds its entry while it listens (read
   * by `roundtable doctor`); false registers nowhere. Default: `ORPHUS_ROUNDTABLE_REGISTRY_DIR`, else
   * `~/.orphus/roundtable-brokers` (resolveRegistryDir).
   */
  readonly registryDir?: string | false;
  /** Connections served at once; default {@link DEFAULT_MAX_CONNECTIONS}. */
  readonly maxConnections?: number;
  /** Largest frame in either direction, in bytes; default {@link DEFAULT_BROKER_MAX_FRAME_BYTES}. */
  readonly maxFrameBytes?: number;
  /** High-water mark of a connection's outbound queue in bytes; default {@link DEFAULT_MAX_OUTBOUND_BYTES}. */
  readonly maxOutboundBytes?: number;
  /** Outbound backlog in bytes at which pings are dropped; default {@link DEFAULT_PING_DROP_BYTES}. */
  readonly pingDropBytes?: number;
  /** Most JSON bytes of messages in one fetch reply; default {@link DEFAULT_MAX_FETCH_BYTES}. */
  readonly maxFetchBytes?: number;
  /**
   * Bytes of watch events a watcher may be behind on (queued, or written and unread) before it loses them and is
   * sent a gap; default {@link DEFAULT_MAX_WATCH_BACKLOG_BYTES}.
   */
  readonly maxWatchBacklogBytes?: number;
  /** Rooms held at once; default @orphus/rooms' DEFAULT_MAX_ROOMS (64). */
  readonly maxRooms?: number;
  /** Member roles per room; default @orphus/rooms' DEFAULT_MAX_MEMBERS (32). */
  readonly maxMembers?: number;
  /** Largest post body in UTF-8 bytes; default @orphus/rooms' DEFAULT_MAX_BODY_BYTES (32 KiB). */
  readonly maxBodyBytes?: number;
  /** Largest post headline in UTF-8 bytes; default @orphus/rooms' DEFAULT_MAX_HEADLINE_BYTES (256). */
  readonly maxHeadlineBytes?: number;
  /** Messages each room retains; default @orphus/rooms' DEFAULT_RING_CAPACITY (500). */
  readonly roomCapacity?: number;
  /**
   * The broker's memory ceiling for message text: bytes all rooms hold together, counted two per UTF-16 code unit of
   * each body and headline; default @orphus/rooms' DEFAULT_MAX_HELD_BYTES (128 MiB). A post that takes the total
   * past it evicts the oldest messages of the largest rooms (never the post itself), which their readers are told
   * of as evicted, as for the ring's own evictions. At least twice `maxBodyBytes` plus `maxHeadlineBytes`. Only for
   * the memory store: on Redis the rooms are not in this process (refused there).
   */
  readonly maxHeldBytes?: number;
  /**
   * Keyed posts per room whose idempotency keys are remembered, so a retried post is answered with its original
   * seq; default @orphus/roundtable-protocol's IDEMPOTENCY_KEY_WINDOW (1024); 0 remembers none.
   */
  readonly postKeyWindow?: number;
  /** Pause between checks that the socket path still names this broker's socket; default {@link DEFAULT_PATH_CHECK_MS}. */
  readonly pathCheckMs?: number;
  /**
   * Where the rooms are kept. `"memory"` (the default): this process's memory, gone with it. A `redis://` or
   * `rediss://` URL: a Redis shared with the brokers of other hosts, through `@orphus/rooms-redis` (an optional peer
   * dependency, loaded only then); the URL may carry an ACL user and password, so take it from the environment or a
   * file (`resolveStoreSetting`), never from a command line. Or an opened `RoomStore`, whose limits then apply
   * (the room-limit options must be left out). The broker closes its store when it closes.
   */
  readonly store?: string | RoomStore;
  /**
   * Requests of one connection held while an earlier one waits for the store; past it the connection is not read
   * until they drain. Default {@link DEFAULT_MAX_QUEUED_REQUESTS}.
   */
  readonly maxQueuedRequests?: number;
  /** Epoch milliseconds, for message times and uptime; default `Date.now`. */
  readonly clock?: () => number;
  /** Default: the global setTimeout and clearTimeout. */
  readonly timers?: BrokerTimers;
  /** Default: silent. */
  readonly logger?: BrokerLogger;
  /** Platform whose socket rules apply; default `process.platform`. */
  readonly platform?: NodeJS.Platform;
}

/** BrokerOptions with every default applied and every value checked. */
export interface ResolvedBrokerOptions {
  readonly agentDir: string;
  readonly idleMs: number;
  readonly ownsProcess: boolean;
  readonly probeTimeoutMs: number;
  readonly helloTimeoutMs: number;
  readonly registryDir: string | false;
  readonly maxConnections: number;
  readonly maxFrameBytes: number;
  readonly maxOutboundBytes: number;
  readonly pingDropBytes: number;
  readonly maxFetchBytes: number;
  readonly maxWatchBacklogBytes: number;
  readonly maxRooms: number;
  readonly maxMembers: number;
  readonly maxBodyBytes: number;
  readonly maxHeadlineBytes: number;
  readonly roomCapacity: number;
  /** Undefined for a store other than memory, which holds no message text here. */
  readonly maxHeldBytes: number | undefined;
  readonly postKeyWindow: number;
  readonly pathCheckMs: number;
  readonly store: string | RoomStore;
  readonly maxQueuedRequests: number;
  readonly clock: () => number;
  readonly timers: BrokerTimers;
  readonly logger: BrokerLogger;
  readonly platform: NodeJS.Platform;
}

function integer(
  option: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const resolved = value ?? fallback;
  if (!Number.isSafeInteger(resolved) || resolved < min || resolved > max) {
    throw new BrokerOptionError(option, `an integer from ${min} to ${max}`, resolved);
  }
  return resolved;
}

const ROOM_LIMIT_OPTIONS = [
  "maxRooms",
  "maxMembers",
  "maxBodyBytes",
  "maxHeadlineBytes",
  "roomCapacity",
  "maxHeldBytes",
  "postKeyWindow",
] as const;

/**
 * The text budget of a memory store, default applied and checked: at least the largest message (two bytes a unit,
 * and a body within N UTF-8 bytes has at most N units). Undefined for another store, which holds no text here; given
 * there, it is refused rather than ignored, since it would bound nothing.
 */
function heldBytesOption(
  options: BrokerOptions,
  store: string | RoomStore,
  maxBodyBytes: number,
  maxHeadlineBytes: number,
): number | undefined {
  if (store !== MEMORY_STORE) {
    if (options.maxHeldBytes !== undefined && typeof store === "string") {
      throw new BrokerOptionError(
        "maxHeldBytes",
        "to be left out with a Redis store (its rooms are held in Redis, not in the broker: bound Redis with maxmemory)",
        options.maxHeldBytes,
      );
    }
    return undefined;
  }
  const least = 2 * (maxBodyBytes + maxHeadlineBytes);
  return integer("maxHeldBytes", options.maxHeldBytes, Math.max(DEFAULT_MAX_HELD_BYTES, least), least);
}

/** Checks `options.store` before any I/O; throws BrokerOptionError, quoting a URL masked. */
function checkStoreOption(options: BrokerOptions): string | RoomStore {
  const store = options.store ?? MEMORY_STORE;
  if (typeof store === "string") {
    if (store === MEMORY_STORE || isRedisStoreUrl(store)) return store;
    throw new BrokerOptionError(
      "store",
      '"memory", a redis:// or rediss:// URL with a host, or a RoomStore',
      maskStoreSetting(store),
    );
  }
  if (typeof store !== "object" || store === null || typeof store.post !== "function") {
    throw new BrokerOptionError(
      "store",
      '"memory", a redis:// or rediss:// URL with a host, or a RoomStore',
      typeof store,
    );
  }
  const given = ROOM_LIMIT_OPTIONS.filter((option) => options[option] !== undefined);
  if (given.length > 0) {
    throw new BrokerOptionError(
      given.join(", "),
      "to be left out when a RoomStore is given (the store's limits apply)",
      "a value",
    );
  }
  return store;
}

/** Applies defaults and checks every option, so a bad one fails before the broker touches the file system. */
export function resolveBrokerOptions(options: BrokerOptions): ResolvedBrokerOptions {
  if (typeof options?.agentDir !== "string" || options.agentDir === "") {
    throw new BrokerOptionError("agentDir", "a non-empty directory path", options?.agentDir);
  }
  const maxFrameBytes = integer(
    "maxFrameBytes",
    options.maxFrameBytes,
    DEFAULT_BROKER_MAX_FRAME_BYTES,
    1024,
    0xffff_ffff,
  );
  const resolved: ResolvedBrokerOptions = {
    agentDir: options.agentDir,
    idleMs: integer("idleMs", options.idleMs, DEFAULT_IDLE_MS, 0, 2 ** 31 - 1),
    ownsProcess: options.ownsProcess ?? false,
    probeTimeoutMs: integer("probeTimeoutMs", options.probeTimeoutMs, DEFAULT_PROBE_TIMEOUT_MS, 1, 2 ** 31 - 1),
    helloTimeoutMs: integer("helloTimeoutMs", options.helloTimeoutMs, DEFAULT_HELLO_TIMEOUT_MS, 1, 2 ** 31 - 1),
    registryDir: options.registryDir ?? resolveRegistryDir(),
    maxConnections: integer("maxConnections", options.maxConnections, DEFAULT_MAX_CONNECTIONS, 1),
    maxFrameBytes,
    // At least one frame of the largest size must fit, or a single legitimate reply would close its connection.
    maxOutboundBytes: integer(
      "maxOutboundBytes",
      options.maxOutboundBytes,
      Math.max(DEFAULT_MAX_OUTBOUND_BYTES, 2 * maxFrameBytes),
      maxFrameBytes + 4,
    ),
    pingDropBytes: integer("pingDropBytes", options.pingDropBytes, DEFAULT_PING_DROP_BYTES, 0),
    maxFetchBytes: integer(
      "maxFetchBytes",
      options.maxFetchBytes,
      Math.min(DEFAULT_MAX_FETCH_BYTES, Math.floor(maxFrameBytes / 2)),
      1,
    ),
    maxWatchBacklogBytes: integer(
      "maxWatchBacklogBytes",
      options.maxWatchBacklogBytes,
      DEFAULT_MAX_WATCH_BACKLOG_BYTES,
      1024,
    ),
    maxRooms: integer("maxRooms", options.maxRooms, DEFAULT_MAX_ROOMS, 1),
    maxMembers: integer("maxMembers", options.maxMembers, DEFAULT_MAX_MEMBERS, 1),
    maxBodyBytes: integer("maxBodyBytes", options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 0),
    maxHeadlineBytes: integer("maxHeadlineBytes", options.maxHeadlineBytes, DEFAULT_MAX_HEADLINE_BYTES, 0),
    roomCapacity: integer("roomCapacity", options.roomCapacity, DEFAULT_RING_CAPACITY, 1),
    postKeyWindow: integer("postKeyWindow", options.postKeyWindow, IDEMPOTENCY_KEY_WINDOW, 0, 1_000_000),
    pathCheckMs: integer("pathCheckMs", options.pathCheckMs, DEFAULT_PATH_CHECK_MS, 1, 2 ** 31 - 1),
    maxHeldBytes: undefined,
    store: checkStoreOption(options),
    maxQueuedRequests: integer(
      "maxQueuedRequests",
      options.maxQueuedRequests,
      DEFAULT_MAX_QUEUED_REQUESTS,
      1,
      1_000_000,
    ),
    clock: options.clock ?? Date.now,
    timers: options.timers ?? globalTimers,
    logger: options.logger ?? silentLogger,
    platform: options.platform ?? process.platform,
  };
  const { store, maxBodyBytes, maxHeadlineBytes } = resolved;
  const withBudget = { ...resolved, maxHeldBytes: heldBytesOption(options, store, maxBodyBytes, maxHeadlineBytes) };
  if (typeof resolved.clock !== "function")
    throw new BrokerOptionError("clock", "a function returning epoch ms", resolved.clock);
  if (resolved.registryDir !== false && (typeof resolved.registryDir !== "string" || resolved.registryDir === "")) {
    throw new BrokerOptionError("registryDir", "a directory path or false", resolved.registryDir);
  }
  if (typeof resolved.ownsProcess !== "boolean") {
    throw new BrokerOptionError("ownsProcess", "a boolean", resolved.ownsProcess);
  }
  return withBudget;
}
