/**
 * @orphus/roundtable-protocol — every message on the roundtable wire as a zod schema, the protocol name and
 * version, and the catalogue of error codes a broker may refuse with.
 *
 * ```ts
 * import { PROTOCOL_NAME, PROTOCOL_VERSION, parseRequest, parseServerFrame } from "@orphus/roundtable-protocol";
 *
 * const hello = { id: 1, op: "hello", protocol: PROTOCOL_NAME, version: PROTOCOL_VERSION, role: "planner", pid: process.pid };
 * parseRequest(hello); // { ok: true, request: { id: 1, op: "hello", ... } }
 * parseServerFrame({ event: "post", room: "design-review", seq: 42, author: "critic" }); // a typed PostEvent
 * ```
 *
 * Requests carry an id and replies echo it; events carry none, and `announcedPosts(event)` reads the posts an event
 * announces, whether one (`post`) or several merged (`posts`). docs/protocol.md is generated from these schemas.
 */
export {
  PROTOCOL_NAME,
  PROTOCOL_VERSION,
  OLDEST_PEER_VERSION,
  DEFAULT_FETCH_LIMIT,
  MAX_FETCH_LIMIT,
  DEFAULT_FETCH_CHARS,
  MAX_FETCH_CHARS,
  DEFAULT_DIGEST_BUDGET,
  MAX_REQUEST_DIGEST_BUDGET,
  ROLE_NAME_PATTERN,
  MAX_ROOM_NAME_LENGTH,
  ROOM_NAME_PATTERN,
  MAX_VALID_ROOM_NAME_LENGTH,
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_STORE_DESCRIPTION_LENGTH,
  STORE_WIRE_VERSION,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_KEY_WINDOW,
  MAX_POSTS_PER_EVENT,
  WATCH_SINCE_VERSION,
  MAX_WATCH_RECENT,
  MAX_WATCH_HEADLINE_CHARS,
  DEFAULT_PEEK_LIMIT,
  MAX_PEEK_LIMIT,
} from "./constants.js";
export { POSTS_EVENT_SINCE_VERSION, readsPostsEvents, announcedPosts } from "./events.js";
export { fetchMessageChars } from "./chars.js";
export {
  WIRE_ERROR_CODES,
  wireErrorCodeSchema,
  notMemberMessage,
  protocolMismatchMessage,
  fetchCapTooLargeMessage,
  wireCodeForPeer,
  wireErrorForPeer,
  watcherConnectionMessage,
  notWatcherMessage,
} from "./codes.js";
export {
  OPS,
  requestIdSchema,
  seqSchema,
  roleNameSchema,
  roomNameSchema,
  validRoomNameSchema,
  idempotencyKeySchema,
  helloRequestSchema,
  joinRequestSchema,
  leaveRequestSchema,
  postRequestSchema,
  digestRequestSchema,
  fetchRequestSchema,
  roomsRequestSchema,
  membersRequestSchema,
  statusRequestSchema,
  watchRequestSchema,
  peekRequestSchema,
  requestSchemas,
  requestSchema,
  helloResultSchema,
  joinResultSchema,
  leaveResultSchema,
  postResultSchema,
  digestResultSchema,
  messageSchema,
  evictedRangeSchema,
  fetchResultSchema,
  roomSummarySchema,
  roomsResultSchema,
  membersResultSchema,
  heldTextSchema,
  statusResultSchema,
  watchedMemberSchema,
  servedCountsSchema,
  heldSchema,
  watchedPostSchema,
  watchedRoomSchema,
  watchResultSchema,
  peekResultSchema,
  resultSchemas,
  okReplySchemas,
  okReplySchema,
  wireErrorSchema,
  errorReplySchema,
  replySchema,
  postEventSchema,
  listedPostSchema,
  postsEventSchema,
  memberEventSchema,
  resetEventSchema,
  watchEventSchema,
  eventSchema,
  serverFrameSchema,
} from "./schemas.js";
export {
  parseRequest,
  parseServerFrame,
  readPeerProtocol,
  isCompatiblePeer,
  isOp,
  describeIssues,
  clipMessage,
} from "./parse.js";
export { PROTOCOL_EXAMPLES } from "./examples.js";
export { RoundtableProtocolError, WireRefusalError, ServerFrameInvalidError } from "./errors.js";
export type { WireErrorCode, ProtocolMismatch } from "./codes.js";
export type { RequestParse, PeerProtocol } from "./parse.js";
export type { ProtocolExample } from "./examples.js";
export type { AnnouncedPost } from "./events.js";
export type {
  Op,
  RoundtableRequest,
  RequestFor,
  RequestParams,
  ResultFor,
  OkReplyFor,
  OkReply,
  ErrorReply,
  Reply,
  WireError,
  PostEvent,
  PostsEvent,
  ListedPost,
  MemberEvent,
  ResetEvent,
  RoundtableEvent,
  ServerFrame,
  FetchedMessage,
  EvictedRange,
  RoomSummary,
  WatchEvent,
  WatchedRoom,
  WatchedPost,
  WatchedMember,
  ServedCounts,
  Held,
} from "./types.js";
