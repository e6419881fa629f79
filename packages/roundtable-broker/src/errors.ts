import { dirname } from "node:path";
import { brandErrorClass } from "@orphus/internal";
import { previewValue, type WireError } from "@orphus/roundtable-protocol";

/** Base class of every broker failure; `code` is stable across releases. Refusals on the wire are protocol codes. */
export abstract class BrokerError extends Error {
  abstract readonly code: string;
  static {
    brandErrorClass(this);
  }
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

/**
 * Something accepts connections at the socket path but did not answer the start-up probe's hello in time: a broker
 * that is stopped (SIGSTOP, a debugger) or hung, or another program. Silence is not proof that nothing lives there,
 * so the broker refuses to take the path and leaves it alone.
 */
export class SocketPathUnresponsiveError extends BrokerError {
  override readonly name = "SocketPathUnresponsiveError";
  readonly code = "ERR_SOCKET_PATH_UNRESPONSIVE";
  constructor(readonly socketPath: string, readonly timeoutMs: number, readonly pid: number | undefined) {
    const who = pid === undefined ? "" : ` (the pid file names pid ${pid})`;
    const remedy =
      pid === undefined
        ? "find the process serving it (ss -xlp, lsof) and resume or stop it"
        : `resume it (kill -CONT ${pid}) or stop it (kill ${pid})`;
    super(
      `Cannot start the broker: something accepts connections on ${socketPath} but did not answer hello within ` +
        `${timeoutMs} ms: a broker that is stopped or hung${who}, or another program. The broker never takes over ` +
        `a path in use: ${remedy}, then start again (roundtable doctor tells more).`
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
 * The agent directory's file system refuses the broker folder (`<agentDir>/roundtable`): the base of the three
 * errno cases below, each naming the agent directory, the path that failed and what to do.
 */
export abstract class AgentDirError extends BrokerError {
  constructor(
    readonly agentDir: string,
    readonly path: string,
    problem: string,
    fix: string,
    options?: { cause?: unknown }
  ) {
    super(
      `${problem}: the broker keeps its socket, pid file and log there. ${fix}, or point ORPHUS_CODING_AGENT_DIR ` +
        "(or --agent-dir) at a writable directory of your own (e.g. ~/.orphus/agent).",
      options
    );
  }
}

/** The agent directory is on a read-only file system (EROFS), so the broker folder cannot be created or written. */
export class AgentDirReadOnlyError extends AgentDirError {
  override readonly name = "AgentDirReadOnlyError";
  readonly code = "ERR_AGENT_DIR_READ_ONLY";
  constructor(agentDir: string, path: string, options?: { cause?: unknown }) {
    const problem = `The agent directory ${agentDir} is on a read-only file system (cannot write ${path})`;
    super(agentDir, path, problem, "Make that file system writable", options);
  }
}

/** Permission denied (EACCES, EPERM) creating or using the broker folder inside the agent directory. */
export class AgentDirPermissionError extends AgentDirError {
  override readonly name = "AgentDirPermissionError";
  readonly code = "ERR_AGENT_DIR_PERMISSION_DENIED";
  constructor(agentDir: string, path: string, options?: { cause?: unknown }) {
    const problem = `Permission denied in the agent directory ${agentDir} (cannot create or use ${path})`;
    super(agentDir, path, problem, `Give yourself access (chmod u+rwx ${dirname(path)})`, options);
  }
}

/** A component of the agent directory's path is not a directory (ENOTDIR), so the broker folder cannot exist there. */
export class AgentDirNotDirectoryError extends AgentDirError {
  override readonly name = "AgentDirNotDirectoryError";
  readonly code = "ERR_AGENT_DIR_NOT_A_DIRECTORY";
  constructor(agentDir: string, path: string, options?: { cause?: unknown }) {
    const problem = `The agent directory ${agentDir} cannot hold the broker folder (${path} is not a directory)`;
    super(agentDir, path, problem, `Move it away (mv ${path} ${path}.moved)`, options);
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

/**
 * The room store setting cannot be used: a password on the command line (`--store`), a password from two places, a
 * password file that cannot be read, is empty or too large, or a value that is neither `memory` nor a Redis URL.
 * Never quotes a password. The bin prints it and exits with code 2.
 */
export class StoreSettingError extends BrokerError {
  override readonly name = "StoreSettingError";
  readonly code = "ERR_STORE_SETTING_INVALID";
  constructor(readonly setting: string, problem: string, options?: { cause?: unknown }) {
    super(`Invalid room store setting (${setting}): ${problem}`, options);
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
    options?: { cause?: unknown }
  ) {
    super(
      `Cannot open the room store ${store}${storeCode === undefined ? "" : ` (${storeCode})`}: ${detail}. The ` +
        "broker does not start, and does not fall back to memory: fix the store or its setting " +
        "(ORPHUS_ROUNDTABLE_STORE, --store), or set it to memory",
      options
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
  constructor(readonly store: string, options?: { cause?: unknown }) {
    super(
      `The room store ${store} needs the package @orphus/rooms-redis, which is not installed beside ` +
        "@orphus/roundtable-broker; install it there (npm install @orphus/rooms-redis), or set the store to memory",
      options
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
      options
    );
  }
}
