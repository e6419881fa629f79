import { dirname } from "node:path";
import { brandErrorClass, previewValue } from "@orphus/internal";

/**
 * Base class of every broker failure: the locator's own (the socket path, the broker folder, the registry, the store
 * setting, an option) and the running broker's, whose errors (`@orphus/roundtable-broker`) extend it too. `code` is
 * stable across releases. Refusals on the wire are protocol codes.
 */
export abstract class BrokerError extends Error {
  abstract readonly code: string;
  static {
    brandErrorClass(this);
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
    readonly setting: string = "ORPHUS_CODING_AGENT_DIR",
  ) {
    super(
      `Broker socket path is ${bytes} bytes; ${platform} allows at most ${limit - 1} (${limit} with the ` +
        `terminating NUL): ${socketPath}. ${shorterDirectoryAdvice(setting)}`,
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

/** The broker's directory is not a directory, or belongs to another user, so the socket cannot be kept private. */
export class BrokerDirectoryError extends BrokerError {
  override readonly name = "BrokerDirectoryError";
  readonly code = "ERR_BROKER_DIRECTORY";
  constructor(
    readonly directory: string,
    problem: string,
    options?: { cause?: unknown },
  ) {
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
    options?: { cause?: unknown },
  ) {
    super(
      `${problem}: the broker keeps its socket, pid file and log there. ${fix}, or point ORPHUS_CODING_AGENT_DIR ` +
        "(or --agent-dir) at a writable directory of your own (e.g. ~/.orphus/agent).",
      options,
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
  constructor(
    readonly directory: string,
    problem: string,
    options?: { cause?: unknown },
  ) {
    super(`Cannot register the broker in ${directory}: ${problem}`, options);
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
  constructor(
    readonly setting: string,
    problem: string,
    options?: { cause?: unknown },
  ) {
    super(`Invalid room store setting (${setting}): ${problem}`, options);
  }
}
