/**
 * @orphus/roundtable-broker — the roundtable room server: one per agent directory, on a local socket only the user
 * can reach, started by whichever session needs it first and gone a few seconds after the last one leaves.
 *
 * ```ts
 * import { resolveAgentDir } from "@orphus/agent-env";
 * import { startBroker } from "@orphus/roundtable-broker";
 *
 * const start = await startBroker({ agentDir: resolveAgentDir() });
 * if (start.status === "listening") {
 *   console.log(start.broker.socketPath); // ~/.orphus/agent/roundtable/broker.sock
 *   await start.broker.closed; // { reason: "idle" } five seconds after the last connection closed
 * } // else another broker already answers on that socket: use it
 * ```
 *
 * Start-up contention is resolved through the socket, not a lock file: an answering broker makes a newcomer stand
 * down, a socket file that refuses connections is reclaimed (moved aside, and removed only if it is still the file
 * the probe found), a socket that accepts but never answers and anything that is not a socket are refused and left
 * alone. A running broker whose path comes to name something else closes within seconds. Clients spawn the bin
 * `orphus-roundtable-broker` detached. Finding a broker without serving one (its paths, the registry of running
 * brokers, the probe, the store setting, the command that starts this bin, and the errors those throw, `BrokerError`
 * the base of these here too) is `@orphus/roundtable-locator`, which this package builds on.
 */
export { startBroker } from "./broker.js";
export { createFileLogger, silentLogger, formatLogLine } from "./log.js";
export { BROKER_VERSION } from "./version.js";
export {
  DEFAULT_IDLE_MS,
  DEFAULT_HELLO_TIMEOUT_MS,
  DEFAULT_PROBE_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_BROKER_MAX_FRAME_BYTES,
  DEFAULT_MAX_OUTBOUND_BYTES,
  DEFAULT_PING_DROP_BYTES,
  DEFAULT_MAX_FETCH_BYTES,
  DEFAULT_MAX_WATCH_BACKLOG_BYTES,
  DEFAULT_MAX_LOG_BYTES,
  DEFAULT_PATH_CHECK_MS,
  DEFAULT_MAX_QUEUED_REQUESTS,
} from "./limits.js";
export {
  SocketPathOccupiedError,
  SocketPathUnresponsiveError,
  BrokerListenError,
  BrokerArgumentsError,
  StoreOpenError,
  StorePackageMissingError,
} from "./errors.js";
export type { Broker, BrokerStart, BrokerClosed, BrokerStats } from "./broker.js";
export type { BrokerOptions, BrokerTimers, TimerHandle } from "./options.js";
export type { BrokerLogger, LogFields, FileLoggerOptions } from "./log.js";
