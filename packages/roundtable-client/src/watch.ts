import type { Socket } from "node:net";
import {
  PROTOCOL_NAME,
  PROTOCOL_VERSION,
  type ResultFor,
  type WatchEvent as WireWatchEvent,
  type WatchedPost,
} from "@orphus/roundtable-protocol";
import { BrokerConnection } from "./connection.js";
import { locateBroker, type CreateRoundtableClientOptions } from "./create.js";
import { openBrokerSocket } from "./ensure.js";
import { ClientClosedError, ClientOptionError, WatchEndedError } from "./errors.js";
import { brokerFullFrom } from "./full-broker.js";

/** Options of {@link watchBroker}; the broker is located and started as `createRoundtableClient` does. */
export interface WatchBrokerOptions extends Pick<
  CreateRoundtableClientOptions,
  "agentDir" | "env" | "store" | "brokerCommand" | "brokerIdleMs" | "brokerLogPath" | "startTimeoutMs"
> {
  /**
   * The broker's socket; default the one `createRoundtableClient` resolves (from `agentDir` or the environment).
   * A broker named by its socket path is only connected to, never started.
   */
  readonly socketPath?: string;
  /** Start the broker when nothing answers, as a client does; default true. False: BrokerNotRunningError. */
  readonly startBroker?: boolean;
  /** Aborts the start (the promise rejects with the signal's reason) and, later, closes the watch. */
  readonly signal?: AbortSignal;
  /** The name the watcher gives in its hello, only a label in the broker's log (a watcher is no role); "viewer". */
  readonly label?: string;
  /** How long a request waits for its reply; default the client's (30 s). */
  readonly requestTimeoutMs?: number;
}

/** A live watch of a broker: a snapshot, then events, and full texts on demand. Changes nothing in the rooms. */
export interface BrokerWatch {
  /** The latest snapshot: taken when the watch began, replaced by each `resnapshot()`. */
  readonly snapshot: WatchSnapshot;
  /** Hears every watch event from now on (those that arrived before the first listener are handed to it). */
  onEvent(listener: (event: WatchEvent) => void): () => void;
  /** Hears the end of the watch: no error after close(), else a WatchEndedError saying what ended it. */
  onClose(listener: (error?: Error) => void): () => void;
  /** Takes a new snapshot, as after a gap event. */
  resnapshot(): Promise<WatchSnapshot>;
  /** A bounded page of a room's full texts; back from the newest unless `afterSeq` is given. Moves no cursor. */
  peek(
    room: string,
    options?: { beforeSeq?: number; afterSeq?: number; limit?: number; maxChars?: number },
  ): Promise<WatchPage>;
  /** Ends the watch. */
  close(): void;
}

/** The broker and every room, as a watcher sees them. */
export interface WatchSnapshot {
  broker: { pid: number; instance: string; store: string; protocol: number; startedAt: string };
  rooms: WatchRoom[];
}

/** One room of a snapshot. */
export interface WatchRoom {
  room: string;
  lastSeq: number;
  /** What the room holds now. */
  held: { messages: number; chars: number };
  members: { role: string; unread: number }[];
  /** One per role this broker ever served in this room. */
  served: ServedCounts[];
  /** The newest posts, at most 50, oldest first. */
  recent: WatchPost[];
}

/** Characters the broker served one role of a room: digest text, fetched message text, post events. */
export interface ServedCounts {
  role: string;
  digestChars: number;
  fetchChars: number;
  pingChars: number;
}

/** A post as a watcher sees it: its headline (sanitised, bounded by the broker), never its body. */
export interface WatchPost {
  seq: number;
  author: string;
  /** ISO time. */
  at: string;
  headline: string;
  chars: number;
}

/** What a watch hears. A gap means events were dropped: call resnapshot(). */
export type WatchEvent =
  | ({ kind: "post"; room: string } & WatchPost)
  | { kind: "members"; room: string; members: { role: string; unread: number }[] }
  | ({ kind: "served"; room: string; at: string } & ServedCounts)
  | { kind: "room"; room: string; held: { messages: number; chars: number }; lastSeq: number }
  | { kind: "gap"; dropped: number }
  | { kind: "reset"; room?: string };

/** A page of full texts. */
export interface WatchPage {
  room: string;
  messages: { seq: number; author: string; at: string; text: string; headline?: string }[];
  /** Reading back: older messages are retained. Reading forward: newer ones follow. */
  more: boolean;
  /** Reading forward from before the retained window: the seqs that left it. */
  evicted?: { from: number; to: number };
}

/** Events held while no listener is attached yet; past it they are replaced by a gap. */
const MAX_EARLY_EVENTS = 1024;

const iso = (ms: number): string => new Date(ms).toISOString();

function post({ seq, author, postedAt, headline, chars }: WatchedPost): WatchPost {
  return { seq, author, at: iso(postedAt), headline, chars };
}

function snapshotOf(result: ResultFor<"watch">): WatchSnapshot {
  const { broker } = result;
  return {
    broker: { ...broker, startedAt: iso(broker.startedAt) },
    rooms: result.rooms.map((room) => ({
      room: room.room,
      lastSeq: room.lastSeq,
      held: { ...room.held },
      members: room.members.map(({ role, unread }) => ({ role, unread })),
      served: room.served.map((counts) => ({ ...counts })),
      recent: room.recent.map(post),
    })),
  };
}

function eventOf(event: WireWatchEvent): WatchEvent {
  switch (event.kind) {
    case "post":
      return { kind: "post", room: event.room, ...post(event) };
    case "members":
      return { kind: "members", room: event.room, members: event.members };
    case "served": {
      const { room, role, digestChars, fetchChars, pingChars, at } = event;
      return { kind: "served", room, at: iso(at), role, digestChars, fetchChars, pingChars };
    }
    case "room":
      return { kind: "room", room: event.room, held: event.held, lastSeq: event.lastSeq };
    case "gap":
      return { kind: "gap", dropped: event.dropped };
    case "reset":
      return event.room === undefined ? { kind: "reset" } : { kind: "reset", room: event.room };
  }
}

/**
 * Watches the broker of an agent directory (version 3 of the wire): finds it as `createRoundtableClient` does,
 * starts it when nothing answers (unless `startBroker` is false), says hello as a watcher and takes a snapshot.
 * The watcher is no member of anything: no member list, digest, read cursor or ping of any role changes. Fails
 * with the client's errors by code: BrokerNotRunningError, BrokerStartError, BrokerFullError, ConnectionLostError,
 * RequestTimeoutError, or a WireRefusalError whose `wireCode` is the broker's (ERR_PROTOCOL_MISMATCH from a
 * broker older than version 3).
 */
export async function watchBroker(options: WatchBrokerOptions = {}): Promise<BrokerWatch> {
  const { signal } = options;
  signal?.throwIfAborted();
  const label = options.label ?? "viewer";
  if (typeof label !== "string") throw new ClientOptionError("label", "a role name", label);
  const {
    socketPath,
    startBroker,
    signal: _signal,
    label: _label,
    requestTimeoutMs,
    startTimeoutMs,
    ...where
  } = options;
  const location =
    socketPath === undefined
      ? locateBroker({ ...where, spawnBroker: startBroker !== false })
      : { socketPath, spawn: undefined };
  const opening = openBrokerSocket({
    socketPath: location.socketPath,
    spawn: location.spawn ?? false,
    ...(startTimeoutMs === undefined ? {} : { startTimeoutMs }),
  });
  const socket = await abortable(opening, signal, (late) => late.destroy());
  let watch: Watch;
  try {
    watch = new Watch(socket, requestTimeoutMs);
  } catch (error) {
    // An option the connection refuses (requestTimeoutMs out of range): the socket opened for it must not linger.
    socket.destroy();
    throw error;
  }
  try {
    await abortable(watch.start(label), signal);
  } catch (error) {
    watch.close();
    throw brokerFullFrom(error) ?? error;
  }
  signal?.addEventListener("abort", () => watch.close(), { once: true });
  return watch;
}

/** Resolves with `promise`, or rejects with the signal's reason once it aborts (`late` then disposes the value). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined, late?: (value: T) => void): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted) late?.(value);
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

class Watch implements BrokerWatch {
  readonly #connection: BrokerConnection;
  readonly #eventListeners = new Set<(event: WatchEvent) => void>();
  readonly #closeListeners = new Set<(error?: Error) => void>();
  /** Events that arrived before the first listener; handed to it. */
  #early: WatchEvent[] | undefined = [];
  #snapshot: WatchSnapshot | undefined;
  #closedByUs = false;
  #ended = false;

  constructor(socket: Socket, requestTimeoutMs: number | undefined) {
    this.#connection = new BrokerConnection(socket, {
      ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }),
      onWatchEvent: (event) => this.#heard(eventOf(event)),
      onClose: (reason) => this.#end(reason),
    });
  }

  async start(label: string): Promise<void> {
    await this.#connection.request("hello", {
      protocol: PROTOCOL_NAME,
      version: PROTOCOL_VERSION,
      role: label,
      pid: process.pid,
      watch: true,
    });
    await this.resnapshot();
  }

  get snapshot(): WatchSnapshot {
    if (this.#snapshot === undefined) throw new ClientClosedError("watch");
    return this.#snapshot;
  }

  onEvent(listener: (event: WatchEvent) => void): () => void {
    this.#eventListeners.add(listener);
    const early = this.#early;
    if (early !== undefined) {
      this.#early = undefined;
      queueMicrotask(() => {
        for (const event of early) this.#tell(event);
      });
    }
    return () => this.#eventListeners.delete(listener);
  }

  onClose(listener: (error?: Error) => void): () => void {
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  async resnapshot(): Promise<WatchSnapshot> {
    if (this.#ended) throw new ClientClosedError("watch");
    this.#snapshot = snapshotOf(await this.#connection.request("watch", {}));
    return this.#snapshot;
  }

  async peek(
    room: string,
    options: { beforeSeq?: number; afterSeq?: number; limit?: number; maxChars?: number } = {},
  ): Promise<WatchPage> {
    if (this.#ended) throw new ClientClosedError("peek");
    const page = await this.#connection.request("peek", { room, ...options });
    const messages = page.messages.map(({ seq, author, postedAt, body, headline }) =>
      headline === undefined
        ? { seq, author, at: iso(postedAt), text: body }
        : { seq, author, at: iso(postedAt), text: body, headline },
    );
    const result: WatchPage = { room: page.room, messages, more: page.more };
    if (page.evicted !== undefined) result.evicted = { from: page.evicted.fromSeq, to: page.evicted.toSeq };
    return result;
  }

  close(): void {
    if (this.#ended) return;
    this.#closedByUs = true;
    this.#connection.close();
  }

  #heard(event: WatchEvent): void {
    const early = this.#early;
    if (early === undefined) {
      this.#tell(event);
      return;
    }
    if (early.length < MAX_EARLY_EVENTS) {
      early.push(event);
      return;
    }
    // Full: the last slot becomes a gap counting every event it stands for, a gap from the broker by its own count.
    const last = early[early.length - 1];
    const arriving = event.kind === "gap" ? event.dropped : 1;
    const held = last?.kind === "gap" ? last.dropped : 1;
    early[early.length - 1] = { kind: "gap", dropped: held + arriving };
  }

  /** Hands an event to every listener; one that throws does not keep it from the others. */
  #tell(event: WatchEvent): void {
    for (const listener of this.#eventListeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own; the watch goes on.
      }
    }
  }

  #end(reason: string): void {
    if (this.#ended) return;
    this.#ended = true;
    const error = this.#closedByUs ? undefined : new WatchEndedError(reason);
    for (const listener of this.#closeListeners) {
      try {
        listener(error);
      } catch {
        // As for event listeners.
      }
    }
  }
}
