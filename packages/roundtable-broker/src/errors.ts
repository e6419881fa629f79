import type { WireError } from "@orphus/roundtable-protocol";
import { BrokerError } from "@orphus/roundtable-locator";

// The running broker's failures. They extend the locator's BrokerError, the base of every broker failure, so finding,
// starting and running a broker fail under one class (the locator's errors are the ones a client meets too).

/**
 * A request the broker refuses: thrown inside the broker by a room op and sent to the client as an error reply
 * carrying `wire` (its wire code, message and details); the connection stays open. Never escapes the broker.
 */
export class RefusalError extends BrokerError {
  override readonly name = "RefusalError";
  readonly code = "ERR_BROKER_REFUSAL";
  constructor(readonly wire: WireError) {
    super(wire.message);
  }
}

/** Something other than a socket sits at the socket path; the broker refuses to touch it and leaves it intact. */
export class SocketPathOccupiedError extends BrokerError {
  override readonly name = "SocketPathOccupiedError";
  readonly code = "ERR_SOCKET_PATH_OCCUPIED";
  constructor(
    readonly socketPath: string,
    readonly found: string,
  ) {
    super(
      `Cannot start the broker: ${socketPath} is ${found}, not a socket. The broker never removes what it did not ` +
        "create; move or delete it yourself, then start again.",
    );
  }
}

/**
 * Something accepts connections at the socket path but did not answer the start-up probe's hello in time: a broker
 * that is stopped (SIGSTOP, a debugger) or hung, or another program. Silence is not proof that nothing lives there,
 * so the broker refuses to take the path and leaves it alone.
 */
export class SocketPathUnresponsiveError extends BrokerError {
  override readonly name = "SocketPathUnresponsiveError";
  readonly code = "ERR_SOCKET_PATH_UNRESPONSIVE";
  constructor(
    readonly socketPath: string,
    readonly timeoutMs: number,
    readonly pid: number | undefined,
  ) {
    const who = pid === undefined ? "" : ` (the pid file names pid ${pid})`;
    const remedy =
      pid === undefined
        ? "find the process serving it (ss -xlp, lsof) and resume or stop it"
        : `resume it (kill -CONT ${pid}) or stop it (kill ${pid})`;
    super(
      `Cannot start the broker: something accepts connections on ${socketPath} but did not answer hello within ` +
        `${timeoutMs} ms: a broker that is stopped or hung${who}, or another program. The broker never takes over ` +
        `a path in use: ${remedy}, then start again (roundtable doctor tells more).`,
    );
  }
}

/** Listening on or claiming the socket path failed for a reason other than contention. */
export class BrokerListenError extends BrokerError {
  override readonly name = "BrokerListenError";
  readonly code = "ERR_BROKER_LISTEN_FAILED";
  constructor(
    readonly socketPath: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`Cannot listen on ${socketPath}: ${detail}`, options);
  }
}

/**
 * The room store the broker was configured for cannot be opened: the store is unreachable within its timeout
 * (`storeCode` ERR_STORE_UNAVAILABLE), refuses the credentials, holds rooms with other limits
 * (ERR_STORE_LIMITS_MISMATCH), or its URL is invalid. The broker does not start, and never falls back to memory.
 */
export class StoreOpenError extends BrokerError {
  override readonly name = "StoreOpenError";
  readonly code = "ERR_BROKER_STORE_OPEN_FAILED";
  constructor(
    readonly store: string,
    readonly storeCode: string | undefined,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Cannot open the room store ${store}${storeCode === undefined ? "" : ` (${storeCode})`}: ${detail}. The ` +
        "broker does not start, and does not fall back to memory: fix the store or its setting " +
        "(ORPHUS_ROUNDTABLE_STORE, --store), or set it to memory",
      options,
    );
  }
}

/**
 * A Redis store was asked for, but `@orphus/rooms-redis` (an optional peer dependency of the broker, so that the
 * default install carries no Redis client) is not installed beside the broker.
 */
export class StorePackageMissingError extends BrokerError {
  override readonly name = "StorePackageMissingError";
  readonly code = "ERR_STORE_PACKAGE_MISSING";
  constructor(
    readonly store: string,
    options?: { cause?: unknown },
  ) {
    super(
      `The room store ${store} needs the package @orphus/rooms-redis, which is not installed beside ` +
        "@orphus/roundtable-broker; install it there (npm install @orphus/rooms-redis), or set the store to memory",
      options,
    );
  }
}

/** The bin was given arguments it cannot use; it prints the message and exits with code 2. */
export class BrokerArgumentsError extends BrokerError {
  override readonly name = "BrokerArgumentsError";
  readonly code = "ERR_BROKER_INVALID_ARGUMENTS";
  constructor(detail: string, options?: { cause?: unknown }) {
    super(
      `orphus-roundtable-broker: ${detail}. Usage: orphus-roundtable-broker [--agent-dir DIR] [--idle-ms MS] (--help for more)`,
      options,
    );
  }
}
