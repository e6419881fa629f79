import { randomBytes } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";
import { encodeFrame, frameText, type FrameText, type FrameTooLargeError } from "@orphus/framing";
import { hasErrorCode } from "@orphus/internal";
import { isPromiseLike, type Awaitable, type RoomStore } from "@orphus/rooms";
import {
  brokerPidPath,
  brokerSocketPath,
  checkSocketPath,
  ensureBrokerDir,
  registerBroker,
  removeRegistryEntry,
  type ProbeAnswer,
} from "@orphus/roundtable-locator";
import {
  PROTOCOL_NAME,
  PROTOCOL_VERSION,
  clipMessage,
  isCompatiblePeer,
  notWatcherMessage,
  parseRequest,
  watcherConnectionMessage,
  WATCH_SINCE_VERSION,
  protocolMismatchMessage,
  readPeerProtocol,
  wireErrorForPeer,
  type ErrorReply,
  type OkReply,
  type Op,
  type ResultFor,
  type RoundtableRequest,
  type WireError,
} from "@orphus/roundtable-protocol";
import { claimSocket } from "./claim.js";
import type { ClaimHooks } from "./reclaim.js";
import { BrokerConnection, type ConnectionHost } from "./connection.js";
import { RefusalError } from "./errors.js";
import { isRecord } from "@orphus/internal";
import { idOf } from "./frame-fields.js";
import { FullRefusals } from "./full-refusal.js";
import { Outbox } from "./outbox.js";
import { resolveBrokerOptions, type BrokerOptions, type ResolvedBrokerOptions, type TimerHandle } from "./options.js";
import { watchSocketPath } from "./path-watch.js";
import { removePidFile, writePidFile } from "./pidfile.js";
import { PostReplyWriter, type PostReply } from "./post-reply.js";
import { RoomService } from "./service.js";
import { releaseSocket, type SocketIdentity } from "./socket-file.js";
import { openBrokerStore } from "./store.js";
import { refusalFor, resetNotice, storeDescription } from "./store-refusal.js";
import { BROKER_VERSION } from "./version.js";

/** A request the room service serves: every op but hello, which the broker answers itself. */
type ServedRequest = Exclude<RoundtableRequest, { op: "hello" }>;

/** Why a broker closed. */
export interface BrokerClosed {
  /**
   * "idle": no connection for idleMs. "close": its close() was called. "path-lost": its socket path came to name
   * something else (the file was removed or replaced), so nobody new could reach it; it says so in its log.
   */
  readonly reason: "idle" | "close" | "path-lost";
}

/** Counters of a running broker. */
export interface BrokerStats {
  readonly connections: number;
  /** Rooms this broker has served; on a shared store, other brokers may hold more (the rooms op lists them all). */
  readonly rooms: number;
  /** Pings dropped for slow readers since start. */
  readonly pingsDropped: number;
  /** Connections closed because their outbound queue passed the high-water mark. */
  readonly backpressureCloses: number;
  /** Connections destroyed because a frame failed to decode. */
  readonly framingCloses: number;
  /** Connections closed because they did not say hello within the hello timeout. */
  readonly helloTimeouts: number;
  /** Connections refused with ERR_TOO_MANY_CONNECTIONS because the broker served its maximum. */
  readonly connectionsRefused: number;
  /** Watcher connections that asked watch (docs/protocol.md, "Watching"). */
  readonly watchers: number;
  /** Watch events dropped for watchers that were behind (each was then sent a gap), since start. */
  readonly watchEventsDropped: number;
  /** Bytes of watch events and replies queued for the open watchers, or written and not yet read by them. */
  readonly watchBacklogBytes: number;
}

/** A listening broker. */
export interface Broker {
  /** Where it listens: a Unix socket path, or a named pipe on Windows. */
  readonly socketPath: string;
  readonly agentDir: string;
  readonly pid: number;
  /** Epoch milliseconds, from the injected clock. */
  readonly startedAt: number;
  /** This broker's entry in the registry of running brokers; undefined when it registers nowhere or could not. */
  readonly registryEntry: string | undefined;
  /** Where its rooms are, every secret masked: "memory", or the store URL with its password masked. */
  readonly store: string;
  /** Resolves once the broker has closed, for whatever reason; never rejects. */
  readonly closed: Promise<BrokerClosed>;
  /** Stops listening, removes its own socket file and pid file, closes every connection; resolves with `closed`. */
  close(): Promise<BrokerClosed>;
  stats(): BrokerStats;
}

/** What {@link startBroker} did. */
export type BrokerStart =
  | { readonly status: "listening"; readonly broker: Broker }
  | {
      readonly status: "stood-down";
      readonly socketPath: string;
      /** "answered": a live broker answered the probe. "address-in-use": the path stayed taken. */
      readonly reason: "answered" | "address-in-use";
      /** The answering broker, as far as its reply said. */
      readonly peer?: ProbeAnswer;
    };

/**
 * Starts the broker of `options.agentDir`, or stands down when one already answers there.
 *
 * The room store is opened first (`options.store`; by default the memory store), so a broker configured for a
 * store it cannot reach never claims the socket: it throws StoreOpenError within the store's timeout and never
 * falls back to memory. Resolves `{ status: "listening", broker }` once the socket is claimed and the pid file
 * written, or `{ status: "stood-down" }` when a live broker holds the path (which is not an error: the caller's
 * broker is running; the store it opened is closed). Throws BrokerOptionError, StoreOpenError,
 * StorePackageMissingError, SocketPathTooLongError, BrokerDirectoryError, SocketPathOccupiedError or
 * BrokerListenError.
 */
export async function startBroker(options: BrokerOptions): Promise<BrokerStart> {
  return startBrokerWithHooks(options, undefined);
}

/**
 * {@link startBroker}, paused by `claimHooks` at the points of its claim where a rival broker may act: the seam the
 * tests of those interleavings drive. Not exported from the package: a hook is a test's instrument, not an option.
 */
export async function startBrokerWithHooks(
  options: BrokerOptions,
  claimHooks: ClaimHooks | undefined,
): Promise<BrokerStart> {
  const resolved = resolveBrokerOptions(options);
  const socketPath = brokerSocketPath(resolved.agentDir, resolved.platform);
  checkSocketPath(socketPath, resolved.platform);
  ensureBrokerDir(resolved.agentDir, resolved.platform);
  const store = await openBrokerStore(resolved);
  try {
    return await claimAndListen(resolved, socketPath, store, claimHooks);
  } catch (error) {
    await store.close();
    throw error;
  }
}

async function claimAndListen(
  resolved: ResolvedBrokerOptions,
  socketPath: string,
  store: RoomStore,
  claimHooks: ClaimHooks | undefined,
): Promise<BrokerStart> {
  const server = createServer();
  const claim = await claimSocket({
    server,
    agentDir: resolved.agentDir,
    socketPath,
    pidPath: brokerPidPath(resolved.agentDir, resolved.platform),
    platform: resolved.platform,
    probeTimeoutMs: resolved.probeTimeoutMs,
    logger: resolved.logger,
    ...(claimHooks === undefined ? {} : { hooks: claimHooks }),
  });
  if (claim.kind === "stood-down") {
    resolved.logger.info("another broker holds the socket; standing down", {
      socketPath,
      reason: claim.reason,
      peerPid: claim.peer?.pid,
    });
    await store.close();
    const stood = { status: "stood-down" as const, socketPath, reason: claim.reason };
    return claim.peer === undefined ? stood : { ...stood, peer: claim.peer };
  }
  const broker = new RunningBroker(resolved, server, socketPath, claim.identity, store);
  return { status: "listening", broker };
}

class RunningBroker implements Broker, ConnectionHost {
  readonly agentDir: string;
  readonly pid = process.pid;
  readonly startedAt: number;
  readonly registryEntry: string | undefined;
  readonly closed: Promise<BrokerClosed>;
  readonly maxFrameBytes: number;
  /** The frame limit as framing takes it, made once. */
  readonly #framing: { readonly maxFrameBytes: number };
  readonly #postReplies = new PostReplyWriter();
  readonly maxOutboundBytes: number;
  readonly pingDropBytes: number;
  readonly outbox = new Outbox();
  readonly maxQueuedRequests: number;
  readonly store: string;
  readonly #options: ResolvedBrokerOptions;
  readonly #server: Server;
  readonly #identity: SocketIdentity | undefined;
  readonly #pidPath: string;
  readonly #service: RoomService;
  readonly #connections = new Set<BrokerConnection>();
  readonly #instance = randomBytes(8).toString("hex");
  readonly #refusals: FullRefusals;
  readonly #stopPathWatch: () => void;
  #nextConnectionId = 1;
  #idleTimer: TimerHandle | undefined;
  #closing: Promise<BrokerClosed> | undefined;
  #resolveClosed!: (closed: BrokerClosed) => void;
  #backpressureCloses = 0;
  #framingCloses = 0;
  #helloTimeouts = 0;

  constructor(
    options: ResolvedBrokerOptions,
    server: Server,
    readonly socketPath: string,
    identity: SocketIdentity | undefined,
    store: RoomStore,
  ) {
    this.#options = options;
    this.#server = server;
    this.#identity = identity;
    this.agentDir = options.agentDir;
    this.startedAt = options.clock();
    this.maxFrameBytes = options.maxFrameBytes;
    this.#framing = { maxFrameBytes: options.maxFrameBytes };
    this.maxOutboundBytes = options.maxOutboundBytes;
    this.pingDropBytes = options.pingDropBytes;
    this.maxQueuedRequests = options.maxQueuedRequests;
    this.store = storeDescription(store);
    this.#pidPath = brokerPidPath(options.agentDir, options.platform);
    this.#service = new RoomService(store, options);
    this.#refusals = new FullRefusals({
      maxConnections: options.maxConnections,
      brokerPid: this.pid,
      timers: options.timers,
    });
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
    server.on("connection", (socket) => this.#accept(socket));
    server.on("error", (error) => options.logger.error("server error", { error: error.message }));
    writePidFile(this.#pidPath, {
      pid: this.pid,
      socketPath,
      version: BROKER_VERSION,
      startedAt: this.startedAt,
      instance: this.#instance,
    });
    this.registryEntry = this.#register();
    options.logger.info("broker listening", { socketPath, pid: this.pid, version: BROKER_VERSION, store: this.store });
    this.#stopPathWatch =
      identity === undefined
        ? () => undefined
        : watchSocketPath({
            socketPath,
            identity,
            timers: options.timers,
            everyMs: options.pathCheckMs,
            onLost: (found) => this.#pathLost(found),
          });
    this.#armIdle();
  }

  /** The socket path names something else now: nobody new can reach this broker, so it must not hold rooms. */
  #pathLost(found: string): void {
    this.#options.logger.error(
      "the socket path no longer names this broker's socket; closing, since nobody can reach it there",
      { socketPath: this.socketPath, found, pid: this.pid, connections: this.#connections.size },
    );
    void this.#shutdown("path-lost");
  }

  /** Adds this broker to the per-user registry; a failure is logged, never fatal (the registry is diagnostic). */
  #register(): string | undefined {
    const dir = this.#options.registryDir;
    if (dir === false) return undefined;
    try {
      return registerBroker(dir, {
        pid: this.pid,
        instance: this.#instance,
        agentDir: this.agentDir,
        socketPath: this.socketPath,
        brokerVersion: BROKER_VERSION,
        protocol: PROTOCOL_NAME,
        protocolVersion: PROTOCOL_VERSION,
        startedAt: Math.round(this.startedAt),
        store: this.store,
      });
    } catch (error) {
      this.#options.logger.warn("running unregistered: the broker registry cannot be written", {
        error: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
  }

  stats(): BrokerStats {
    return {
      connections: this.#connections.size,
      rooms: this.#service.roomCount,
      pingsDropped: this.#service.pingsDropped(this.#connections),
      backpressureCloses: this.#backpressureCloses,
      framingCloses: this.#framingCloses,
      helloTimeouts: this.#helloTimeouts,
      connectionsRefused: this.#refusals.refused,
      watchers: this.#service.watch.watchers,
      watchEventsDropped: this.#service.watch.eventsDropped,
      watchBacklogBytes: this.#service.watch.backlogBytes,
    };
  }

  close(): Promise<BrokerClosed> {
    return this.#shutdown("close");
  }

  // --- connections -------------------------------------------------------------------------------------------

  #accept(socket: Socket): void {
    if (this.#closing !== undefined) {
      socket.destroy();
      return;
    }
    if (this.#connections.size >= this.#options.maxConnections) {
      this.#refusals.refuse(socket);
      this.#options.logger.warn("refused a connection: connection limit reached", {
        maxConnections: this.#options.maxConnections,
        refused: this.#refusals.refused,
      });
      return;
    }
    this.#cancelIdle();
    const connection = new BrokerConnection(this.#nextConnectionId++, socket, this);
    this.#connections.add(connection);
    const { timers, helloTimeoutMs } = this.#options;
    connection.helloTimer = timers.setTimeout(() => this.#helloTimedOut(connection), helloTimeoutMs);
  }

  /** Ends the wait for a connection's hello, if it is still running. */
  #clearHelloTimer(connection: BrokerConnection): void {
    if (connection.helloTimer === undefined) return;
    this.#options.timers.clearTimeout(connection.helloTimer);
    connection.helloTimer = undefined;
  }

  /** A connection that never said hello: told why (when its queue is empty) and closed. */
  #helloTimedOut(connection: BrokerConnection): void {
    connection.helloTimer = undefined;
    if (connection.role !== undefined || connection.closeReason !== undefined) return;
    this.#helloTimeouts++;
    const { helloTimeoutMs } = this.#options;
    this.#options.logger.warn("closing connection: no hello within the hello timeout", {
      connection: connection.id,
      helloTimeoutMs,
    });
    const refusal: ErrorReply = {
      id: null,
      ok: false,
      error: {
        code: "ERR_HELLO_REQUIRED",
        message: `No hello within ${helloTimeoutMs} ms of connecting; the broker closes connections that do not say hello`,
        details: { helloTimeoutMs },
      },
    };
    // A peer that is not reading gets no last word: the frame would only wait behind its backlog.
    if (connection.queuedBytes === 0) connection.endWith(encodeFrame(refusal), "hello-timeout");
    else connection.destroy("hello-timeout");
  }

  onClose(connection: BrokerConnection): void {
    this.#clearHelloTimer(connection);
    if (!this.#connections.delete(connection)) return;
    this.#service.drop(connection);
    if (this.#connections.size === 0) this.#armIdle();
  }

  onFramingError(connection: BrokerConnection, error: unknown): void {
    this.#framingCloses++;
    this.#options.logger.warn("closing connection: a frame failed to decode", {
      connection: connection.id,
      role: connection.role,
      error: error instanceof Error ? error.message : String(error),
    });
  }

  onBackpressure(connection: BrokerConnection, queuedBytes: number): void {
    this.#backpressureCloses++;
    this.#options.logger.warn(
      "closing connection: outbound queue passed the high-water mark; the peer is not reading",
      {
        connection: connection.id,
        role: connection.role,
        queuedBytes,
        maxOutboundBytes: this.#options.maxOutboundBytes,
      },
    );
  }

  // --- requests ----------------------------------------------------------------------------------------------

  /**
   * Serves one frame of a connection (which calls it for one frame at a time, in order). Answers a promise when the
   * reply waits for the store; never rejects.
   */
  onFrame(connection: BrokerConnection, value: unknown): void | Promise<void> {
    if (this.#closing !== undefined) {
      this.#refuse(connection, idOf(value), undefined, {
        code: "ERR_SHUTTING_DOWN",
        message: "The broker is shutting down; reconnect and a new broker starts",
      });
      return;
    }
    if (isRecord(value) && value["op"] === "hello") {
      const peer = readPeerProtocol(value);
      if (peer !== undefined && !isCompatiblePeer(peer)) {
        this.#refuseVersion(connection, idOf(value), peer);
        return;
      }
    }
    const parsed = parseRequest(value);
    if (!parsed.ok) {
      this.#refuse(connection, parsed.id, parsed.op, parsed.error);
      return;
    }
    const request = parsed.request;
    if (request.op === "hello") {
      if (connection.role !== undefined) {
        this.#refuse(connection, request.id, "hello", {
          code: "ERR_HELLO_REPEATED",
          message: `This connection already said hello as "${connection.role}"; open a new connection to change role`,
        });
        return;
      }
      if (request.watch === true && request.version < WATCH_SINCE_VERSION) {
        this.#refuse(connection, request.id, "hello", {
          code: "ERR_INVALID_REQUEST",
          message: `Invalid hello request: watch needs protocol version ${WATCH_SINCE_VERSION} or later, got ${request.version}`,
          details: { version: request.version, watchSinceVersion: WATCH_SINCE_VERSION },
        });
        return;
      }
      connection.role = request.role;
      connection.peerVersion = request.version;
      // A watcher is no member of anything: its role is not counted among the role's connections.
      if (request.watch === true) connection.watcher = true;
      else this.#service.attach(connection, request.role);
      this.#clearHelloTimer(connection);
      this.#reply(connection, {
        id: request.id,
        ok: true,
        op: "hello",
        result: {
          protocol: PROTOCOL_NAME,
          version: PROTOCOL_VERSION,
          role: request.role,
          brokerPid: this.pid,
          brokerVersion: BROKER_VERSION,
          store: this.store,
          // New at every start: a client that meets another one knows the broker restarted.
          brokerInstance: this.#instance,
        },
      });
      return;
    }
    const role = connection.role;
    if (role === undefined) {
      this.#refuse(connection, request.id, request.op, {
        code: "ERR_HELLO_REQUIRED",
        message: `Say hello before ${request.op}: the first request on a connection names the protocol and the role`,
      });
      return;
    }
    // The store lost its data since this connection was last told: whatever room it names, its membership is gone.
    if ("room" in request && this.#service.owesReset(connection)) {
      this.#fail(connection, request, new RefusalError(resetNotice(this.#service.store)));
      return;
    }
    // One path for every store: a synchronous answer (memory) is replied to at once and allocates no promise; a
    // promise (Redis) is replied to when it settles, and the connection holds its later requests until then.
    let result: Awaitable<ResultFor<Op>>;
    try {
      result = this.#dispatch(connection, role, request);
    } catch (error) {
      this.#fail(connection, request, error);
      return;
    }
    if (!isPromiseLike(result)) {
      this.#succeed(connection, request, result);
      return;
    }
    return result.then(
      (answer) => this.#succeed(connection, request, answer),
      (error: unknown) => this.#fail(connection, request, error),
    );
  }

  #dispatch(connection: BrokerConnection, role: string, request: ServedRequest): Awaitable<ResultFor<Op>> {
    const service = this.#service;
    if (connection.watcher) return this.#dispatchWatcher(connection, role, request);
    switch (request.op) {
      case "join":
        return service.join(connection, role, request);
      case "leave":
        return service.leave(connection, role, request);
      case "post":
        return service.post(connection, role, request);
      case "digest":
        return service.digest(connection, role, request);
      case "fetch":
        return service.fetch(connection, role, request);
      case "rooms":
        return service.rooms(connection, role);
      case "members":
        return service.members(connection, role, request);
      case "status":
        return this.#status();
      case "watch":
      case "peek":
        // A client before version 3 does not know these ops: to it they are unknown, as to a version-2 broker.
        if (connection.peerVersion < WATCH_SINCE_VERSION) {
          throw new RefusalError({
            code: "ERR_UNKNOWN_OP",
            message: `Unknown op "${request.op}" for protocol version ${connection.peerVersion}: it needs version ${WATCH_SINCE_VERSION}`,
          });
        }
        throw new RefusalError({ code: "ERR_NOT_WATCHER", message: notWatcherMessage(request.op) });
    }
  }

  /** What a watcher may ask: watch, peek, and the ops that change nothing; member ops are refused. */
  #dispatchWatcher(connection: BrokerConnection, role: string, request: ServedRequest): Awaitable<ResultFor<Op>> {
    const service = this.#service;
    switch (request.op) {
      case "watch":
        return service.watch.snapshot(connection, {
          pid: this.pid,
          instance: this.#instance,
          store: this.store,
          protocol: PROTOCOL_VERSION,
          startedAt: Math.max(0, Math.round(this.startedAt)),
        });
      case "peek":
        return service.peek(request);
      case "rooms":
        return service.rooms(connection, role);
      case "members":
        return service.members(connection, role, request);
      case "status":
        return this.#status();
      case "join":
      case "leave":
      case "post":
      case "digest":
      case "fetch":
        throw new RefusalError({ code: "ERR_WATCHER_CONNECTION", message: watcherConnectionMessage(request.op) });
    }
  }

  #succeed(connection: BrokerConnection, request: ServedRequest, result: ResultFor<Op>): void {
    const reply = { id: request.id, ok: true, op: request.op, result } as OkReply;
    if (reply.op === "post") {
      // The frame every post is answered with, written from its template (post-reply.ts).
      const frame = this.#postReplies.frame(reply as PostReply);
      if (frame.payloadBytes <= this.#framing.maxFrameBytes) {
        connection.sendReply(frame);
        return;
      }
    }
    this.#reply(connection, reply);
  }

  /** Refuses a request that failed: a refusal as the store or the service worded it, else ERR_INTERNAL (logged). */
  #fail(connection: BrokerConnection, request: ServedRequest, error: unknown): void {
    const room = "room" in request ? request.room : undefined;
    const wire = error instanceof RefusalError ? error.wire : refusalFor(error, room ?? "", request.op);
    if (wire !== undefined) {
      // A refusal for the reset, whichever request met it, tells the connection: it owes no further one.
      if (wire.code === "ERR_STORE_RESET") this.#service.resetTold(connection);
      // A client older than the store's codes cannot parse them, and would close its connection over one.
      this.#refuse(connection, request.id, request.op, wireErrorForPeer(wire, connection.peerVersion, room));
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    this.#options.logger.error("request failed", { op: request.op, connection: connection.id, error: message });
    this.#refuse(connection, request.id, request.op, {
      code: "ERR_INTERNAL",
      message: clipMessage(`The broker failed on ${request.op}: ${message}`),
    });
  }

  #status(): ResultFor<"status"> {
    const stats = this.stats();
    return {
      pid: this.pid,
      uptimeMs: Math.max(0, Math.round(this.#options.clock() - this.startedAt)),
      version: BROKER_VERSION,
      protocol: PROTOCOL_NAME,
      protocolVersion: PROTOCOL_VERSION,
      rooms: stats.rooms,
      connections: stats.connections,
      socketPath: this.socketPath,
      pingsDropped: stats.pingsDropped,
      store: this.store,
      storeAvailable: this.#service.storeAvailable,
      ...this.#heldText(),
    };
  }

  /** What the store holds in this process against its budget, when it holds the rooms here (the memory store). */
  #heldText(): Pick<ResultFor<"status">, "heldText"> {
    const heldText = this.#service.store.heldText?.();
    return heldText === undefined ? {} : { heldText };
  }

  #refuseVersion(connection: BrokerConnection, id: number | null, peer: { protocol: string; version: number }): void {
    const mismatch = {
      brokerProtocol: PROTOCOL_NAME,
      brokerVersion: PROTOCOL_VERSION,
      brokerPid: this.pid,
      brokerIdleMs: this.#options.idleMs,
      peerProtocol: peer.protocol,
      peerVersion: peer.version,
    };
    const { brokerIdleMs: _idle, ...details } = mismatch;
    const reply: ErrorReply = {
      id,
      ok: false,
      op: "hello",
      error: { code: "ERR_PROTOCOL_MISMATCH", message: protocolMismatchMessage(mismatch), details },
    };
    this.#options.logger.warn("refused a peer of another protocol version", { ...details, connection: connection.id });
    connection.endWith(encodeFrame(reply, this.#framing), "refused");
  }

  #refuse(connection: BrokerConnection, id: number | null, op: string | undefined, error: WireError): void {
    const reply: ErrorReply = op === undefined ? { id, ok: false, error } : { id, ok: false, op, error };
    this.#reply(connection, reply);
  }

  /** Queues `reply`, or ERR_REPLY_TOO_LARGE when it passes the frame limit. */
  #reply(connection: BrokerConnection, reply: OkReply | ErrorReply): void {
    let frame: FrameText;
    try {
      frame = frameText(reply, this.#framing);
    } catch (error) {
      if (!hasErrorCode<FrameTooLargeError>(error, "ERR_FRAME_TOO_LARGE")) throw error;
      const tooLarge: ErrorReply = {
        id: reply.id,
        ok: false,
        op: reply.op,
        error: {
          code: "ERR_REPLY_TOO_LARGE",
          message: `The reply would be ${error.length} bytes, past the frame limit of ${error.maxFrameBytes}; ask for less`,
          details: { bytes: error.length, maxFrameBytes: error.maxFrameBytes },
        },
      };
      frame = frameText(tooLarge, this.#framing);
    }
    connection.sendReply(frame);
  }

  // --- lifecycle ---------------------------------------------------------------------------------------------

  #armIdle(): void {
    this.#cancelIdle();
    if (this.#closing !== undefined) return;
    this.#idleTimer = this.#options.timers.setTimeout(() => {
      this.#idleTimer = undefined;
      if (this.#connections.size === 0) void this.#shutdown("idle");
    }, this.#options.idleMs);
  }

  #cancelIdle(): void {
    if (this.#idleTimer === undefined) return;
    this.#options.timers.clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }

  #shutdown(reason: BrokerClosed["reason"]): Promise<BrokerClosed> {
    if (this.#closing !== undefined) return this.#closing;
    this.#cancelIdle();
    this.#stopPathWatch();
    const closing = new Promise<BrokerClosed>((resolve) => {
      // Unlink first so no new client connects to a broker on its way out; only our own file is removed.
      releaseSocket(this.socketPath, this.#identity);
      removePidFile(this.#pidPath, { pid: this.pid, instance: this.#instance });
      if (this.registryEntry !== undefined) removeRegistryEntry(this.registryEntry);
      this.#server.close(() => resolve({ reason }));
      for (const connection of this.#connections) connection.destroy("shutdown");
      this.#refusals.destroyAll();
    });
    this.#closing = closing.then(async (closed) => {
      // After the connections: their roles are detached, and the store lets go of whatever is left.
      this.#service.stop();
      try {
        await this.#service.store.close();
      } catch (error) {
        this.#options.logger.warn("the room store did not close cleanly", {
          store: this.store,
          error: error instanceof Error ? error.message : String(error),
        });
      }
      this.#options.logger.info("broker closed", { reason, pid: this.pid });
      this.#resolveClosed(closed);
      if (this.#options.ownsProcess) process.exit(0);
      return closed;
    });
    return this.#closing;
  }
}
