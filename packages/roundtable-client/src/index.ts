/**
 * @orphus/roundtable-client — the lazy client of the roundtable broker, the broker's self-start, coalesced activity
 * pings, and the one definition of the `roundtable` tool that the Orphus builtin and the MCP server share.
 *
 * ```ts
 * import { createRoundtableClient, renderActivityNotice, runRoundtableTool } from "@orphus/roundtable-client";
 *
 * const client = createRoundtableClient({
 *   role: "critic",
 *   onActivity: (notice) => console.log(renderActivityNotice(notice)), // "[roundtable] design: 3 new from planner — digest to read"
 * });
 * // Nothing has connected or spawned yet. The first call starts the broker if nothing answers:
 * await runRoundtableTool(client, { action: "join", room: "design" });
 * const { text } = await runRoundtableTool(client, { action: "digest", room: "design" });
 * client.close();
 * ```
 *
 * Push carries no bodies: a notice is per room a count and the authors, once per 1.5 s quiet period, and membership
 * churn (sequence 0) never counts. Every text the tool returns and every ping line passes `@orphus/digest`'s one
 * sanitiser (names escaped, never stripped) and is bounded. Joins are never replayed after a broker restart; the next
 * post says so loudly. The `roundtable` command line and its doctor are `@orphus/roundtable-cli`.
 */
export { RoundtableClient } from "./client.js";
export { createRoundtableClient, locateBroker } from "./create.js";
export { watchBroker } from "./watch.js";
export { BrokerConnection } from "./connection.js";
export { ActivityCoalescer, renderActivityNotice } from "./pings.js";
export { resolveRoleName, sessionRoleName, roleFromEnv, ROLE_ENV } from "./role.js";
export { openBrokerSocket, connectBrokerSocket } from "./ensure.js";
export { newIdempotencyKey } from "./post-key.js";
export { spawnDetachedBroker, readLogTail } from "./spawner.js";
export { systemTimers } from "./timers.js";
export { boundedText, shownName, shownNames, shownPath } from "./shown.js";
export { brokerFullFrom } from "./full-broker.js";
export { renderFetchPage, indentContinuation } from "./fetch-text.js";
export {
  ROUNDTABLE_TOOL_NAME,
  ROUNDTABLE_ACTIONS,
  ROUNDTABLE_TOOL_DESCRIPTION,
  roundtableActionSchemas,
  roundtableToolInputSchema,
  roundtableToolParameters,
  roundtableToolJsonSchema,
  parseRoundtableToolInput,
  parseRoundtableActionArguments,
  runRoundtableTool,
  describeToolError,
} from "./tool.js";
export {
  PING_WINDOW_MS,
  PING_MAX_DELAY_MS,
  MAX_PING_ROOMS,
  MAX_PING_AUTHORS,
  MAX_PING_LINE_CHARS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  MAX_PENDING_REQUESTS,
  CONNECT_ATTEMPT_TIMEOUT_MS,
  DEFAULT_BROKER_START_TIMEOUT_MS,
  DEFAULT_POST_ATTEMPTS,
  BROKER_LOG_TAIL_BYTES,
  TOOL_DEFAULT_DIGEST_BUDGET,
  TOOL_MAX_DIGEST_BUDGET,
  TOOL_DEFAULT_FETCH_LIMIT,
  TOOL_MAX_FETCH_LIMIT,
  TOOL_DEFAULT_FETCH_CHARS,
  TOOL_MAX_FETCH_CHARS,
  TOOL_DEFAULT_WAIT_MS,
  TOOL_MAX_WAIT_MS,
  TOOL_WAIT_POLL_MS,
  TOOL_MAX_POST_CHARS,
  MAX_ERROR_TEXT_CHARS,
  MAX_LISTED_NAMES,
  MAX_LISTED_ROOMS,
} from "./limits.js";
export {
  RoundtableClientError,
  ClientOptionError,
  BrokerStartError,
  BrokerNotRunningError,
  ConnectionLostError,
  RequestTimeoutError,
  WatchEndedError,
  BrokerFullError,
  BrokerBusyError,
  TooManyPendingError,
  ClientClosedError,
  ToolInputError,
  NotJoinedError,
} from "./errors.js";
// Errors of the packages below that reach a client's callers unchanged, re-exported so a caller catches them by
// importing this package alone: a broker's refusal of a request, a reply that is not what the protocol says, and
// the broker folder's errors (from locateBroker and a client's first spawn).
export { WireRefusalError, ServerFrameInvalidError, RoundtableProtocolError } from "@orphus/roundtable-protocol";
export {
  BrokerError,
  SocketPathTooLongError,
  AgentDirError,
  AgentDirReadOnlyError,
  AgentDirPermissionError,
  AgentDirNotDirectoryError,
} from "@orphus/roundtable-locator";
export type {
  RoundtableClientOptions,
  Connector,
  ConnectOptions,
  PostOptions,
  BrokerHello,
  BrokerRestart,
  JoinResult,
  EventListener,
} from "./client.js";
export type { CreateRoundtableClientOptions, BrokerLocation } from "./create.js";
export type {
  WatchBrokerOptions,
  BrokerWatch,
  WatchSnapshot,
  WatchRoom,
  ServedCounts,
  WatchPost,
  WatchEvent,
  WatchPage,
} from "./watch.js";
export type { BrokerConnectionOptions } from "./connection.js";
export type { ActivityNotice, RoomActivity, ActivityEventLike, ActivityCoalescerOptions } from "./pings.js";
export type { ResolvedRole } from "./role.js";
export type { OpenBrokerSocketOptions, BrokerSpawnPlan } from "./ensure.js";
export type { BrokerCommand, SpawnFunction, SpawnBrokerOptions, SpawnedBroker, BrokerExit } from "./spawner.js";
export type { ClientTimers, Timers, TimerHandle } from "./timers.js";
export type { BoundedTextOptions, CutKeep } from "./shown.js";
export type { FetchPageStyle } from "./fetch-text.js";
// The protocol's types of what the client's methods resolve with and its listeners hear, so a caller types them
// from this package alone.
export type {
  Op,
  ResultFor,
  FetchedMessage,
  RoomSummary,
  EvictedRange,
  PostEvent,
  MemberEvent,
  RoundtableEvent,
  WireErrorCode,
} from "@orphus/roundtable-protocol";
export type { PostTimeoutDetails } from "./errors.js";
export type {
  RoundtableAction,
  RoundtableToolInput,
  RoundtableToolResult,
  RoundtableToolClient,
  RoundtableToolCallOptions,
} from "./tool.js";
