import { expect, test } from "vitest";
import * as locator from "@orphus/roundtable-locator";

test("the public export list", () => {
  expect(Object.keys(locator).sort()).toEqual(
    [
      "AgentDirError",
      "AgentDirNotDirectoryError",
      "AgentDirPermissionError",
      "AgentDirReadOnlyError",
      "BROKER_DIR_NAME",
      "BSD_SOCKET_PATH_LIMIT",
      "BrokerDirectoryError",
      "BrokerError",
      "BrokerOptionError",
      "BrokerRegistryError",
      "LINUX_SOCKET_PATH_LIMIT",
      "LOG_FILE_NAME",
      "MAX_HELD_BYTES_ENV",
      "MAX_STORE_PASSWORD_FILE_BYTES",
      "MEMORY_STORE",
      "PID_FILE_NAME",
      "PROBE_ROLE",
      "REGISTRY_DIR_ENV",
      "REGISTRY_DIR_NAME",
      "SOCKET_FILE_NAME",
      "STORE_ENV",
      "STORE_PASSWORD_FILE_ENV",
      "SocketPathTooLongError",
      "StoreSettingError",
      "WINDOWS_PIPE_PREFIX",
      "agentDirError",
      "brokerBinPath",
      "brokerCommand",
      "brokerDir",
      "brokerLogPath",
      "brokerPidPath",
      "brokerSocketPath",
      "brokerSourceBinPath",
      "checkSocketPath",
      "describeStoreSetting",
      "ensureBrokerDir",
      "isRedisStoreUrl",
      "maskStoreSetting",
      "probeBroker",
      "readBrokerRegistry",
      "readPidFilePid",
      "registerBroker",
      "registryEntryPath",
      "removeRegistryEntry",
      "resolveRegistryDir",
      "resolveStoreSetting",
      "runningFromSource",
      "sameStore",
      "socketPathLimit",
    ].sort(),
  );
});

test("limits and names", () => {
  expect({
    linux: locator.LINUX_SOCKET_PATH_LIMIT,
    bsd: locator.BSD_SOCKET_PATH_LIMIT,
    storePasswordFile: locator.MAX_STORE_PASSWORD_FILE_BYTES,
  }).toEqual({
    linux: 108,
    bsd: 104,
    storePasswordFile: 4096,
  });
  expect([locator.BROKER_DIR_NAME, locator.SOCKET_FILE_NAME, locator.PID_FILE_NAME]).toEqual([
    "roundtable",
    "broker.sock",
    "broker.pid",
  ]);
  expect([locator.LOG_FILE_NAME, locator.WINDOWS_PIPE_PREFIX, locator.PROBE_ROLE]).toEqual([
    "broker.log",
    "\\\\.\\pipe\\orphus-roundtable-",
    "broker-probe",
  ]);
  expect([locator.REGISTRY_DIR_ENV, locator.REGISTRY_DIR_NAME]).toEqual([
    "ORPHUS_ROUNDTABLE_REGISTRY_DIR",
    "roundtable-brokers",
  ]);
  expect([
    locator.STORE_ENV,
    locator.STORE_PASSWORD_FILE_ENV,
    locator.MEMORY_STORE,
    locator.MAX_HELD_BYTES_ENV,
  ]).toEqual([
    "ORPHUS_ROUNDTABLE_STORE",
    "ORPHUS_ROUNDTABLE_STORE_PASSWORD_FILE",
    "memory",
    "ORPHUS_ROUNDTABLE_MAX_HELD_BYTES",
  ]);
});

test("error names and codes; every error is a BrokerError, branded", () => {
  const errors = [
    new locator.SocketPathTooLongError("/x", 200, 108, "linux"),
    new locator.AgentDirReadOnlyError("/a", "/a/roundtable"),
    new locator.AgentDirPermissionError("/a", "/a/roundtable"),
    new locator.AgentDirNotDirectoryError("/a", "/a"),
    new locator.BrokerDirectoryError("/x", "why"),
    new locator.BrokerRegistryError("/x", "why"),
    new locator.BrokerOptionError("idleMs", "an integer", -1),
    new locator.StoreSettingError("--store", "why"),
  ];
  expect(errors.map((error) => [error.name, error.code])).toEqual([
    ["SocketPathTooLongError", "ERR_SOCKET_PATH_TOO_LONG"],
    ["AgentDirReadOnlyError", "ERR_AGENT_DIR_READ_ONLY"],
    ["AgentDirPermissionError", "ERR_AGENT_DIR_PERMISSION_DENIED"],
    ["AgentDirNotDirectoryError", "ERR_AGENT_DIR_NOT_A_DIRECTORY"],
    ["BrokerDirectoryError", "ERR_BROKER_DIRECTORY"],
    ["BrokerRegistryError", "ERR_BROKER_REGISTRY"],
    ["BrokerOptionError", "ERR_BROKER_INVALID_OPTION"],
    ["StoreSettingError", "ERR_STORE_SETTING_INVALID"],
  ]);
  for (const error of errors) {
    expect(error).toBeInstanceOf(locator.BrokerError);
    // The brand every copy of every @orphus package recognises (Symbol.for, so the same symbol in each copy).
    expect((error as unknown as Record<symbol, unknown>)[Symbol.for("@orphus/error")]).toBe(true);
  }
  expect(new locator.AgentDirReadOnlyError("/a", "/a/roundtable")).toBeInstanceOf(locator.AgentDirError);
});
