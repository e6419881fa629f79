import type { Socket } from "node:net";
import { attachFrameDecoder } from "@orphus/framing";

/** Why a connection ended, as the log says it. */
export type CloseReason = "peer" | "framing" | "backpressure" | "refused" | "shutdown" | "hello-timeout";

/** What a connection needs from its broker. */
export interface ConnectionHost {
  readonly maxFrameBytes: number;
  readonly maxOutboundBytes: number;
  readonly pingDropBytes: number;
  /** Requests held while an earlier one of the same connection waits for the store; past it, reading pauses. */
  readonly maxQueuedRequests: number;
  /**
   * Serves one frame, replying on the connection; answers a promise when the reply waits for the store. Must not
   * reject: every failure is a refusal sent on the connection.
   */
  onFrame(connection: BrokerConnection, value: unknown): void | Promise<void>;
  onFramingError(connection: BrokerConnection, error: unknown): void;
  onBackpressure(connection: BrokerConnection, queuedBytes: number): void;
  onClose(connection: BrokerConnection): void;
}

/**
 * One client connection: its decoder, its role once it said hello, its requests in order, and its outbound queue.
 * Rooms are joined by the role, not the connection (RoomService).
 *
 * Requests are served one at a time, in the order they arrived, so replies come in request order and each request
 * sees what the ones before it did, whether the store answers at once (memory) or later (Redis). While a request
 * waits for the store, the ones behind it wait in a queue; at `maxQueuedRequests` the socket stops being read until
 * the queue drains to half, so a peer that pipelines without end meets TCP backpressure, not an unbounded queue
 * (the frames of the one socket read under way still join it). Requests still queued when the connection closes
 * are dropped unserved: nobody is left to hear their replies.
 *
 * The outbound queue is the socket's own write buffer, bounded here: a ping is dropped (and counted) while the
 * backlog is at or above `pingDropBytes`; a reply is never dropped, but a reply that would take the backlog past
 * `maxOutboundBytes` closes the connection instead, so a stalled reader cannot make the broker buffer without bound.
 */
export class BrokerConnection {
  /** Role named by hello; undefined until then. */
  role: string | undefined;
  /** Pings dropped because this connection was not reading fast enough. */
  pingsDropped = 0;
  /** Protocol version named by hello (what the connection can parse); 0 until then. */
  version = 0;
  /** The pending hello timeout (a handle of the broker's injected timers) until the connection says hello. */
  helloTimer: unknown;
  #closeReason: CloseReason | undefined;
  /** Frames that arrived while a request of this connection was waiting for the store, oldest first. */
  readonly #waiting: unknown[] = [];
  /** A request of this connection is waiting for the store. */
  #busy = false;
  #paused = false;
  /** Whether this turn of the event loop wrote nothing yet, one frame, or more (then the socket is corked). */
  #turn: "idle" | "written" | "corked" = "idle";

  constructor(readonly id: number, readonly socket: Socket, private readonly host: ConnectionHost) {
    attachFrameDecoder(
      socket,
      {
        onFrame: (value) => {
          if (this.#closeReason !== undefined) return;
          if (!this.#busy) {
            this.#serve(value);
            return;
          }
          this.#waiting.push(value);
          if (!this.#paused && this.#waiting.length >= host.maxQueuedRequests) {
            this.#paused = true;
            socket.pause();
          }
        },
        onError: (error) => {
          this.#closeReason ??= "framing";
          host.onFramingError(this, error);
        },
      },
      { maxFrameBytes: host.maxFrameBytes }
    );
    // A peer vanishing mid-write is an ordinary close; 'close' follows and does the bookkeeping.
    socket.on("error", () => {});
    socket.on("close", () => {
      this.#closeReason ??= "peer";
      this.#waiting.length = 0;
      host.onClose(this);
    });
  }

  /** Requests waiting behind one that waits for the store. */
  get queuedRequests(): number {
    return this.#waiting.length;
  }

  #serve(value: unknown): void {
    const served = this.host.onFrame(this, value);
    if (served === undefined) return;
    this.#busy = true;
    served.then(this.#next, this.#next);
  }

  /** The request that waited for the store was answered: serve the queue until one waits again, or it is empty. */
  readonly #next = (): void => {
    this.#busy = false;
    while (!this.#busy && this.#waiting.length > 0 && this.#closeReason === undefined) {
      this.#serve(this.#waiting.shift());
    }
    if (this.#paused && this.#waiting.length <= this.host.maxQueuedRequests / 2 && this.#closeReason === undefined) {
      this.#paused = false;
      this.socket.resume();
    }
  };

  /** Why the connection is closing or closed; undefined while it is open. */
  get closeReason(): CloseReason | undefined {
    return this.#closeReason;
  }

  /** Bytes written but not yet taken by the peer. */
  get queuedBytes(): number {
    return this.socket.writableLength;
  }

  /** Queues a reply. Never dropped: when it would pass the high-water mark the connection is closed instead. */
  sendReply(frame: Buffer): void {
    if (!this.#writable()) return;
    const queued = this.socket.writableLength;
    if (queued + frame.length > this.host.maxOutboundBytes) {
      this.#closeReason = "backpressure";
      this.host.onBackpressure(this, queued + frame.length);
      this.socket.destroy();
      return;
    }
    this.#write(frame);
  }

  /** Queues a ping, or drops it (returning false) while the peer is behind. */
  sendEvent(frame: Buffer): boolean {
    if (!this.#writable()) return false;
    if (this.socket.writableLength >= this.host.pingDropBytes) {
      this.pingsDropped++;
      return false;
    }
    this.#write(frame);
    return true;
  }

  /** Sends a last frame (a refusal) and closes once it is flushed. */
  endWith(frame: Buffer, reason: CloseReason): void {
    if (!this.#writable()) return;
    this.#closeReason = reason;
    // Destroy once flushed, so a peer that never closes its side cannot hold the connection half-open.
    this.socket.end(frame, () => this.socket.destroy());
  }

  /** Closes at once, dropping anything queued. */
  destroy(reason: CloseReason): void {
    this.#closeReason ??= reason;
    this.socket.destroy();
  }

  /**
   * The first frame of a turn of the event loop is written at once; any more in the same turn (a pipelined batch
   * of requests, a burst of posts in a busy room) are corked and leave together in one writev when the turn ends.
   * A lone request so pays no extra tick, and a batch pays one syscall. The bounds above see corked bytes too,
   * since they count toward writableLength.
   */
  #write(frame: Buffer): void {
    if (this.#turn === "idle") {
      this.#turn = "written";
      process.nextTick(this.#endTurn);
    } else if (this.#turn === "written") {
      this.#turn = "corked";
      this.socket.cork();
    }
    this.socket.write(frame);
  }

  readonly #endTurn = (): void => {
    if (this.#turn === "corked") this.socket.uncork();
    this.#turn = "idle";
  };

  #writable(): boolean {
    return this.#closeReason === undefined && !this.socket.destroyed && this.socket.writable;
  }
}
