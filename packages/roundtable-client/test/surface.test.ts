import { expect, test } from "vitest";
import * as client from "@orphus/roundtable-client";
import { CLI_DEFAULT_ROLE, CLI_DEFAULT_TAIL_LINES, CLI_EXIT } from "../src/cli.js";

test("the public surface is exactly this", () => {
  expect(Object.keys(client).sort()).toEqual([
    "ActivityCoalescer",
    "AgentDirError",
    "AgentDirNotDirectoryError",
    "AgentDirPermissionError",
    "AgentDirReadOnlyError",
    "BROKER_LOG_TAIL_BYTES",
    "BROKER_RETRY_INITIAL_DELAY_MS",
    "BROKER_RETRY_MAX_DELAY_MS",
    "BrokerBusyError",
    "BrokerConnection",
    "BrokerFullError",
    "BrokerNotRunningError",
    "BrokerStartError",
    "CONNECT_ATTEMPT_TIMEOUT_MS",
    "CONNECT_BUSY_INITIAL_DELAY_MS",
    "CliUsageError",
    "ClientClosedError",
    "ClientOptionError",
    "ConnectionLostError",
    "DEFAULT_BROKER_START_TIMEOUT_MS",
    "DEFAULT_POST_ATTEMPTS",
    "DEFAULT_REQUEST_TIMEOUT_MS",
    "DOCTOR_FINDINGS",
    "DOCTOR_MAX_ROOMS",
    "DOCTOR_ROLE",
    "DOCTOR_TIMEOUT_MS",
    "MAX_BROKER_LOG_BYTES",
    "MAX_BROKER_SPAWNS",
    "MAX_CONNECT_BUSY_RETRIES",
    "MAX_PENDING_REQUESTS",
    "MAX_PING_AUTHORS",
    "MAX_PING_ROOMS",
    "NotJoinedError",
    "PING_MAX_DELAY_MS",
    "PING_WINDOW_MS",
    "ROLE_ENV",
    "ROUNDTABLE_ACTIONS",
    "ROUNDTABLE_TOOL_DESCRIPTION",
    "ROUNDTABLE_TOOL_NAME",
    "RequestTimeoutError",
    "RoundtableClient",
    "RoundtableClientError",
    "TOOL_DEFAULT_DIGEST_BUDGET",
    "TOOL_DEFAULT_FETCH_CHARS",
    "TOOL_DEFAULT_FETCH_LIMIT",
    "TOOL_DEFAULT_WAIT_MS",
    "TOOL_MAX_DIGEST_BUDGET",
    "TOOL_MAX_FETCH_CHARS",
    "TOOL_MAX_FETCH_LIMIT",
    "TOOL_MAX_POST_CHARS",
    "TOOL_MAX_WAIT_MS",
    "TOOL_WAIT_POLL_MS",
    "TooManyPendingError",
    "ToolInputError",
    "connectBrokerSocket",
    "createRoundtableClient",
    "describeToolError",
    "doctorExitCode",
    "locateBroker",
    "newIdempotencyKey",
    "openBrokerSocket",
    "parseRoundtableActionArguments",
    "parseRoundtableToolInput",
    "readLogTail",
    "renderActivityNotice",
    "renderDoctorReport",
    "resolveRoleName",
    "roleFromEnv",
    "roundtableActionSchemas",
    "roundtableToolInputSchema",
    "roundtableToolJsonSchema",
    "roundtableToolParameters",
    "runDoctor",
    "runRoundtableTool",
    "sessionRoleName",
    "spawnDetachedBroker",
    "systemTimers",
  ]);
});

test("limits are pinned", () => {
  expect({
    PING_WINDOW_MS: client.PING_WINDOW_MS,
    PING_MAX_DELAY_MS: client.PING_MAX_DELAY_MS,
    MAX_PING_ROOMS: client.MAX_PING_ROOMS,
    MAX_PING_AUTHORS: client.MAX_PING_AUTHORS,
    DEFAULT_REQUEST_TIMEOUT_MS: client.DEFAULT_REQUEST_TIMEOUT_MS,
    MAX_PENDING_REQUESTS: client.MAX_PENDING_REQUESTS,
    CONNECT_ATTEMPT_TIMEOUT_MS: client.CONNECT_ATTEMPT_TIMEOUT_MS,
    DEFAULT_BROKER_START_TIMEOUT_MS: client.DEFAULT_BROKER_START_TIMEOUT_MS,
    BROKER_RETRY_INITIAL_DELAY_MS: client.BROKER_RETRY_INITIAL_DELAY_MS,
    BROKER_RETRY_MAX_DELAY_MS: client.BROKER_RETRY_MAX_DELAY_MS,
    MAX_BROKER_SPAWNS: client.MAX_BROKER_SPAWNS,
    MAX_CONNECT_BUSY_RETRIES: client.MAX_CONNECT_BUSY_RETRIES,
    CONNECT_BUSY_INITIAL_DELAY_MS: client.CONNECT_BUSY_INITIAL_DELAY_MS,
    DEFAULT_POST_ATTEMPTS: client.DEFAULT_POST_ATTEMPTS,
    BROKER_LOG_TAIL_BYTES: client.BROKER_LOG_TAIL_BYTES,
    MAX_BROKER_LOG_BYTES: client.MAX_BROKER_LOG_BYTES,
    TOOL_DEFAULT_DIGEST_BUDGET: client.TOOL_DEFAULT_DIGEST_BUDGET,
    TOOL_MAX_DIGEST_BUDGET: client.TOOL_MAX_DIGEST_BUDGET,
    TOOL_DEFAULT_FETCH_LIMIT: client.TOOL_DEFAULT_FETCH_LIMIT,
    TOOL_MAX_FETCH_LIMIT: client.TOOL_MAX_FETCH_LIMIT,
    TOOL_DEFAULT_FETCH_CHARS: client.TOOL_DEFAULT_FETCH_CHARS,
    TOOL_MAX_FETCH_CHARS: client.TOOL_MAX_FETCH_CHARS,
    TOOL_DEFAULT_WAIT_MS: client.TOOL_DEFAULT_WAIT_MS,
    TOOL_MAX_WAIT_MS: client.TOOL_MAX_WAIT_MS,
    TOOL_WAIT_POLL_MS: client.TOOL_WAIT_POLL_MS,
    TOOL_MAX_POST_CHARS: client.TOOL_MAX_POST_CHARS,
    DOCTOR_TIMEOUT_MS: client.DOCTOR_TIMEOUT_MS,
    DOCTOR_MAX_ROOMS: client.DOCTOR_MAX_ROOMS,
  }).toEqual({
    PING_WINDOW_MS: 1500,
    PING_MAX_DELAY_MS: 10000,
    MAX_PING_ROOMS: 8,
    MAX_PING_AUTHORS: 6,
    DEFAULT_REQUEST_TIMEOUT_MS: 10000,
    MAX_PENDING_REQUESTS: 256,
    CONNECT_ATTEMPT_TIMEOUT_MS: 2000,
    DEFAULT_BROKER_START_TIMEOUT_MS: 15000,
    BROKER_RETRY_INITIAL_DELAY_MS: 20,
    BROKER_RETRY_MAX_DELAY_MS: 250,
    MAX_BROKER_SPAWNS: 3,
    MAX_CONNECT_BUSY_RETRIES: 12,
    CONNECT_BUSY_INITIAL_DELAY_MS: 10,
    DEFAULT_POST_ATTEMPTS: 2,
    BROKER_LOG_TAIL_BYTES: 2000,
    MAX_BROKER_LOG_BYTES: 1048576,
    TOOL_DEFAULT_DIGEST_BUDGET: 1500,
    TOOL_MAX_DIGEST_BUDGET: 8000,
    TOOL_DEFAULT_FETCH_LIMIT: 10,
    TOOL_MAX_FETCH_LIMIT: 50,
    TOOL_DEFAULT_FETCH_CHARS: 8000,
    TOOL_MAX_FETCH_CHARS: 524288,
    TOOL_DEFAULT_WAIT_MS: 30000,
    TOOL_MAX_WAIT_MS: 120000,
    TOOL_WAIT_POLL_MS: 2000,
    TOOL_MAX_POST_CHARS: 32768,
    DOCTOR_TIMEOUT_MS: 2000,
    DOCTOR_MAX_ROOMS: 64,
  });
  expect([client.ROLE_ENV, client.DOCTOR_ROLE]).toEqual(["ORPHUS_ROUNDTABLE_ROLE", "roundtable-doctor"]);
  expect(Object.keys(client.DOCTOR_FINDINGS)).toEqual([
    "split-fleet",
    "stale-socket",
    "unresponsive-broker",
    "broker-full",
    "socket-path-occupied",
    "permissions",
    "protocol-mismatch",
    "ephemeral-role",
    "store-unavailable",
  ]);
  expect(CLI_EXIT).toEqual({ ok: 0, failed: 1, usage: 2, noBroker: 3 });
  expect(CLI_DEFAULT_ROLE).toBe("human");
  expect(CLI_DEFAULT_TAIL_LINES).toBe(10);
});

test("error names and codes are stable", () => {
  const cases: [Error & { code: string }, string, string][] = [
    [new client.ClientOptionError("role", "a name", 1), "ClientOptionError", "ERR_CLIENT_INVALID_OPTION"],
    [new client.BrokerStartError("/s", "why", undefined), "BrokerStartError", "ERR_BROKER_START_FAILED"],
    [new client.BrokerNotRunningError("/s"), "BrokerNotRunningError", "ERR_BROKER_NOT_RUNNING"],
    [new client.ConnectionLostError("post", "gone"), "ConnectionLostError", "ERR_CONNECTION_LOST"],
    [new client.RequestTimeoutError("post", 5), "RequestTimeoutError", "ERR_REQUEST_TIMEOUT"],
    [new client.BrokerFullError(256, 4100), "BrokerFullError", "ERR_BROKER_FULL"],
    [new client.BrokerBusyError("/s", 9, 1000), "BrokerBusyError", "ERR_BROKER_BUSY"],
    [new client.TooManyPendingError("post", 2), "TooManyPendingError", "ERR_TOO_MANY_PENDING"],
    [new client.ClientClosedError("post"), "ClientClosedError", "ERR_CLIENT_CLOSED"],
    [new client.ToolInputError("bad", 1), "ToolInputError", "ERR_TOOL_INVALID_INPUT"],
    [new client.NotJoinedError("design"), "NotJoinedError", "ERR_NOT_JOINED"],
    [new client.CliUsageError("bad"), "CliUsageError", "ERR_CLI_USAGE"],
  ];
  for (const [error, name, code] of cases) {
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(error).toBeInstanceOf(client.RoundtableClientError);
  }
  expect(new client.BrokerStartError("/a/broker.sock", "it exited with code 1", "line one\nline two\n").message).toBe(
    "The roundtable broker did not start on /a/broker.sock: it exited with code 1\n--- broker log (tail) ---\nline one\nline two\n---",
  );
  expect(new client.BrokerFullError(256, 4100).message).toBe(
    "The roundtable broker (pid 4100) is full: it already serves its maximum of 256 connections. Wait for other " +
      "sessions to finish, or close sessions you no longer need (each holds one connection), then try again. The " +
      "broker and its rooms are fine: do not stop it.",
  );
  expect(new client.RequestTimeoutError("digest", 5).message).toBe("The roundtable broker did not answer digest within 5 ms");
  expect(new client.RequestTimeoutError("post", 5, { idempotencyKey: "k", attempts: 2 })).toMatchObject({
    mayHaveBeenStored: true,
    idempotencyKey: "k",
    attempts: 2,
    message:
      'The roundtable broker did not answer post within 5 ms (2 attempts); the post may have been stored. Posting again with idempotencyKey "k" cannot store it twice: the broker answers with the original seq if it has the post',
  });
  expect(new client.RequestTimeoutError("post", 5).message).toBe(
    "The roundtable broker did not answer post within 5 ms; the post may have been stored, and it carried no " +
      "idempotency key, so posting it again may store it twice",
  );
  expect(new client.NotJoinedError(undefined).message).toBe(
    "Nothing to wait for: this role has joined no room; join one first",
  );
});
