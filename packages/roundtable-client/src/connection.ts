import type { Duplex } from "node:stream";
import { attachFrameDecoder, encodeFrame } from "@orphus/framing";
import {
  ServerFrameInvalidError,
  WireRefusalError,
  errorReplySchema,
  isOp,
  memberEventSchema,
  resetEventSchema,
  okReplySchemas,
  parseServerFrame,
  postEventSchema,
  postsEventSchema,
  type ServerFrame,
  type Op,
  type RequestParams,
  type ResultFor,
  type RoundtableEvent,
  type WatchEvent,
  type WireError,
  watchEventSchema,
} from "@orphus/roundtable-protocol";
import { ConnectionLostError, RequestTimeoutError, TooManyPendingError, ClientOptionError } from "./errors.js";
import { DEFAULT_REQUEST_TIMEOUT_MS, MAX_PENDING_REQUESTS } from "./limits.js";
import { systemTimers, type TimerHandle, type Timers } from "./timers.js";

/** Options of {@link BrokerConnection}. */
export interface BrokerConnectionOptions {
  /** How long a request waits for its reply; default {@link DEFAULT_REQUEST_TIMEOUT_MS}. */
  readonly requestTimeoutMs?: number;
  /** Requests in flight at once; default {@link MAX_PENDING_REQUESTS}. */
  readonly maxPending?: number;
  /** Receives every event the broker pushes, already validated. */
  readonly onEvent?: (event: RoundtableEvent) => void;
  /** Receives every watch event (a watcher connection's, version 3), already validated. */
  readonly onWatchEvent?: (event: WatchEvent) => void;
  /** Called once when the connection is gone, with what ended it. */
  readonly onClose?: (reason: string) => void;
  readonly timers?: Timers;
}

interface Pending {
  readonly op: Op;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly timer: TimerHandle;
}

/** A post's idempotency key, for the timeout error that must say whether a retry is safe. */
function postKeyOf(params: object): { idempotencyKey?: string } | undefined {
  const key = (params as { idempotencyKey?: unknown }).idempotencyKey;
  return typeof key === "string" ? { idempotencyKey: key } : undefined;
}

/** Checks a timeout or size option: a positive integer up to `max`. */
export function checkPositiveInteger(option: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new ClientOptionError(option, `an integer from 1 to ${max}`, value);
  }
  return value;
}

/**
 * One framed connection to a broker: numbered requests with timeouts, replies matched by id and validated against
 * the op's result schema, events passed on. When the stream closes, every request still waiting is rejected with
 * {@link ConnectionLostError}; a connection is never reopened (the client makes a new one).
 */
export class BrokerConnection {
  readonly #stream: Duplex;
  readonly #pending = new Map<number, Pending>();
  readonly #timers: Timers;
  readonly #requestTimeoutMs: number;
  readonly #maxPending: number;
  readonly #onEvent: ((event: RoundtableEvent) => void) | undefined;
  readonly #onWatchEvent: ((event: WatchEvent) => void) | undefined;
  readonly #onClose: ((reason: string) => void) | undefined;
  #nextId = 1;
  #closed = false;
  /** Why the connection ended, or what the broker said before it closed it. */
  #reason: string | undefined;
  #cause: unknown;

  constructor(stream: Duplex, options: BrokerConnectionOptions = {}) {
    this.#stream = stream;
    this.#timers = options.timers ?? systemTimers;
    this.#requestTimeoutMs = checkPositiveInteger(
      "requestTimeoutMs",
      options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      3_600_000,
    );
    this.#maxPending = checkPositiveInteger("maxPending", options.maxPending ?? MAX_PENDING_REQUESTS, 1_000_000);
    this.#onEvent = options.onEvent;
    this.#onWatchEvent = options.onWatchEvent;
    this.#onClose = options.onClose;
    attachFrameDecoder(stream, {
      onFrame: (value) => this.#onFrame(value),
      onError: (error) => this.#noteReason("the broker sent a malformed frame", error),
    });
    stream.on("error", (error) => this.#noteReason(error.message, error));
    stream.on("close", () => this.#finish());
    if (stream.destroyed) queueMicrotask(() => this.#finish());
  }

  /** True once the stream has closed; nothing more can be sent. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Requests waiting for their reply. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Sends one request and resolves with its validated result; a refusal rejects with WireRefusalError. */
  request<O extends Op>(op: O, params: RequestParams<O>, timeoutMs?: number): Promise<ResultFor<O>> {
    if (this.#closed) return Promise.reject(this.#lostError(op));
    if (this.#pending.size >= this.#maxPending) return Promise.reject(new TooManyPendingError(op, this.#maxPending));
    const id = this.#nextId++;
    let frame: Buffer;
    try {
      frame = encodeFrame({ ...params, id, op });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const limit = timeoutMs ?? this.#requestTimeoutMs;
    return new Promise<ResultFor<O>>((resolve, reject) => {
      const timer = this.#timers.setTimeout(() => {
        if (this.#pending.delete(id)) reject(new RequestTimeoutError(op, limit, postKeyOf(params)));
      }, limit);
      this.#pending.set(id, { op, resolve: resolve as (result: unknown) => void, reject, timer });
      this.#stream.write(frame);
    });
  }

  /** Closes the connection; requests still waiting are rejected with ConnectionLostError. */
  close(): void {
    this.#noteReason("closed by this client", undefined);
    this.#stream.end();
    this.#stream.destroy();
    this.#finish();
  }

  #noteReason(reason: string, cause: unknown): void {
    if (this.#reason === undefined) {
      this.#reason = reason;
      this.#cause = cause;
    }
  }

  #lostError(op: string): ConnectionLostError {
    return new ConnectionLostError(op, this.#reason ?? "the broker closed the connection", { cause: this.#cause });
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      this.#timers.clearTimeout(pending.timer);
      pending.reject(this.#lostError(pending.op));
    }
    this.#onClose?.(this.#reason ?? "the broker closed the connection");
  }

  #onFrame(value: unknown): void {
    let frame;
    try {
      frame = parseFrame(value);
    } catch (error) {
      // A broker speaking something else: nothing it sends afterwards can be trusted either.
      this.#noteReason(error instanceof Error ? error.message : String(error), error);
      this.#stream.destroy();
      return;
    }
    if ("event" in frame) {
      if (frame.event === "watch") this.#onWatchEvent?.(frame);
      else this.#onEvent?.(frame);
      return;
    }
    if (frame.id === null) {
      // A refusal of no particular request (connection limit, shutdown): it explains the close that follows.
      if (!frame.ok) this.#noteReason(`${frame.error.code}: ${frame.error.message}`, refusal(frame.error, frame.op));
      return;
    }
    const pending = this.#pending.get(frame.id);
    if (pending === undefined) return; // a reply that arrived after its timeout
    this.#pending.delete(frame.id);
    this.#timers.clearTimeout(pending.timer);
    if (!frame.ok) {
      pending.reject(refusal(frame.error, pending.op));
    } else if (frame.op !== pending.op) {
      pending.reject(new ServerFrameInvalidError(value, `a ${pending.op} reply for request ${frame.id}`));
    } else {
      pending.resolve(frame.result);
    }
  }
}

/**
 * Validates a frame from the broker against the one schema its shape names (an event by kind, a reply by op), which
 * costs a fraction of trying the whole union; anything else goes through parseServerFrame for its full diagnosis.
 */
function parseFrame(value: unknown): ServerFrame {
  if (typeof value === "object" && value !== null) {
    const frame = value as { event?: unknown; ok?: unknown; op?: unknown };
    const schema =
      frame.event === "post"
        ? postEventSchema
        : frame.event === "posts"
          ? postsEventSchema
          : frame.event === "reset"
            ? resetEventSchema
            : frame.event === "watch"
              ? watchEventSchema
              : frame.event !== undefined
                ? memberEventSchema
                : frame.ok === true && isOp(frame.op)
                  ? okReplySchemas[frame.op]
                  : frame.ok === false
                    ? errorReplySchema
                    : undefined;
    const parsed = schema?.safeParse(value);
    if (parsed?.success === true) return parsed.data;
  }
  return parseServerFrame(value);
}

function refusal(error: WireError, op: string | undefined): WireRefusalError {
  return new WireRefusalError(error, op);
}
