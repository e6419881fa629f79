import { brandErrorClass } from "@orphus/internal";
import { shownValue } from "@orphus/shared-tool";
import { notMemberMessage } from "@orphus/roundtable-protocol";

/** Base class of every error this package throws; `code` is stable across releases. */
export abstract class RoundtableClientError extends Error {
  abstract readonly code: string;
  static {
    brandErrorClass(this);
  }
}

/** A client, spawner or tool option is outside its allowed form; thrown synchronously, before any I/O. */
export class ClientOptionError extends RoundtableClientError {
  override readonly name = "ClientOptionError";
  readonly code = "ERR_CLIENT_INVALID_OPTION";
  constructor(option: string, expected: string, got: unknown, options?: { cause?: unknown }) {
    super(`Invalid roundtable client option ${option}: expected ${expected}, got ${shownValue(got)}`, options);
  }
}

/** The code of the last "broker failed to start" line of a broker log tail (the bin logs one before it exits 1 or 2). */
function startFailureCode(logTail: string | undefined): string | undefined {
  const codes = [...(logTail ?? "").matchAll(/ broker failed to start code=(ERR_[A-Z0-9_]+)/g)];
  return codes.at(-1)?.[1];
}

/**
 * A broker was spawned (or found starting) but never answered on its socket; the message quotes its log's tail, and
 * `brokerCode` is the code the broker logged for refusing to start (`ERR_BROKER_STORE_OPEN_FAILED` for a room store
 * it cannot reach, `ERR_STORE_SETTING_INVALID`, `ERR_SOCKET_PATH_OCCUPIED`, …), when the tail names one.
 */
export class BrokerStartError extends RoundtableClientError {
  override readonly name = "BrokerStartError";
  readonly code = "ERR_BROKER_START_FAILED";
  readonly brokerCode: string | undefined;
  constructor(
    readonly socketPath: string,
    readonly reason: string,
    readonly logTail: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(
      `The roundtable broker did not start on ${socketPath}: ${reason}` +
        (logTail === undefined || logTail.trim() === ""
          ? " (the broker log is empty)"
          : `\n--- broker log (tail) ---\n${logTail.trimEnd()}\n---`),
      options,
    );
    this.brokerCode = startFailureCode(logTail);
  }
}

/** Nothing answers on the broker socket and the caller asked not to spawn one (read-only commands). */
export class BrokerNotRunningError extends RoundtableClientError {
  override readonly name = "BrokerNotRunningError";
  readonly code = "ERR_BROKER_NOT_RUNNING";
  constructor(
    readonly socketPath: string,
    options?: { cause?: unknown },
  ) {
    super(`No roundtable broker is running on ${socketPath}; the first session to use a room starts one`, options);
  }
}

/** What a call of `op` was waiting for when its connection went: a wait waits for a post, the rest for a reply. */
function waitedFor(op: string): string {
  return op === "wait" ? "another role's post" : op;
}

/** The connection to the broker closed (or failed) while requests were in flight; each of them is rejected with this. */
export class ConnectionLostError extends RoundtableClientError {
  override readonly name = "ConnectionLostError";
  readonly code = "ERR_CONNECTION_LOST";
  constructor(
    readonly op: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Lost the connection to the roundtable broker while waiting for ${waitedFor(op)} (${detail}); ` +
        "the next call reconnects, and rooms must be joined again",
      options,
    );
  }
}

/** What a timed-out post tells its caller, beyond the op and the wait. */
export interface PostTimeoutDetails {
  /** The key the post carried (the same on every attempt); undefined when it carried none. */
  readonly idempotencyKey?: string;
  /** Attempts made, the first included. */
  readonly attempts?: number;
}

function timeoutMessage(op: string, timeoutMs: number, post: PostTimeoutDetails | undefined): string {
  const attempts = post?.attempts ?? 1;
  const base = `The roundtable broker did not answer ${op} within ${timeoutMs} ms${attempts > 1 ? ` (${attempts} attempts)` : ""}`;
  if (op !== "post") return base;
  const key = post?.idempotencyKey;
  return key === undefined
    ? `${base}; the post may have been stored, and it carried no idempotency key, so posting it again may store it twice`
    : `${base}; the post may have been stored. Posting again with idempotencyKey "${key}" cannot store it twice: ` +
        "the broker answers with the original seq if it has the post";
}

/**
 * A request got no reply within its timeout. For a post the message says that it may have been stored, and with
 * which idempotency key a retry is safe.
 */
export class RequestTimeoutError extends RoundtableClientError {
  override readonly name = "RequestTimeoutError";
  readonly code = "ERR_REQUEST_TIMEOUT";
  /** True for a post: it reached the broker's socket, and the broker may have stored it before it went quiet. */
  readonly mayHaveBeenStored: boolean;
  /** A post's idempotency key: post again with it to learn the seq without storing twice. */
  readonly idempotencyKey: string | undefined;
  /** Attempts made, the first included. */
  readonly attempts: number;
  constructor(
    readonly op: string,
    readonly timeoutMs: number,
    post?: PostTimeoutDetails,
  ) {
    super(timeoutMessage(op, timeoutMs, post));
    this.mayHaveBeenStored = op === "post";
    this.idempotencyKey = post?.idempotencyKey;
    this.attempts = post?.attempts ?? 1;
  }
}

/**
 * The broker serves its maximum of connections and refused this one (ERR_TOO_MANY_CONNECTIONS). It is healthy, and
 * its rooms are intact: waiting, or closing sessions that are no longer needed, frees a connection.
 */
export class BrokerFullError extends RoundtableClientError {
  override readonly name = "BrokerFullError";
  readonly code = "ERR_BROKER_FULL";
  constructor(
    readonly maxConnections: number | undefined,
    readonly brokerPid: number | undefined,
    options?: { cause?: unknown },
  ) {
    const limit =
      maxConnections === undefined ? "its maximum of connections" : `its maximum of ${maxConnections} connections`;
    super(
      `The roundtable broker${brokerPid === undefined ? "" : ` (pid ${brokerPid})`} is full: it already serves ${limit}. ` +
        "Wait for other sessions to finish, or close sessions you no longer need (each holds one connection), then " +
        "try again. The broker and its rooms are fine: do not stop it.",
      options,
    );
  }
}

/** The broker's accept queue stayed full (EAGAIN) through every bounded retry of the connection. */
export class BrokerBusyError extends RoundtableClientError {
  override readonly name = "BrokerBusyError";
  readonly code = "ERR_BROKER_BUSY";
  constructor(
    readonly socketPath: string,
    readonly attempts: number,
    readonly waitedMs: number,
    options?: { cause?: unknown },
  ) {
    super(
      `The roundtable broker on ${socketPath} did not accept the connection: its accept queue stayed full (EAGAIN) ` +
        `through ${attempts} attempts over ${waitedMs} ms. It is running but overloaded; try again shortly.`,
      options,
    );
  }
}

/** A request was refused locally because the connection already has its maximum of requests in flight. */
export class TooManyPendingError extends RoundtableClientError {
  override readonly name = "TooManyPendingError";
  readonly code = "ERR_TOO_MANY_PENDING";
  constructor(
    readonly op: string,
    readonly maxPending: number,
  ) {
    super(`Cannot send ${op}: ${maxPending} requests are already waiting for the broker, the maximum in flight`);
  }
}

/** A call was made on a client after close(). */
export class ClientClosedError extends RoundtableClientError {
  override readonly name = "ClientClosedError";
  readonly code = "ERR_CLIENT_CLOSED";
  constructor(op: string) {
    super(`Cannot ${op}: this roundtable client was closed`);
  }
}

/** A tool call's input does not match the action's schema; the tool returns its message as text. */
export class ToolInputError extends RoundtableClientError {
  override readonly name = "ToolInputError";
  readonly code = "ERR_TOOL_INVALID_INPUT";
  constructor(detail: string, got: unknown, options?: { cause?: unknown }) {
    super(`Invalid roundtable call: ${detail}; got ${shownValue(got)}`, options);
  }
}

/** The wait action was asked to watch a room this role has not joined (or no room at all); it would never end. */
export class NotJoinedError extends RoundtableClientError {
  override readonly name = "NotJoinedError";
  readonly code = "ERR_NOT_JOINED";
  constructor(readonly room: string | undefined) {
    super(
      room === undefined ? "Nothing to wait for: this role has joined no room; join one first" : notMemberMessage(room),
    );
  }
}

/** A watch of the broker ended other than by its close(): the broker closed, or the connection failed. */
export class WatchEndedError extends RoundtableClientError {
  override readonly name = "WatchEndedError";
  readonly code = "ERR_WATCH_ENDED";
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`The watch of the roundtable broker ended (${detail}); start a new watch to see the rooms again`, options);
  }
}
