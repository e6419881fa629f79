import type { Socket } from "node:net";
import { attachFrameDecoder, frameBytes, joinFrames, type FrameText } from "@orphus/framing";
import { OLDEST_PEER_VERSION, readsPostsEvents } from "@orphus/roundtable-protocol";
import { isPostNotice, type EventNotice } from "./event-notice.js";
import type { Outbox } from "./outbox.js";
import { PostRun, RUN_FULL } from "./post-run.js";
import type { ServedMemo } from "./watch.js";

/**
 * Largest turn's worth of frames joined into one buffer before writing; above it they leave as one `writev`. A copy
 * of this much costs about what a syscall does, so joining never costs more than it saves.
 */
const JOIN_FRAMES_UP_TO_BYTES = 64 * 1024;

/**
 * Written behind a connection's untaken bytes to learn when the kernel has taken them: a stream completes its writes
 * in order, so this one's callback runs once every earlier byte is taken. Only a connection that holds events pays
 * for it; a write with a callback costs the stream a callback record and a tick that one without it does not.
 */
const WRITE_MARK = Buffer.alloc(0);

/** Why a connection ended, as the log says it. */
export type CloseReason = "peer" | "framing" | "backpressure" | "refused" | "shutdown" | "hello-timeout";

/** What a connection needs from its broker. */
export interface ConnectionHost {
  readonly maxFrameBytes: number;
  readonly maxOutboundBytes: number;
  readonly pingDropBytes: number;
  /** Writes each connection's frames of a turn at its end. */
  readonly outbox: Outbox;
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
 * Frames sent to a connection in one turn of the event loop are queued and leave in one write when the turn ends
 * (see Outbox), post events of one room merged for a version-2 peer; an event caused by the last request of a read
 * is written at once instead when nothing is queued or unsent here (Outbox.writesAtOnce). While an earlier write of
 * the connection has not been taken by the kernel (its peer reads slowly, or not at all), a turn's events are held
 * instead of written: later post events of a room merge into the held run as they do within a turn, and everything
 * held leaves in one write once the earlier write completes. A reply is never held: queuing one writes the whole
 * queue at the end of the turn, in order. So on every store (the memory store serves a pipelined batch in one turn,
 * Redis answers each post in a turn of its own) a slow reader hears a burst as a few posts events, not one frame per
 * post; a reader that keeps up has its writes taken at once, so nothing waits for it.
 *
 * The outbound queue is the held and queued frames plus the socket's own write buffer, bounded here: a ping is
 * dropped (and counted) while that backlog is at or above `pingDropBytes`; a reply is never dropped, but a reply that
 * would take the backlog past `maxOutboundBytes` closes the connection instead, so a stalled reader cannot make the
 * broker buffer without bound.
 */
export class BrokerConnection {
  /** Role named by hello; undefined until then. */
  role: string | undefined;
  /** Pings dropped because this connection was not reading fast enough. */
  pingsDropped = 0;
  /** Said hello with `watch: true`: no member of anything (docs/protocol.md, "Watching"). */
  watcher = false;
  /** The pending hello timeout (a handle of the broker's injected timers) until the connection says hello. */
  helloTimer: unknown;
  /** The served counts its post events were last counted in (ServedLedger.countsFor). */
  servedMemo: ServedMemo | undefined = undefined;
  /**
   * The protocol version the peer said hello with, which decides what it can parse (merged posts events, the
   * reset event, the store's error codes); the oldest served, 1, until it has.
   */
  peerVersion = OLDEST_PEER_VERSION;
  #closeReason: CloseReason | undefined;
  /** Frames (encoded, or replies as text not yet written) and runs of posts queued or held, in order. */
  #pending: (Buffer | FrameText | PostRun)[] = [];
  /** Bytes of #pending once encoded. */
  #queuedBytes = 0;
  /** A reply is among #pending: the queue is written at the end of the turn, never held. */
  #replyQueued = false;
  /** The outbox flushes this connection at the end of this turn. */
  #scheduled = false;
  /** #pending waits for the socket's earlier writes to be taken (see flush). */
  #holding = false;
  /** A WRITE_MARK is on its way through the socket, to call #taken. */
  #marked = false;
  /** The socket's own write backlog when this turn's first frame was queued (see #writable). */
  #socketBacklog = 0;
  /** Frames that arrived while a request of this connection was waiting for the store, oldest first. */
  readonly #waiting: unknown[] = [];
  /** A request of this connection is waiting for the store. */
  #busy = false;
  #paused = false;

  constructor(
    readonly id: number,
    readonly socket: Socket,
    private readonly host: ConnectionHost,
  ) {
    attachFrameDecoder(
      socket,
      {
        onFrame: (value, more) => {
          if (this.#closeReason !== undefined) return;
          if (!this.#busy) {
            this.#serve(value, !more);
            return;
          }
          this.#waiting.push(value);
          if (!this.#paused && this.#waiting.length >= host.maxQueuedRequests) {
            this.#paused = true;
            socket.pause();
          }
        },
        onError: (error) => {
          // The frames before the bad one were answered: their replies leave before the stream is destroyed.
          this.flush(host.outbox);
          this.#closeReason ??= "framing";
          host.onFramingError(this, error);
        },
      },
      { maxFrameBytes: host.maxFrameBytes },
    );
    // A peer vanishing mid-write is an ordinary close; 'close' follows and does the bookkeeping.
    socket.on("error", () => {});
    socket.on("close", () => {
      this.#closeReason ??= "peer";
      this.#waiting.length = 0;
      // Nobody is left to hear what was held.
      this.#drop();
      host.onClose(this);
    });
  }

  /** Requests waiting behind one that waits for the store. */
  get queuedRequests(): number {
    return this.#waiting.length;
  }

  /**
   * Serves one request. `lastOfRead`: no byte of this socket's read follows it, so no other request of the read can
   * add to what it sends in this turn, and the outbox may write its events at once (Outbox.writesAtOnce).
   */
  #serve(value: unknown, lastOfRead: boolean): void {
    const { outbox } = this.host;
    let served;
    outbox.writesAtOnce = lastOfRead;
    try {
      served = this.host.onFrame(this, value);
    } finally {
      outbox.writesAtOnce = false;
    }
    if (served === undefined) return;
    this.#busy = true;
    served.then(this.#next, this.#next);
  }

  /** The request that waited for the store was answered: serve the queue until one waits again, or it is empty. */
  readonly #next = (): void => {
    this.#busy = false;
    while (!this.#busy && this.#waiting.length > 0 && this.#closeReason === undefined) {
      this.#serve(this.#waiting.shift(), false);
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

  /** Bytes queued or held, or written but not yet taken by the peer. */
  get queuedBytes(): number {
    return (this.#scheduled ? this.#socketBacklog : this.socket.writableLength) + this.#queuedBytes;
  }

  /** Queues a reply. Never dropped: when it would pass the high-water mark the connection is closed instead. */
  sendReply(frame: Buffer | FrameText): void {
    if (!this.#writable()) return;
    const bytes = frameBytes(frame);
    const queued = this.queuedBytes + bytes;
    if (queued > this.host.maxOutboundBytes) {
      this.#closeReason = "backpressure";
      this.host.onBackpressure(this, queued);
      this.#drop();
      this.socket.destroy();
      return;
    }
    this.#replyQueued = true;
    this.#queue(frame, bytes);
  }

  /**
   * Queues an event, or drops it (returning false) while the peer is behind. A post event to a version-2 peer joins
   * the run of its room's posts queued since the last other frame, so they leave as one posts event; a reply or a
   * membership event ends the runs, so merging never moves a post ahead of a frame queued before it.
   */
  sendEvent(notice: EventNotice): boolean {
    if (!this.#writable()) return false;
    if (this.queuedBytes >= this.host.pingDropBytes) {
      this.pingsDropped++;
      return false;
    }
    if (this.host.outbox.writesAtOnce && this.#pending.length === 0 && this.socket.writableLength === 0) {
      // Nothing is queued or unsent here, and nothing else of the read that caused the event can follow it in this
      // turn: written now, not once the rest of the fan-out is done. A lone post's posts event is this same frame.
      this.socket.write(notice.frame);
      return true;
    }
    if (!isPostNotice(notice) || !readsPostsEvents(this.peerVersion)) {
      const { frame } = notice;
      this.#queue(frame, frame.length);
      return true;
    }
    const { room } = notice.post;
    const run = this.#openRun(room);
    if (run !== undefined) {
      const grown = run.add(notice, this.host.maxFrameBytes);
      if (grown !== RUN_FULL) {
        this.#queuedBytes += grown;
        return true;
      }
    }
    const opened = new PostRun(room, notice);
    this.#queue(opened, opened.bytes);
    return true;
  }

  /**
   * Queues a watch event, or refuses it (returning false) when it would take the backlog past `maxBacklogBytes`:
   * the watch hub then drops what the watcher is behind on and owes it a gap.
   */
  sendWatchFrame(frame: Buffer | FrameText, maxBacklogBytes: number): boolean {
    const bytes = frameBytes(frame);
    if (!this.#writable() || this.queuedBytes + bytes > maxBacklogBytes) return false;
    this.#queue(frame, bytes);
    return true;
  }

  /** Sends what is queued, then a last frame (a refusal), and closes once it is flushed. */
  endWith(frame: Buffer, reason: CloseReason): void {
    if (!this.#socketWritable()) return;
    this.#closeReason = reason;
    const frames = this.#take(undefined);
    frames.push(frame);
    // Destroy once flushed, so a peer that never closes its side cannot hold the connection half-open.
    this.socket.end(frames.length === 1 ? frame : joinFrames(frames), () => this.socket.destroy());
  }

  /** Closes at once, dropping anything queued. */
  destroy(reason: CloseReason): void {
    this.#closeReason ??= reason;
    this.#drop();
    this.socket.destroy();
  }

  /**
   * Writes everything queued in one write (the outbox calls it once the turn's work is done): small frames are
   * joined into one buffer, replies written straight into it from their text, since a copy of a few kilobytes costs
   * less than a `writev` of many pieces; large ones leave corked, as one `writev`, so a big fetch page is not copied
   * twice. While the kernel has not taken an earlier write (the socket still holds bytes) and nothing queued is a
   * reply, the queue is held instead, to be written once those bytes are taken (#taken), with whatever joins it
   * meanwhile. A reader that keeps up has every write taken at once, within the write call: nothing of it is held.
   */
  flush(outbox: Outbox): void {
    this.#scheduled = false;
    if (!this.#socketWritable()) {
      this.#drop();
      return;
    }
    if (this.#pending.length === 0) return;
    if (!this.#replyQueued && this.socket.writableLength > 0) {
      this.#holding = true;
      if (!this.#marked) {
        this.#marked = true;
        this.socket.write(WRITE_MARK, this.#taken);
      }
      return;
    }
    const bytes = this.#queuedBytes;
    const frames = this.#take(outbox);
    const only = frames.length === 1 ? frames[0] : undefined;
    if (only instanceof Buffer) {
      // One frame already encoded (a fan-out's post event, shared between peers): written as it is.
      this.socket.write(only);
    } else if (bytes <= JOIN_FRAMES_UP_TO_BYTES) {
      this.socket.write(joinFrames(frames));
    } else {
      this.socket.cork();
      for (const frame of frames) this.socket.write(frame instanceof Buffer ? frame : joinFrames([frame]));
      this.socket.uncork();
    }
  }

  /**
   * The kernel took every byte written before the WRITE_MARK (or the socket failed). What is held is flushed at the
   * end of this turn, joined by anything queued in it; should the socket hold newer bytes by then (a reply wrote the
   * queue after the mark), that flush holds again behind them.
   */
  readonly #taken = (): void => {
    this.#marked = false;
    if (!this.#holding) return;
    if (!this.#socketWritable()) {
      this.#drop();
      return;
    }
    this.#schedule();
  };

  /**
   * The open run of `room`'s posts: the newest run of the room queued since the last other frame (a reply or a
   * membership event ends every run, so what follows it in the queue is exactly the open runs, one per room but for
   * full ones). Posts of one room in a row are the common case, found at the first step.
   */
  #openRun(room: string): PostRun | undefined {
    const pending = this.#pending;
    for (let i = pending.length - 1; i >= 0; i--) {
      const item = pending[i];
      if (!(item instanceof PostRun)) return undefined;
      if (item.room === room) return item;
    }
    return undefined;
  }

  /** Adds a frame to the queue, asking the outbox to flush it at the end of the turn unless it waits (a held event). */
  #queue(item: Buffer | FrameText | PostRun, bytes: number): void {
    if (!this.#scheduled && (!this.#holding || this.#replyQueued)) this.#schedule();
    this.#pending.push(item);
    this.#queuedBytes += bytes;
  }

  #schedule(): void {
    this.#scheduled = true;
    this.#holding = false;
    this.#socketBacklog = this.socket.writableLength;
    this.host.outbox.schedule(this);
  }

  /** Empties the queue into frames, encoding posts runs (through the outbox, which shares a frame between peers). */
  #take(outbox: Outbox | undefined): (Buffer | FrameText)[] {
    const frames = this.#pending.map((item) =>
      item instanceof PostRun ? (outbox === undefined ? item.encode() : outbox.frameOf(item)) : item,
    );
    this.#drop();
    return frames;
  }

  #drop(): void {
    this.#pending.length = 0;
    this.#queuedBytes = 0;
    this.#replyQueued = false;
    this.#holding = false;
  }

  /**
   * Whether frames may still be queued. The socket is asked when a turn's first frame is queued; while that turn's
   * frames wait for the flush (at the end of the same callback, before any other socket event), only this broker
   * can end the connection, and every way it does sets the close reason: so a fan-out to many members reads the
   * socket's state once per connection per turn, not once per event. Frames held across turns do not count: the
   * peer may have gone meanwhile, so the socket is asked.
   */
  #writable(): boolean {
    return this.#scheduled ? this.#closeReason === undefined : this.#socketWritable();
  }

  /** Whether the connection is open and its socket takes writes, asked of the socket itself. */
  #socketWritable(): boolean {
    return this.#closeReason === undefined && !this.socket.destroyed && this.socket.writable;
  }
}
