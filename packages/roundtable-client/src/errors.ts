import { notMemberMessage } from "@orphus/roundtable-protocol";

/** Base class of every error this package throws; `code` is stable across releases. */
export abstract class RoundtableClientError extends Error {
  abstract readonly code: string;
}

/** How many characters of an offending value a message quotes. */
const PREVIEW_CHARS = 60;

/** Renders a value for an error message, cut short. */
export function preview(value: unknown): string {
  let text: string;
  try {
    text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}… (${text.length} characters)` : text;
}

/** A client, spawner or tool option is outside its allowed form; thrown synchronously, before any I/O. */
export class ClientOptionError extends RoundtableClientError {
  override readonly name = "ClientOptionError";
  readonly code = "ERR_CLIENT_INVALID_OPTION";
  constructor(option: string, expected: string, got: unknown, options?: { cause?: unknown }) {
    super(`Invalid roundtable client option ${option}: expected ${expected}, got ${preview(got)}`, options);
  }
}

/** A broker was spawned (or found starting) but never answered on its socket; the message quotes its log's tail. */
export class BrokerStartError extends RoundtableClientError {
  override readonly name = "BrokerStartError";
  readonly code = "ERR_BROKER_START_FAILED";
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
      `Lost the connection to the roundtable broker while waiting for ${op} (${detail}); ` +
        "the next call reconnects, and rooms must be joined again",
      options,
    );
  }
}

/** A request got no reply within its timeout. */
export class RequestTimeoutError extends RoundtableClientError {
  override readonly name = "RequestTimeoutError";
  readonly code = "ERR_REQUEST_TIMEOUT";
  constructor(
    readonly op: string,
    readonly timeoutMs: number,
  ) {
    super(`The roundtable broker did not answer ${op} within ${timeoutMs} ms`);
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
    super(`Invalid roundtable call: ${detail}; got ${preview(got)}`, options);
  }
}

/** The `roundtable` CLI was given arguments it cannot use; it prints the message and exits with code 2. */
export class CliUsageError extends RoundtableClientError {
  override readonly name = "CliUsageError";
  readonly code = "ERR_CLI_USAGE";
}

/** The wait action was asked to watch a room this role has not joined (or no room at all); it would never end. */
export class NotJoinedError extends RoundtableClientError {
  override readonly name = "NotJoinedError";
  readonly code = "ERR_NOT_JOINED";
  constructor(readonly room: string | undefined) {
    super(
      room === undefined
        ? "Nothing to wait for: this role has joined no room; join one first"
        : notMemberMessage(room),
    );
  }
}
