import { expect, test } from "vitest";
import * as broker from "@orphus/roundtable-broker";
import { BrokerError } from "@orphus/roundtable-locator";
import { RefusalError } from "../src/errors.js";
import * as limits from "../src/limits.js";

test("the public export list", () => {
  expect(Object.keys(broker).sort()).toEqual(
    [
      "BROKER_VERSION",
      "BrokerArgumentsError",
      "BrokerListenError",
      "DEFAULT_BROKER_MAX_FRAME_BYTES",
      "DEFAULT_HELLO_TIMEOUT_MS",
      "DEFAULT_IDLE_MS",
      "DEFAULT_MAX_CONNECTIONS",
      "DEFAULT_MAX_FETCH_BYTES",
      "DEFAULT_MAX_WATCH_BACKLOG_BYTES",
      "DEFAULT_MAX_LOG_BYTES",
      "DEFAULT_MAX_OUTBOUND_BYTES",
      "DEFAULT_MAX_QUEUED_REQUESTS",
      "DEFAULT_PATH_CHECK_MS",
      "DEFAULT_PING_DROP_BYTES",
      "DEFAULT_PROBE_TIMEOUT_MS",
      "SocketPathOccupiedError",
      "SocketPathUnresponsiveError",
      "StoreOpenError",
      "StorePackageMissingError",
      "createFileLogger",
      "formatLogLine",
      "silentLogger",
      "startBroker",
    ].sort(),
  );
});

test("default limits", () => {
  expect({
    idle: broker.DEFAULT_IDLE_MS,
    hello: broker.DEFAULT_HELLO_TIMEOUT_MS,
    probe: broker.DEFAULT_PROBE_TIMEOUT_MS,
    connections: broker.DEFAULT_MAX_CONNECTIONS,
    frame: broker.DEFAULT_BROKER_MAX_FRAME_BYTES,
    outbound: broker.DEFAULT_MAX_OUTBOUND_BYTES,
    pingDrop: broker.DEFAULT_PING_DROP_BYTES,
    fetch: broker.DEFAULT_MAX_FETCH_BYTES,
    watchBacklog: broker.DEFAULT_MAX_WATCH_BACKLOG_BYTES,
    log: broker.DEFAULT_MAX_LOG_BYTES,
    pathCheck: broker.DEFAULT_PATH_CHECK_MS,
    queuedRequests: broker.DEFAULT_MAX_QUEUED_REQUESTS,
  }).toEqual({
    idle: 5000,
    hello: 10000,
    probe: 1000,
    connections: 256,
    frame: 1048576,
    outbound: 8388608,
    pingDrop: 262144,
    fetch: 524288,
    watchBacklog: 262144,
    log: 1048576,
    pathCheck: 1000,
    queuedRequests: 64,
  });
});

test("internal tuning, which no option sets and the package does not export", () => {
  expect({
    claims: limits.MAX_CLAIM_ATTEMPTS,
    refusalWait: limits.FULL_REFUSAL_WAIT_MS,
    pendingRefusals: limits.MAX_PENDING_REFUSALS,
    refusalFrame: limits.REFUSAL_MAX_FRAME_BYTES,
  }).toEqual({ claims: 4, refusalWait: 2000, pendingRefusals: 64, refusalFrame: 65536 });
});

test("error codes; every error extends the locator's BrokerError, the base of every broker failure", () => {
  const errors = [
    new broker.SocketPathOccupiedError("/x", "a regular file"),
    new broker.SocketPathUnresponsiveError("/x", 1000, undefined),
    new broker.BrokerListenError("/x", "why"),
    new broker.BrokerArgumentsError("why"),
    new broker.StoreOpenError("redis://h", "ERR_STORE_UNAVAILABLE", "why"),
    new broker.StorePackageMissingError("redis://h"),
    new RefusalError({ code: "ERR_INTERNAL", message: "m" }),
  ];
  expect(errors.map((error) => [error.name, error.code])).toEqual([
    ["SocketPathOccupiedError", "ERR_SOCKET_PATH_OCCUPIED"],
    ["SocketPathUnresponsiveError", "ERR_SOCKET_PATH_UNRESPONSIVE"],
    ["BrokerListenError", "ERR_BROKER_LISTEN_FAILED"],
    ["BrokerArgumentsError", "ERR_BROKER_INVALID_ARGUMENTS"],
    ["StoreOpenError", "ERR_BROKER_STORE_OPEN_FAILED"],
    ["StorePackageMissingError", "ERR_STORE_PACKAGE_MISSING"],
    ["RefusalError", "ERR_BROKER_REFUSAL"],
  ]);
  for (const error of errors) expect(error).toBeInstanceOf(BrokerError);
});
