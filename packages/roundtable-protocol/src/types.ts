import type * as z from "zod";
import type { WireErrorCode } from "./codes.js";
import type {
  OPS,
  errorReplySchema,
  evictedRangeSchema,
  eventSchema,
  memberEventSchema,
  messageSchema,
  okReplySchema,
  okReplySchemas,
  listedPostSchema,
  postEventSchema,
  postsEventSchema,
  replySchema,
  resetEventSchema,
  requestSchema,
  requestSchemas,
  resultSchemas,
  roomSummarySchema,
  serverFrameSchema,
  wireErrorSchema,
  heldSchema,
  servedCountsSchema,
  watchEventSchema,
  watchedMemberSchema,
  watchedPostSchema,
  watchedRoomSchema,
} from "./schemas.js";

/** An op a request may name. */
export type Op = (typeof OPS)[number];
/** Any request. */
export type RoundtableRequest = z.infer<typeof requestSchema>;
/** The request of one op. */
export type RequestFor<O extends Op> = z.infer<(typeof requestSchemas)[O]>;
/** The arguments of one op's request: the request without its id and op. */
export type RequestParams<O extends Op> = Omit<RequestFor<O>, "id" | "op">;
/** The result one op's successful reply carries. */
export type ResultFor<O extends Op> = z.infer<(typeof resultSchemas)[O]>;
/** The successful reply to one op. */
export type OkReplyFor<O extends Op> = z.infer<(typeof okReplySchemas)[O]>;
/** Any successful reply. */
export type OkReply = z.infer<typeof okReplySchema>;
/** A refusal. */
export type ErrorReply = z.infer<typeof errorReplySchema>;
/** Any reply. */
export type Reply = z.infer<typeof replySchema>;
/** What went wrong, in a refusal. */
export type WireError = z.infer<typeof wireErrorSchema> & { readonly code: WireErrorCode };
/** An activity ping: room, seq, author; never the body. */
export type PostEvent = z.infer<typeof postEventSchema>;
/** Several posts to one room in one frame (version 2). */
export type PostsEvent = z.infer<typeof postsEventSchema>;
/** One post a posts event lists. */
export type ListedPost = z.infer<typeof listedPostSchema>;
/** Membership churn (seq 0). */
export type MemberEvent = z.infer<typeof memberEventSchema>;
/** The room store lost its data (seq 0). */
export type ResetEvent = z.infer<typeof resetEventSchema>;
/** Any event. */
export type RoundtableEvent = z.infer<typeof eventSchema>;
/** Anything a broker sends. */
export type ServerFrame = z.infer<typeof serverFrameSchema>;
/** One message as fetch returns it. */
export type FetchedMessage = z.infer<typeof messageSchema>;
/** Messages that left the ring unread. */
export type EvictedRange = z.infer<typeof evictedRangeSchema>;
/** One room as the rooms op lists it. */
export type RoomSummary = z.infer<typeof roomSummarySchema>;
/** A push to a watcher connection (version 3). */
export type WatchEvent = z.infer<typeof watchEventSchema>;
/** One room of a watch snapshot. */
export type WatchedRoom = z.infer<typeof watchedRoomSchema>;
/** A post as a watcher sees it. */
export type WatchedPost = z.infer<typeof watchedPostSchema>;
/** A member role and its unread count, as a watcher sees them. */
export type WatchedMember = z.infer<typeof watchedMemberSchema>;
/** What a broker served one role of one room, in characters. */
export type ServedCounts = z.infer<typeof servedCountsSchema>;
/** What a room holds. */
export type Held = z.infer<typeof heldSchema>;
