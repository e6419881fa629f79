/**
 * @orphus/roundtable-locator — how to find and start the roundtable broker of an agent directory without serving one:
 * its socket, pid file and log, the socket path's limits, its private folder, the per-user registry of running
 * brokers, the probe that asks a socket whether a broker answers, the room store setting, and the command that
 * starts the broker's bin. What a client, the `roundtable` CLI and its doctor, and the MCP and pi hosts need, with none
 * of the server (`@orphus/roundtable-broker`, which builds on this package).
 *
 * ```ts
 * import { resolveAgentDir } from "@orphus/agent-env";
 * import { brokerSocketPath, checkSocketPath, probeBroker, readBrokerRegistry, resolveRegistryDir } from "@orphus/roundtable-locator";
 *
 * const socketPath = brokerSocketPath(resolveAgentDir()); // ~/.orphus/agent/roundtable/broker.sock
 * checkSocketPath(socketPath); // SocketPathTooLongError when it cannot fit the platform's sun_path
 * const probe = await probeBroker(socketPath, 1000); // { state: "answered", pid, version } | absent | stale
 * const { entries } = readBrokerRegistry(resolveRegistryDir()); // every broker of this user that registered
 * ```
 *
 * The bin is a file of `@orphus/roundtable-broker`, which depends on this package, so {@link brokerCommand} takes the
 * broker package's folder (`brokerRoot`); a client finds it by resolving `@orphus/roundtable-broker/package.json`.
 */
export {
  BROKER_DIR_NAME,
  SOCKET_FILE_NAME,
  PID_FILE_NAME,
  LOG_FILE_NAME,
  WINDOWS_PIPE_PREFIX,
  brokerDir,
  brokerSocketPath,
  brokerPidPath,
  brokerLogPath,
  socketPathLimit,
  checkSocketPath,
} from "./paths.js";
export { ensureBrokerDir } from "./private-dir.js";
export { agentDirError } from "./agent-dir.js";
export { readPidFilePid } from "./pid-file.js";
export {
  REGISTRY_DIR_ENV,
  REGISTRY_DIR_NAME,
  resolveRegistryDir,
  registryEntryPath,
  registerBroker,
  removeRegistryEntry,
  readBrokerRegistry,
} from "./registry.js";
export { probeBroker, PROBE_ROLE } from "./probe.js";
export {
  STORE_ENV,
  STORE_PASSWORD_FILE_ENV,
  MAX_HELD_BYTES_ENV,
  MEMORY_STORE,
  resolveStoreSetting,
  describeStoreSetting,
  sameStore,
  isRedisStoreUrl,
  maskStoreSetting,
} from "./store-setting.js";
export { brokerBinPath, brokerSourceBinPath, brokerCommand, runningFromSource } from "./bin-command.js";
export { LINUX_SOCKET_PATH_LIMIT, BSD_SOCKET_PATH_LIMIT, MAX_STORE_PASSWORD_FILE_BYTES } from "./limits.js";
export {
  BrokerError,
  SocketPathTooLongError,
  BrokerDirectoryError,
  AgentDirError,
  AgentDirReadOnlyError,
  AgentDirPermissionError,
  AgentDirNotDirectoryError,
  BrokerRegistryError,
  BrokerOptionError,
  StoreSettingError,
} from "./errors.js";
export type { PidFileContents } from "./pid-file.js";
export type { RegistryEntry, RegisteredBroker, RegistryListing } from "./registry.js";
export type { ProbeResult, ProbeAnswer } from "./probe.js";
export type { StoreSetting, StoreSettingInput } from "./store-setting.js";
export type { BrokerCommand, BrokerCommandOptions } from "./bin-command.js";
