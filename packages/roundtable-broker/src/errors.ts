import { previewValue, type WireError } from "@orphus/roundtable-protocol";

/** Base class of every broker failure; `code` is stable across releases. Refusals on the wire are protocol codes. */
export abstract class BrokerError extends Error {
  abstract readonly code: string;
}

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

/**
 * The socket path is longer than the platform's `sun_path` allows; thrown before any bind could fail cryptically.
 * The advice names `setting`, what the user set the agent directory with: a flag such as `--agent-dir`, a variable
 * (default `ORPHUS_CODING_AGENT_DIR`), or "default" when they set nothing.
 */
export class SocketPathTooLongError extends BrokerError {
  override readonly name = "SocketPathTooLongError";
  readonly code = "ERR_SOCKET_PATH_TOO_LONG";
  constructor(
    readonly socketPath: string,
    readonly bytes: number,
    readonly limit: number,
    readonly platform: string,
    readonly setting: string = "ORPHUS_CODING_AGENT_DIR"
  ) {
    super(
      `Broker socket path is ${bytes} bytes; ${platform} allows at most ${limit - 1} (${limit} with the ` +
        `terminating NUL): ${socketPath}. ${shorterDirectoryAdvice(setting)}`
    );
  }
}

function shorterDirectoryAdvice(setting: string): string {
  if (setting.startsWith("-")) return `Pass a shorter ${setting}.`;
  if (setting === "default") {
    return "The default agent directory is too deep here: set ORPHUS_CODING_AGENT_DIR (or pass --agent-dir) to a shorter one.";
  }
  return `Set ${setting} to a shorter directory.`;
}

/** Something other than a socket sits at the socket path; the broker refuses to touch it and leaves it intact. */
export class SocketPathOccupiedError extends BrokerError {
  override readonly name = "SocketPathOccupiedError";
  readonly code = "ERR_SOCKET_PATH_OCCUPIED";
  constructor(readonly socketPath: string, readonly found: string) {
    super(
      `Cannot start the broker: ${socketPath} is ${found}, not a socket. The broker never removes what it did not ` +
        "create; move or delete it yourself, then start again."
    );
  }
}

/** The broker's directory is not a directory, or belongs to another user, so the socket cannot be kept private. */
export class BrokerDirectoryError extends BrokerError {
  override readonly name = "BrokerDirectoryError";
  readonly code = "ERR_BROKER_DIRECTORY";
  constructor(readonly directory: string, problem: string, options?: { cause?: unknown }) {
    super(`Cannot use ${directory} for the broker socket: ${problem}`, options);
  }
}

/**
 * The registry of running brokers (`~/.orphus/roundtable-brokers`) cannot be used: its directory cannot be created,
 * is not a directory or belongs to another user, or an entry cannot be written. The broker logs it and runs on
 * unregistered: the registry is diagnostic, read by `roundtable doctor`.
 */
export class BrokerRegistryError extends BrokerError {
  override readonly name = "BrokerRegistryError";
  readonly code = "ERR_BROKER_REGISTRY";
  constructor(readonly directory: string, problem: string, options?: { cause?: unknown }) {
    super(`Cannot register the broker in ${directory}: ${problem}`, options);
  }
}

/** Listening on or claiming the socket path failed for a reason other than contention. */
export class BrokerListenError extends BrokerError {
  override readonly name = "BrokerListenError";
  readonly code = "ERR_BROKER_LISTEN_FAILED";
  constructor(readonly socketPath: string, detail: string, options?: { cause?: unknown }) {
    super(`Cannot listen on ${socketPath}: ${detail}`, options);
  }
}

/** A broker option is outside its allowed range; thrown by startBroker before any I/O. */
export class BrokerOptionError extends BrokerError {
  override readonly name = "BrokerOptionError";
  readonly code = "ERR_BROKER_INVALID_OPTION";
  constructor(option: string, expected: string, got: unknown, options?: { cause?: unknown }) {
    super(`Invalid broker option ${option}: expected ${expected}, got ${previewValue(got)}`, options);
  }
}

/** The bin was given arguments it cannot use; it prints the message and exits with code 2. */
export class BrokerArgumentsError extends BrokerError {
  override readonly name = "BrokerArgumentsError";
  readonly code = "ERR_BROKER_INVALID_ARGUMENTS";
  constructor(detail: string, options?: { cause?: unknown }) {
    super(
      `orphus-roundtable-broker: ${detail}. Usage: orphus-roundtable-broker [--agent-dir DIR] [--idle-ms MS] (--help for more)`,
      options
    );
  }
}
