import { createConnection, type Socket } from "node:net";
import { checkPositiveInteger } from "./connection.js";
import { BrokerBusyError, BrokerNotRunningError, BrokerStartError } from "./errors.js";
import {
  BROKER_RETRY_INITIAL_DELAY_MS,
  BROKER_RETRY_MAX_DELAY_MS,
  CONNECT_ATTEMPT_TIMEOUT_MS,
  CONNECT_BUSY_INITIAL_DELAY_MS,
  DEFAULT_BROKER_START_TIMEOUT_MS,
  MAX_BROKER_SPAWNS,
  MAX_CONNECT_BUSY_RETRIES,
} from "./limits.js";
import {
  readLogTail,
  spawnDetachedBroker,
  type BrokerCommand,
  type BrokerExit,
  type SpawnFunction,
  type SpawnedBroker,
} from "./spawner.js";
import { jittered, sleep, systemTimers, type ClientTimers, type Timers } from "./timers.js";

/** How to start a broker when nothing answers. */
export interface BrokerSpawnPlan {
  readonly command: BrokerCommand;
  /** Where the broker's output goes (and where a start failure's log tail comes from); undefined discards it. */
  readonly logPath?: string;
  readonly spawn?: SpawnFunction;
  /**
   * Runs once before the first spawn, and may throw to stop it: the client makes the broker folder here, so an
   * agent directory that cannot hold one fails with its typed error instead of a broker that dies unheard.
   */
  readonly prepare?: () => void;
}

/** Options of {@link openBrokerSocket}. */
export interface OpenBrokerSocketOptions {
  readonly socketPath: string;
  /** How to start a broker; `false` never starts one (read-only callers), failing with BrokerNotRunningError. */
  readonly spawn: BrokerSpawnPlan | false;
  /** Total wait for a spawned broker to answer; default {@link DEFAULT_BROKER_START_TIMEOUT_MS}. */
  readonly startTimeoutMs?: number;
  /** Wait for one connection attempt; default {@link CONNECT_ATTEMPT_TIMEOUT_MS}. */
  readonly connectTimeoutMs?: number;
  /** Called with each broker process this call starts. */
  readonly onSpawn?: (broker: SpawnedBroker) => void;
  readonly timers?: ClientTimers;
  /** One connection attempt; default {@link connectBrokerSocket}. Injected so tests choose what the socket does. */
  readonly connect?: (socketPath: string, timeoutMs: number, timers: Timers) => Promise<Socket>;
}

/**
 * Connection errors meaning nobody is serving the socket (yet): no file, a stale file, no answer in time, a reset
 * at connect (what a socket gives for a moment after its broker was killed, while the kernel releases it), or a
 * file where a directory of the path should be (then preparing the broker folder names it).
 */
const NOT_ANSWERING = new Set(["ENOENT", "ECONNREFUSED", "ETIMEDOUT", "ECONNRESET", "ENOTDIR"]);

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}

/** Connects to a Unix socket (or Windows pipe); rejects with the socket error, or ETIMEDOUT after `timeoutMs`. */
export function connectBrokerSocket(
  socketPath: string,
  timeoutMs: number,
  timers: Timers = systemTimers,
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    const timer = timers.setTimeout(() => {
      socket.destroy();
      reject(
        Object.assign(new Error(`connecting to ${socketPath} timed out after ${timeoutMs} ms`), { code: "ETIMEDOUT" }),
      );
    }, timeoutMs);
    const onError = (error: Error): void => {
      timers.clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.once("error", onError);
    socket.once("connect", () => {
      timers.clearTimeout(timer);
      socket.off("error", onError);
      resolve(socket);
    });
  });
}

function describeExit(broker: SpawnedBroker, exit: BrokerExit): string {
  const who = `the broker process${broker.pid === undefined ? "" : ` (pid ${broker.pid})`}`;
  if (exit.error !== undefined) return `${who} could not be started: ${exit.error.message}`;
  if (exit.signal !== null) return `${who} was killed by ${exit.signal} before it answered`;
  return `${who} exited with code ${exit.code} before it answered`;
}

/**
 * Returns a socket connected to the broker, starting one when nothing answers: the broker is spawned detached and
 * the socket is retried with a doubling pause until it answers or `startTimeoutMs` passes. A spawned broker that
 * stands down (exit 0: another one won the race) or is killed by a signal is replaced, at most 3 times per call
 * (MAX_BROKER_SPAWNS); one that exits with a failure code fails the call at once.
 * Failure throws BrokerStartError quoting the tail of the broker log. A full accept queue (EAGAIN) means a broker
 * is there and busy: the connection is retried with a short jittered backoff, at most 12 times
 * (MAX_CONNECT_BUSY_RETRIES), never spawning, then BrokerBusyError. The spawn plan's `prepare` runs
 * before the first spawn; what it throws (the broker folder's typed errors) fails the call.
 */
export async function openBrokerSocket(options: OpenBrokerSocketOptions): Promise<Socket> {
  const timers = options.timers ?? systemTimers;
  const { socketPath } = options;
  const connectTimeoutMs = checkPositiveInteger(
    "connectTimeoutMs",
    options.connectTimeoutMs ?? CONNECT_ATTEMPT_TIMEOUT_MS,
    600_000,
  );
  const startTimeoutMs = checkPositiveInteger(
    "startTimeoutMs",
    options.startTimeoutMs ?? DEFAULT_BROKER_START_TIMEOUT_MS,
    600_000,
  );
  const plan = options.spawn;
  const connect = options.connect ?? connectBrokerSocket;
  const tail = (): string | undefined =>
    plan === false || plan.logPath === undefined ? undefined : readLogTail(plan.logPath);
  let broker: SpawnedBroker | undefined;
  let spawns = 0;
  let deadline = Number.POSITIVE_INFINITY;
  let delay = BROKER_RETRY_INITIAL_DELAY_MS;
  let busy = 0;
  let busyDelay = CONNECT_BUSY_INITIAL_DELAY_MS;
  let busySince = 0;
  for (;;) {
    let lastError: unknown;
    try {
      return await connect(socketPath, connectTimeoutMs, timers);
    } catch (error) {
      if (errorCode(error) === "EAGAIN") {
        if (busy === 0) busySince = timers.now();
        if (busy >= MAX_CONNECT_BUSY_RETRIES) {
          throw new BrokerBusyError(socketPath, busy + 1, timers.now() - busySince, { cause: error });
        }
        busy++;
        await sleep(timers, jittered(busyDelay));
        busyDelay = Math.min(busyDelay * 2, BROKER_RETRY_MAX_DELAY_MS);
        continue;
      }
      if (!NOT_ANSWERING.has(errorCode(error) ?? "")) {
        // EACCES and the like: when the agent directory is the cause, preparing its broker folder says so, typed.
        if (plan !== false) plan.prepare?.();
        const reason = `connecting failed (${error instanceof Error ? error.message : String(error)})`;
        throw new BrokerStartError(socketPath, reason, tail(), { cause: error });
      }
      lastError = error;
    }
    if (plan === false) throw new BrokerNotRunningError(socketPath, { cause: lastError });
    const exit = broker?.exit();
    if (broker !== undefined && exit !== undefined) {
      // Our broker ended without answering. Exit 0 means it stood down for a rival that is not up yet: spawn again.
      // Any other code is the broker saying it cannot start (a foreign file at the socket path, a directory it may
      // not use): another spawn would meet the same cause, so fail now with its log.
      const failed = exit.error !== undefined || (exit.code !== null && exit.code !== 0);
      if (failed || spawns >= MAX_BROKER_SPAWNS) {
        throw new BrokerStartError(socketPath, describeExit(broker, exit), tail(), { cause: exit.error ?? lastError });
      }
    }
    if (broker === undefined || exit !== undefined) {
      if (broker === undefined) plan.prepare?.();
      broker = spawnDetachedBroker({
        command: plan.command,
        ...(plan.logPath === undefined ? {} : { logPath: plan.logPath }),
        ...(plan.spawn === undefined ? {} : { spawn: plan.spawn }),
      });
      spawns++;
      options.onSpawn?.(broker);
      if (deadline === Number.POSITIVE_INFINITY) deadline = timers.now() + startTimeoutMs;
    }
    if (timers.now() >= deadline) {
      const pid = broker.pid === undefined ? "" : ` (pid ${broker.pid})`;
      throw new BrokerStartError(
        socketPath,
        `nothing answered within ${startTimeoutMs} ms of starting the broker${pid}`,
        tail(),
        { cause: lastError },
      );
    }
    await sleep(timers, delay);
    delay = Math.min(delay * 2, BROKER_RETRY_MAX_DELAY_MS);
  }
}
