import { expect, test } from "vitest";
import * as broker from "@orphus/roundtable-broker";
import { RefusalError } from "../src/errors.js";

test("the public export list", () => {
  expect(Object.keys(broker).sort()).toEqual(
    [
      "AGENT_DIR_ENV",
      "BROKER_DIR_NAME",
      "BROKER_VERSION",
      "BSD_SOCKET_PATH_LIMIT",
      "BrokerArgumentsError",
      "BrokerDirectoryError",
      "BrokerError",
      "BrokerListenError",
      "BrokerOptionError",
      "BrokerRegistryError",
      "DEFAULT_BROKER_MAX_FRAME_BYTES",
      "DEFAULT_HELLO_TIMEOUT_MS",
      "DEFAULT_IDLE_MS",
      "DEFAULT_MAX_CONNECTIONS",
      "DEFAULT_MAX_FETCH_BYTES",
      "DEFAULT_MAX_LOG_BYTES",
      "DEFAULT_MAX_OUTBOUND_BYTES",
      "DEFAULT_PING_DROP_BYTES",
      "DEFAULT_PROBE_TIMEOUT_MS",
      "LINUX_SOCKET_PATH_LIMIT",
      "LOG_FILE_NAME",
      "MAX_CLAIM_ATTEMPTS",
      "MAX_REGISTRY_ENTRIES",
      "MAX_REGISTRY_ENTRY_BYTES",
      "PID_FILE_NAME",
      "PROBE_ROLE",
      "REGISTRY_DIR_ENV",
      "REGISTRY_DIR_NAME",
      "SOCKET_FILE_NAME",
      "SocketPathOccupiedError",
      "SocketPathTooLongError",
      "WINDOWS_PIPE_PREFIX",
      "brokerBinPath",
      "brokerCommand",
      "brokerDir",
      "brokerLogPath",
      "brokerPidPath",
      "brokerSocketPath",
      "brokerSourceBinPath",
      "checkSocketPath",
      "createFileLogger",
      "formatLogLine",
      "probeBroker",
      "readBrokerRegistry",
      "registerBroker",
      "registryEntryPath",
      "removeRegistryEntry",
      "resolveRegistryDir",
      "resolveAgentDir",
      "runningFromSource",
      "silentLogger",
      "socketPathLimit",
      "startBroker",
    ].sort()
  );
});

test("default limits and names", () => {
  expect({
    idle: broker.DEFAULT_IDLE_MS,
    hello: broker.DEFAULT_HELLO_TIMEOUT_MS,
    probe: broker.DEFAULT_PROBE_TIMEOUT_MS,
    connections: broker.DEFAULT_MAX_CONNECTIONS,
    frame: broker.DEFAULT_BROKER_MAX_FRAME_BYTES,
    outbound: broker.DEFAULT_MAX_OUTBOUND_BYTES,
    pingDrop: broker.DEFAULT_PING_DROP_BYTES,
    fetch: broker.DEFAULT_MAX_FETCH_BYTES,
    log: broker.DEFAULT_MAX_LOG_BYTES,
    claims: broker.MAX_CLAIM_ATTEMPTS,
    linux: broker.LINUX_SOCKET_PATH_LIMIT,
    bsd: broker.BSD_SOCKET_PATH_LIMIT,
    registryEntries: broker.MAX_REGISTRY_ENTRIES,
    registryEntryBytes: broker.MAX_REGISTRY_ENTRY_BYTES,
  }).toEqual({
    idle: 5000,
    hello: 10000,
    probe: 1000,
    connections: 256,
    frame: 1048576,
    outbound: 8388608,
    pingDrop: 262144,
    fetch: 524288,
    log: 1048576,
    claims: 4,
    linux: 108,
    bsd: 104,
    registryEntries: 256,
    registryEntryBytes: 4096,
  });
  expect([broker.AGENT_DIR_ENV, broker.BROKER_DIR_NAME, broker.SOCKET_FILE_NAME, broker.PID_FILE_NAME]).toEqual([
    "ORPHUS_CODING_AGENT_DIR",
    "roundtable",
    "broker.sock",
    "broker.pid",
  ]);
  expect([broker.LOG_FILE_NAME, broker.WINDOWS_PIPE_PREFIX, broker.PROBE_ROLE]).toEqual([
    "broker.log",
    "\\\\.\\pipe\\orphus-roundtable-",
    "broker-probe",
  ]);
  expect([broker.REGISTRY_DIR_ENV, broker.REGISTRY_DIR_NAME]).toEqual([
    "ORPHUS_ROUNDTABLE_REGISTRY_DIR",
    "roundtable-brokers",
  ]);
});

test("error codes", () => {
  const codes = [
    new broker.SocketPathTooLongError("/x", 200, 108, "linux"),
    new broker.SocketPathOccupiedError("/x", "a regular file"),
    new broker.BrokerDirectoryError("/x", "why"),
    new broker.BrokerRegistryError("/x", "why"),
    new broker.BrokerListenError("/x", "why"),
    new broker.BrokerOptionError("idleMs", "an integer", -1),
    new broker.BrokerArgumentsError("why"),
    new RefusalError({ code: "ERR_INTERNAL", message: "m" }),
  ].map((error) => [error.name, error.code]);
  expect(codes).toEqual([
    ["SocketPathTooLongError", "ERR_SOCKET_PATH_TOO_LONG"],
    ["SocketPathOccupiedError", "ERR_SOCKET_PATH_OCCUPIED"],
    ["BrokerDirectoryError", "ERR_BROKER_DIRECTORY"],
    ["BrokerRegistryError", "ERR_BROKER_REGISTRY"],
    ["BrokerListenError", "ERR_BROKER_LISTEN_FAILED"],
    ["BrokerOptionError", "ERR_BROKER_INVALID_OPTION"],
    ["BrokerArgumentsError", "ERR_BROKER_INVALID_ARGUMENTS"],
    ["RefusalError", "ERR_BROKER_REFUSAL"],
  ]);
});
