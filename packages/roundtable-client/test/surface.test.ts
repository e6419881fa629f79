import { expect, test } from "vitest";
import * as client from "@orphus/roundtable-client";
import * as protocol from "@orphus/roundtable-protocol";
import * as locator from "@orphus/roundtable-locator";

test("the public surface is exactly this", () => {
  expect(Object.keys(client).sort()).toEqual([
    "ActivityCoalescer",
    "AgentDirError",
    "AgentDirNotDirectoryError",
    "AgentDirPermissionError",
    "AgentDirReadOnlyError",
    "BROKER_LOG_TAIL_BYTES",
    "BrokerBusyError",
    "BrokerConnection",
    "BrokerError",
    "BrokerFullError",
    "BrokerNotRunningError",
    "BrokerStartError",
    "CONNECT_ATTEMPT_TIMEOUT_MS",
    "ClientClosedError",
    "ClientOptionError",
    "ConnectionLostError",
    "DEFAULT_BROKER_START_TIMEOUT_MS",
    "DEFAULT_POST_ATTEMPTS",
    "DEFAULT_REQUEST_TIMEOUT_MS",
    "MAX_ERROR_TEXT_CHARS",
    "MAX_LISTED_NAMES",
    "MAX_LISTED_ROOMS",
    "MAX_PENDING_REQUESTS",
    "MAX_PING_AUTHORS",
    "MAX_PING_LINE_CHARS",
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
    "RoundtableProtocolError",
    "ServerFrameInvalidError",
    "SocketPathTooLongError",
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
    "WatchEndedError",
    "WireRefusalError",
    "boundedText",
    "brokerFullFrom",
    "connectBrokerSocket",
    "createRoundtableClient",
    "describeToolError",
    "indentContinuation",
    "locateBroker",
    "newIdempotencyKey",
    "openBrokerSocket",
    "parseRoundtableActionArguments",
    "parseRoundtableToolInput",
    "readLogTail",
    "renderActivityNotice",
    "renderFetchPage",
    "resolveRoleName",
    "roleFromEnv",
    "roundtableActionSchemas",
    "roundtableToolInputSchema",
    "roundtableToolJsonSchema",
    "roundtableToolParameters",
    "runRoundtableTool",
    "sessionRoleName",
    "shownName",
    "shownNames",
    "shownPath",
    "spawnDetachedBroker",
    "systemTimers",
    "watchBroker",
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
    DEFAULT_POST_ATTEMPTS: client.DEFAULT_POST_ATTEMPTS,
    BROKER_LOG_TAIL_BYTES: client.BROKER_LOG_TAIL_BYTES,
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
    MAX_PING_LINE_CHARS: client.MAX_PING_LINE_CHARS,
    MAX_ERROR_TEXT_CHARS: client.MAX_ERROR_TEXT_CHARS,
    MAX_LISTED_NAMES: client.MAX_LISTED_NAMES,
    MAX_LISTED_ROOMS: client.MAX_LISTED_ROOMS,
  }).toEqual({
    PING_WINDOW_MS: 1500,
    PING_MAX_DELAY_MS: 10000,
    MAX_PING_ROOMS: 8,
    MAX_PING_AUTHORS: 6,
    DEFAULT_REQUEST_TIMEOUT_MS: 10000,
    MAX_PENDING_REQUESTS: 256,
    CONNECT_ATTEMPT_TIMEOUT_MS: 2000,
    DEFAULT_BROKER_START_TIMEOUT_MS: 15000,
    DEFAULT_POST_ATTEMPTS: 2,
    BROKER_LOG_TAIL_BYTES: 2000,
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
    MAX_PING_LINE_CHARS: 4200,
    MAX_ERROR_TEXT_CHARS: 2500,
    MAX_LISTED_NAMES: 32,
    MAX_LISTED_ROOMS: 32,
  });
  expect(client.ROLE_ENV).toBe("ORPHUS_ROUNDTABLE_ROLE");
});

test("the errors a caller must catch are re-exported, the very classes the packages below throw", () => {
  // A caller imports this package alone and still catches a broker's refusal, a reply the protocol does not allow,
  // and what the broker folder throws from locateBroker and the first spawn (the locator's errors).
  expect(client.WireRefusalError).toBe(protocol.WireRefusalError);
  expect(client.ServerFrameInvalidError).toBe(protocol.ServerFrameInvalidError);
  expect(client.RoundtableProtocolError).toBe(protocol.RoundtableProtocolError);
  expect(client.BrokerError).toBe(locator.BrokerError);
  expect(client.SocketPathTooLongError).toBe(locator.SocketPathTooLongError);
  expect(client.AgentDirError).toBe(locator.AgentDirError);
  const refusal = new client.WireRefusalError({ code: "ERR_NOT_MEMBER", message: "Not a member" }, "post");
  expect([refusal.name, refusal.code, refusal.wireCode]).toEqual([
    "WireRefusalError",
    "ERR_WIRE_REFUSED",
    "ERR_NOT_MEMBER",
  ]);
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
    [new client.WatchEndedError("the broker closed"), "WatchEndedError", "ERR_WATCH_ENDED"],
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
  expect(new client.RequestTimeoutError("digest", 5).message).toBe(
    "The roundtable broker did not answer digest within 5 ms",
  );
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
