/**
 * @orphus/roundtable-broker — the roundtable room server: one per agent directory, on a local socket only the user
 * can reach, started by whichever session needs it first and gone a few seconds after the last one leaves.
 *
 * ```ts
 * import { resolveAgentDir, startBroker } from "@orphus/roundtable-broker";
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
 * `orphus-roundtable-broker` detached; {@link brokerCommand} says how, from the build or from source.
 */
export { startBroker } from "./broker.js";
export { probeBroker, PROBE_ROLE } from "./probe.js";
export {
  AGENT_DIR_ENV,
  BROKER_DIR_NAME,
  SOCKET_FILE_NAME,
  PID_FILE_NAME,
  LOG_FILE_NAME,
  WINDOWS_PIPE_PREFIX,
  resolveAgentDir,
  brokerDir,
  brokerSocketPath,
  brokerPidPath,
  brokerLogPath,
  socketPathLimit,
  checkSocketPath,
} from "./paths.js";
export {
  REGISTRY_DIR_ENV,
  REGISTRY_DIR_NAME,
  resolveRegistryDir,
  registryEntryPath,
  registerBroker,
  removeRegistryEntry,
  readBrokerRegistry,
} from "./registry.js";
export { ensureBrokerDir } from "./private-dir.js";
export {
  STORE_ENV,
  STORE_PASSWORD_FILE_ENV,
  MEMORY_STORE,
  resolveStoreSetting,
  describeStoreSetting,
  sameStore,
} from "./store-setting.js";
export { readPidFilePid } from "./pidfile.js";
export { brokerBinPath, brokerSourceBinPath, brokerCommand, runningFromSource } from "./bin-path.js";
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
  DEFAULT_MAX_LOG_BYTES,
  DEFAULT_PATH_CHECK_MS,
  DEFAULT_MAX_QUEUED_REQUESTS,
  MAX_STORE_PASSWORD_FILE_BYTES,
  FULL_REFUSAL_WAIT_MS,
  MAX_PENDING_REFUSALS,
  REFUSAL_MAX_FRAME_BYTES,
  MAX_CLAIM_ATTEMPTS,
  LINUX_SOCKET_PATH_LIMIT,
  BSD_SOCKET_PATH_LIMIT,
  MAX_REGISTRY_ENTRIES,
  MAX_REGISTRY_ENTRY_BYTES,
} from "./limits.js";
export {
  BrokerError,
  SocketPathTooLongError,
  SocketPathOccupiedError,
  SocketPathUnresponsiveError,
  BrokerDirectoryError,
  AgentDirError,
  AgentDirReadOnlyError,
  AgentDirPermissionError,
  AgentDirNotDirectoryError,
  BrokerRegistryError,
  BrokerListenError,
  BrokerOptionError,
  BrokerArgumentsError,
  StoreSettingError,
  StoreOpenError,
  StorePackageMissingError,
} from "./errors.js";
export type { Broker, BrokerStart, BrokerClosed, BrokerStats } from "./broker.js";
export type { BrokerOptions, BrokerTimers, TimerHandle } from "./options.js";
export type { BrokerLogger, LogFields, FileLoggerOptions } from "./log.js";
export type { BrokerCommand, BrokerCommandOptions } from "./bin-path.js";
export type { ProbeResult, ProbeAnswer } from "./probe.js";
export type { PidFileContents } from "./pidfile.js";
export type { ClaimHooks } from "./reclaim.js";
export type { RegistryEntry, RegisteredBroker, RegistryListing } from "./registry.js";
export type { StoreSetting, StoreSettingInput } from "./store-setting.js";
