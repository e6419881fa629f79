import { spawn as nodeSpawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync } from "node:fs";
import { dirname } from "node:path";
import { BROKER_LOG_TAIL_BYTES, MAX_BROKER_LOG_BYTES } from "./limits.js";

/** How to run a broker: a program and its arguments (e.g. `node /…/dist/bin/broker.js`). */
export interface BrokerCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** Environment of the broker; default the caller's. */
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

/** The spawn function the spawner calls; node's by default, injected to count or refuse spawns. */
export type SpawnFunction = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

/** Options of {@link spawnDetachedBroker}. */
export interface SpawnBrokerOptions {
  readonly command: BrokerCommand;
  /** File the broker's stdout and stderr are appended to; undefined sends them nowhere. */
  readonly logPath?: string;
  readonly spawn?: SpawnFunction;
}

/** How a spawned broker process ended. */
export interface BrokerExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all (e.g. the program does not exist). */
  readonly error?: Error;
}

/** A broker process started by this client; the client does not wait for it, and it outlives the client. */
export interface SpawnedBroker {
  readonly pid: number | undefined;
  /** Resolves when the process ends (it usually outlives the caller, and then this never settles). */
  readonly exited: Promise<BrokerExit>;
  /** How it ended, once it has. */
  readonly exit: () => BrokerExit | undefined;
}

/**
 * Opens the broker log for appending. Past {@link MAX_BROKER_LOG_BYTES} it is first rotated to `<log>.1` (replacing
 * the older one), the policy of the broker's own logger, so output of brokers that die early cannot grow it forever.
 */
function openLog(logPath: string): number {
  mkdirSync(dirname(logPath), { recursive: true, mode: 0o700 });
  const fd = openSync(logPath, "a", 0o600);
  if (fstatSync(fd).size <= MAX_BROKER_LOG_BYTES) return fd;
  closeSync(fd);
  renameSync(logPath, `${logPath}.1`);
  return openSync(logPath, "a", 0o600);
}

/**
 * Starts a broker the way a daemon should be started from inside a session: detached into its own process group (a
 * Ctrl-C in the caller's terminal does not reach it), stdin closed, stdout and stderr to the broker log or nowhere,
 * and unref'd so the caller exits when it likes. The caller learns the broker is up by connecting to its socket.
 */
export function spawnDetachedBroker(options: SpawnBrokerOptions): SpawnedBroker {
  const spawn = options.spawn ?? (nodeSpawn as SpawnFunction);
  const logFd = options.logPath === undefined ? undefined : openLog(options.logPath);
  let child: ChildProcess;
  try {
    child = spawn(options.command.command, options.command.args, {
      detached: true,
      stdio: logFd === undefined ? "ignore" : ["ignore", logFd, logFd],
      env: options.command.env ?? process.env,
      ...(options.command.cwd === undefined ? {} : { cwd: options.command.cwd }),
      windowsHide: true,
    });
  } finally {
    if (logFd !== undefined) closeSync(logFd);
  }
  let exit: BrokerExit | undefined;
  const exited = new Promise<BrokerExit>((resolve) => {
    child.once("error", (error) => {
      exit ??= { code: null, signal: null, error };
      resolve(exit);
    });
    child.once("exit", (code, signal) => {
      exit ??= { code, signal };
      resolve(exit);
    });
  });
  child.unref();
  return { pid: child.pid, exited, exit: () => exit };
}

/** The last `bytes` of a log file as text, or undefined when it cannot be read. */
export function readLogTail(logPath: string, bytes: number = BROKER_LOG_TAIL_BYTES): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(logPath, "r");
    const size = fstatSync(fd).size;
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const text = buffer.toString("utf8");
    // Start at a line boundary when the tail was cut mid-line.
    const firstBreak = length < size ? text.indexOf("\n") : -1;
    return firstBreak >= 0 && firstBreak < text.length - 1 ? text.slice(firstBreak + 1) : text;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
