import * as z from "zod";
import { wireErrorCodeSchema } from "./codes.js";
import {
  DEFAULT_FETCH_CHARS,
  DEFAULT_FETCH_LIMIT,
  DEFAULT_PEEK_LIMIT,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_KEY_WINDOW,
  MAX_REQUEST_DIGEST_BUDGET,
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_STORE_DESCRIPTION_LENGTH,
  MAX_FETCH_CHARS,
  MAX_FETCH_LIMIT,
  MAX_PEEK_LIMIT,
  MAX_WATCH_HEADLINE_CHARS,
  MAX_WATCH_RECENT,
  MAX_POSTS_PER_EVENT,
  MAX_ROOM_NAME_LENGTH,
  MAX_VALID_ROOM_NAME_LENGTH,
  ROLE_NAME_PATTERN,
  ROOM_NAME_PATTERN,
} from "./constants.js";

// ---------------------------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------------------------

/** A request id: chosen by the client, echoed by the reply; unique among the client's requests in flight. */
export const requestIdSchema = z
  .number()
  .int()
  .min(0)
  .max(Number.MAX_SAFE_INTEGER)
  .describe("Chosen by the client and echoed by the reply; unique among the requests in flight on a connection.");

/** A sequence number: per room, starting at 1, never reused. 0 means "before the first message". */
export const seqSchema = z
  .number()
  .int()
  .min(0)
  .max(Number.MAX_SAFE_INTEGER)
  .describe("Per-room sequence number: starts at 1 and is never reused; 0 means before the first message.");

/** A role name: who a connection speaks as. Cursors key on it, so a stable name keeps the read position. */
export const roleNameSchema = z
  .string()
  .regex(ROLE_NAME_PATTERN, {
    error: "a role name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
  })
  .describe("Role name: 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.");

/** A room name as the wire carries it; the broker's registry applies its syntax ({@link validRoomNameSchema}). */
export const roomNameSchema = z
  .string()
  .min(1)
  .max(MAX_ROOM_NAME_LENGTH)
  .describe(`Room name; the broker accepts ${ROOM_NAME_PATTERN.source}.`);

/**
 * A room name the broker accepts: {@link ROOM_NAME_PATTERN}, 1 to {@link MAX_VALID_ROOM_NAME_LENGTH} characters.
 * For input checked before it reaches the wire (the shared tool, MCP tools, the CLI); its JSON Schema carries the
 * pattern and the length, so a caller's schema says what the broker will accept.
 */
export const validRoomNameSchema = z
  .string()
  .min(1, { error: "a room name cannot be empty" })
  .max(MAX_VALID_ROOM_NAME_LENGTH, {
    error: `a room name is at most ${MAX_VALID_ROOM_NAME_LENGTH} characters`,
  })
  .regex(ROOM_NAME_PATTERN, {
    error:
      "a room name is lower-case letters, digits, '.', '_' or '-', starting with a letter or digit " +
      `(${ROOM_NAME_PATTERN.source})`,
  })
  .describe(
    `Room name: 1 to ${MAX_VALID_ROOM_NAME_LENGTH} lower-case letters, digits, '.', '_' or '-', starting with a ` +
      "letter or digit (e.g. design-review).",
  );

/** A post's idempotency key: chosen by the client, unique per post, and sent again unchanged when the post is retried. */
export const idempotencyKeySchema = z
  .string()
  .regex(IDEMPOTENCY_KEY_PATTERN, { error: "an idempotency key is 1 to 64 letters, digits, '_' or '-'" })
  .describe(
    "Chosen by the client, unique per post, sent again unchanged when the post is retried: 1 to 64 letters, " +
      "digits, '_' or '-'.",
  );

/** Milliseconds since the Unix epoch. */
const epochMsSchema = z.number().int().min(0).describe("Milliseconds since the Unix epoch.");

const countSchema = z.number().int().min(0);

/** An optional bound a request puts on a page, 1 to `max` (messages, or characters of their text). */
const pageBoundSchema = (max: number) => z.number().int().min(1).max(max).optional();

const roleListSchema = z.array(roleNameSchema).describe("Member role names, sorted.");

// ---------------------------------------------------------------------------------------------------------------
// Requests: { id, op, ...arguments }
// ---------------------------------------------------------------------------------------------------------------

/** hello: the first request on every connection; names the protocol, its version, the role and the client's pid. */
export const helloRequestSchema = z
  .object({
    id: requestIdSchema,
    op: z.literal("hello"),
    protocol: z.string().max(64).describe('Protocol name; "orphus-roundtable".'),
    version: z.number().int().min(0).describe("Protocol version the client speaks."),
    role: roleNameSchema,
    pid: z.number().int().min(0).describe("Process id of the client, for diagnostics."),
    watch: z
      .literal(true)
      .optional()
      .describe(
        "Makes the connection a watcher (version 3): no member of anything, its role only a label in the broker's " +
          "log. It may watch, peek, and ask rooms, members and status; member ops are refused with " +
          "ERR_WATCHER_CONNECTION.",
      ),
  })
  .meta({
    title: "hello request",
    description:
      "The first request on every connection: names the protocol, its version, the role the connection " +
      "speaks as and the client's pid. Any other request before it is refused with ERR_HELLO_REQUIRED; a " +
      "peer of another protocol or version is refused with ERR_PROTOCOL_MISMATCH and the connection is " +
      "closed. With watch: true (version 3) the connection is a watcher, which changes nothing: it is never a " +
      "member, never listed, moves no read cursor and causes no event for anyone.",
  });

/** join: makes the connection's role a member of a room, creating the room when it does not exist. */
export const joinRequestSchema = z.object({ id: requestIdSchema, op: z.literal("join"), room: roomNameSchema }).meta({
  title: "join request",
  description:
    "Makes the connection's role a member of a room, creating the room when it does not exist. Membership " +
    "belongs to the role: once it is a member, every connection of the role may post and read there. Every " +
    "other connection of a member role gets a join event when the role becomes a member; joining again changes " +
    "nothing and sends none.",
});

/** leave: takes the connection's role out of a room, from whichever of its connections asks. */
export const leaveRequestSchema = z.object({ id: requestIdSchema, op: z.literal("leave"), room: roomNameSchema }).meta({
  title: "leave request",
  description:
    "Takes the connection's role out of a room, whichever of its connections asks (it need not be the one " +
    "that joined). Every other connection of the role and of the remaining members gets a leave event; the " +
    "role's other connections then get no more events from the room. Leaving a room the role is not in is not " +
    "an error (left: false).",
});

/** post: appends a message to a room the role is a member of. */
export const postRequestSchema = z
  .object({
    id: requestIdSchema,
    op: z.literal("post"),
    room: roomNameSchema,
    body: z.string().describe("Message text, shown in full by fetch and by a digest while the budget allows."),
    headline: z
      .string()
      .optional()
      .describe("One-line summary a digest falls back to when the body no longer fits; default: its first line."),
    idempotencyKey: idempotencyKeySchema
      .optional()
      .describe(
        "Makes the post safe to retry: a repeat of a key the room remembers is answered with the original seq " +
          "(repeated: true) and appends nothing.",
      ),
  })
  .meta({
    title: "post request",
    description:
      "Appends a message to a room the role is a member of; the connection need not have joined itself. " +
      "Every connection of every member role except the posting one gets a post event with the room, the seq " +
      "and the author, never the body. A post that carries an idempotencyKey can be " +
      "retried after a timeout or a lost connection without being stored twice: the broker remembers the keys " +
      `of the last ${IDEMPOTENCY_KEY_WINDOW} keyed posts of each room and answers a repeat with the original ` +
      "seq and postedAt, even after the role's membership ended with its connection. A key the room holds for " +
      "another author or other text is refused with ERR_IDEMPOTENCY_KEY_REUSED.",
  });

/** digest: the role's unread messages in a room, rendered within a character budget; advances the role's cursor. */
export const digestRequestSchema = z
  .object({
    id: requestIdSchema,
    op: z.literal("digest"),
    room: roomNameSchema,
    budget: z
      .number()
      .int()
      .min(0)
      .max(MAX_REQUEST_DIGEST_BUDGET)
      .optional()
      .describe("Characters the digest may spend outside its one marker line; default 2000."),
  })
  .meta({
    title: "digest request",
    description:
      "The role's unread messages in a room, rendered newest-first within a character budget: at most " +
      "budget characters plus one marker line. Moves the role's read cursor to throughSeq, the newest " +
      "message covered.",
  });

/** fetch: messages after a sequence number, in full, one small page at a time; advances the role's cursor. */
export const fetchRequestSchema = z
  .object({
    id: requestIdSchema,
    op: z.literal("fetch"),
    room: roomNameSchema,
    afterSeq: seqSchema.optional().describe("Return messages numbered above this; default: the role's read cursor."),
    limit: pageBoundSchema(MAX_FETCH_LIMIT).describe(`Most messages to return; default ${DEFAULT_FETCH_LIMIT}.`),
    maxChars: pageBoundSchema(MAX_FETCH_CHARS).describe(
      `Most characters of message text (body plus headline, in UTF-16 code units) the page holds; default ` +
        `${DEFAULT_FETCH_CHARS}. The first message comes whole even when it alone is longer. A broker refuses a ` +
        "cap above its reply limit with ERR_INVALID_REQUEST (version 2).",
    ),
  })
  .meta({
    title: "fetch request",
    description:
      "Messages numbered above afterSeq (default: the role's read cursor), in full, one small page at a " +
      "time: the page stops at limit messages or maxChars characters of text, whichever comes first, but " +
      "always carries one whole message. Moves the role's read cursor forward to the newest message returned; " +
      "a cursor never moves backwards, so re-reading old messages leaves it where it is.",
  });

/** rooms: every room on the broker, with its size and whether the role is a member. */
export const roomsRequestSchema = z.object({ id: requestIdSchema, op: z.literal("rooms") }).meta({
  title: "rooms request",
  description:
    "Every room on the broker, with its member count, its newest seq, whether the role is a member and, " +
    "if so, how many messages it has unread.",
});

/** members: the member roles of one room. */
export const membersRequestSchema = z
  .object({ id: requestIdSchema, op: z.literal("members"), room: roomNameSchema })
  .meta({
    title: "members request",
    description: "The member roles of one room. Membership is not needed to ask.",
  });

/** status: the broker's pid, uptime, version and load. */
export const statusRequestSchema = z.object({ id: requestIdSchema, op: z.literal("status") }).meta({
  title: "status request",
  description: "The broker's pid, uptime, version and load, for diagnostics.",
});

/** watch: a snapshot of every room, after which the broker pushes watch events to this connection. */
export const watchRequestSchema = z.object({ id: requestIdSchema, op: z.literal("watch") }).meta({
  title: "watch request",
  description:
    "Watcher connections only (version 3). Answers a snapshot of the broker and every room (its newest seq, what it " +
    `holds, its members with their unread counts, what the broker served each role, its newest ${MAX_WATCH_RECENT} ` +
    "posts as headlines); from then on the broker pushes watch events to this connection alone. Watch events are " +
    "coalesced and bounded per watcher: a watcher that reads slower than the rooms change loses events and gets a " +
    "gap event, after which it asks watch again for a fresh snapshot. Nothing about the rooms changes.",
});

/** peek: a bounded page of a room's messages in full, for a watcher; moves no cursor. */
export const peekRequestSchema = z
  .object({
    id: requestIdSchema,
    op: z.literal("peek"),
    room: roomNameSchema,
    afterSeq: seqSchema.optional().describe("Return messages numbered above this, oldest first."),
    beforeSeq: seqSchema
      .optional()
      .describe("Return the newest messages numbered below this (default: the newest of the room), oldest first."),
    limit: pageBoundSchema(MAX_PEEK_LIMIT).describe(`Most messages to return; default ${DEFAULT_PEEK_LIMIT}.`),
    maxChars: pageBoundSchema(MAX_FETCH_CHARS).describe(
      `Most characters of message text the page holds, counted as fetch counts them; default ${DEFAULT_FETCH_CHARS}. ` +
        "The message nearest the page's start comes whole even when it alone is longer.",
    ),
  })
  .meta({
    title: "peek request",
    description:
      "Watcher connections only (version 3). A page of a room's retained messages in full, bounded like a fetch " +
      "page (limit, maxChars, the broker's reply limit), without membership and moving no cursor. With afterSeq " +
      "the page reads forward from it (more: messages follow); otherwise it reads back from beforeSeq, or from the " +
      "newest message (more: older messages are retained). With both, forward from afterSeq and below beforeSeq.",
  });

/** Every request, by op. */
export const requestSchemas = {
  hello: helloRequestSchema,
  join: joinRequestSchema,
  leave: leaveRequestSchema,
  post: postRequestSchema,
  digest: digestRequestSchema,
  fetch: fetchRequestSchema,
  rooms: roomsRequestSchema,
  members: membersRequestSchema,
  status: statusRequestSchema,
  watch: watchRequestSchema,
  peek: peekRequestSchema,
} as const;

/** Any request. */
export const requestSchema = z.discriminatedUnion("op", [
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
]);

// ---------------------------------------------------------------------------------------------------------------
// Results: the `result` member of a successful reply, by op
// ---------------------------------------------------------------------------------------------------------------

/** Where a broker keeps its rooms, secrets masked: `memory`, or the store URL with its password masked. */
const storeDescriptionSchema = z
  .string()
  .max(MAX_STORE_DESCRIPTION_LENGTH)
  .describe(
    "Where the broker keeps its rooms, every secret masked: `memory` (this broker's process), or a Redis URL " +
      "(`redis://user:***@host:6379/0`) shared with the brokers of other hosts.",
  );

/** Result of hello: what the broker speaks and who it is. */
export const helloResultSchema = z
  .object({
    protocol: z.string(),
    version: z
      .number()
      .int()
      .min(0)
      .describe("Protocol version the broker speaks; it answers older clients it serves with its own version too."),
    role: roleNameSchema,
    brokerPid: z.number().int().min(0),
    brokerVersion: z.string().describe("Package version of the broker."),
    store: storeDescriptionSchema,
    brokerInstance: z
      .string()
      .regex(/^[0-9a-f]{1,64}$/)
      .optional()
      .describe(
        "Random id of this run of the broker, new at every start (lowercase hex): a client that meets another one " +
          "knows the broker restarted, and rooms on the memory store started empty. Brokers before it leave it out.",
      ),
  })
  .meta({ title: "hello result" });

/** Result of join. */
export const joinResultSchema = z
  .object({
    room: roomNameSchema,
    created: z.boolean().describe("True when this join created the room."),
    members: roleListSchema,
    newestSeq: seqSchema.describe("Sequence number of the room's newest message; 0 when it has none."),
    unread: countSchema.describe("Messages above the role's read cursor, retained or evicted."),
  })
  .meta({ title: "join result" });

/** Result of leave. */
export const leaveResultSchema = z
  .object({
    room: roomNameSchema,
    left: z.boolean().describe("False when the role was not in the room (leave is idempotent)."),
  })
  .meta({ title: "leave result" });

/** Result of post. */
export const postResultSchema = z
  .object({
    room: roomNameSchema,
    seq: seqSchema,
    postedAt: epochMsSchema,
    repeated: z
      .literal(true)
      .optional()
      .describe("Present when the idempotency key named a post already stored: nothing was appended."),
  })
  .meta({ title: "post result" });

/** Result of digest: the rendered text and what it covered. */
export const digestResultSchema = z
  .object({
    room: roomNameSchema,
    text: z.string().describe("At most the budget in characters, plus one marker line; empty when nothing is unread."),
    full: countSchema.describe("Messages shown in full."),
    excerpted: countSchema.describe(
      "Messages shown as an excerpt: their opening, how many characters follow and the fetch that reads them whole.",
    ),
    headlined: countSchema.describe("Messages shown as a headline only."),
    collapsed: countSchema.describe("Messages counted in the marker line only (fetch gets them back)."),
    evicted: countSchema.describe("Unread messages that left the ring before they could be read."),
    throughSeq: seqSchema.describe("Newest sequence number covered; the role's cursor now stands here."),
    fetchAfterSeq: seqSchema
      .nullable()
      .describe("Pass as fetch's afterSeq to read the collapsed messages in full; null when none collapsed."),
  })
  .meta({ title: "digest result" });

/** One message, in full. */
export const messageSchema = z
  .object({
    seq: seqSchema,
    author: roleNameSchema,
    body: z.string(),
    headline: z.string().optional(),
    postedAt: epochMsSchema,
  })
  .meta({ title: "message" });

/** Messages that left the ring before the reader got to them. */
export const evictedRangeSchema = z
  .object({ count: countSchema, fromSeq: seqSchema, toSeq: seqSchema })
  .meta({ title: "evicted range" });

/** Result of fetch. */
export const fetchResultSchema = z
  .object({
    room: roomNameSchema,
    messages: z.array(messageSchema).describe("Oldest first, all numbered above afterSeq."),
    evicted: evictedRangeSchema
      .optional()
      .describe("Present when afterSeq is older than the retained window: what was lost."),
    newestSeq: seqSchema.describe("Sequence number of the room's newest message."),
    more: z.boolean().describe("True when retained messages remain after the last one returned."),
    nextAfterSeq: seqSchema.describe(
      "Pass as afterSeq to read on from this page: its last message, else past what was evicted (version 2).",
    ),
    maxChars: z
      .number()
      .int()
      .min(1)
      .describe("The character cap this page was cut at: the request's, else the default (version 2)."),
  })
  .meta({ title: "fetch result" });

/** One room in the rooms result. */
export const roomSummarySchema = z
  .object({
    room: roomNameSchema,
    members: countSchema,
    newestSeq: seqSchema,
    joined: z.boolean().describe("Whether the connection's role is a member."),
    unread: countSchema.optional().describe("Messages above the role's cursor; present only when joined."),
  })
  .meta({ title: "room summary" });

/** Result of rooms. */
export const roomsResultSchema = z.object({ rooms: z.array(roomSummarySchema) }).meta({ title: "rooms result" });

/** Result of members. */
export const membersResultSchema = z
  .object({ room: roomNameSchema, members: roleListSchema })
  .meta({ title: "members result" });

/** The message text a broker holds in its own memory against its budget. */
export const heldTextSchema = z
  .object({
    heldBytes: countSchema.describe(
      "Bytes of message text held, all rooms together: two per UTF-16 code unit of each retained body and headline.",
    ),
    maxHeldBytes: countSchema.describe(
      "The budget: a post that takes heldBytes past it evicts the oldest messages of the largest rooms " +
        "(never the post itself), reported to their readers as evicted, like the ring's own evictions.",
    ),
    evictedMessages: countSchema.describe("Messages evicted to keep under the budget since the broker started."),
  })
  .meta({ title: "held text" });

/** Result of status. */
export const statusResultSchema = z
  .object({
    pid: z.number().int().min(0),
    uptimeMs: z.number().int().min(0),
    version: z.string().describe("Package version of the broker."),
    protocol: z.string(),
    protocolVersion: z.number().int().min(0),
    rooms: countSchema,
    connections: countSchema,
    socketPath: z.string(),
    pingsDropped: countSchema.describe("Activity pings dropped for slow readers since start."),
    store: storeDescriptionSchema,
    storeAvailable: z
      .boolean()
      .describe("False while the room store does not answer (requests fail with ERR_STORE_UNAVAILABLE meanwhile)."),
    heldText: heldTextSchema
      .optional()
      .describe(
        "The message text the broker holds against its budget; absent when the rooms live elsewhere (a Redis store), " +
          "and from brokers older than the budget.",
      ),
  })
  .meta({ title: "status result" });

/** A role's number of messages above its read cursor, as a watcher sees it. */
export const watchedMemberSchema = z
  .object({ role: roleNameSchema, unread: countSchema.describe("Messages above the role's read cursor.") })
  .meta({ title: "watched member" });

/** What a broker served one role of one room, in characters, since the broker started (running totals). */
export const servedCountsSchema = z
  .object({
    role: roleNameSchema,
    digestChars: countSchema.describe("Characters of digest text this broker returned to the role's connections."),
    fetchChars: countSchema.describe(
      "Characters of message text (body plus headline, as fetch counts them) in the fetch pages it returned.",
    ),
    pingChars: countSchema.describe(
      "Characters of the post events (pings) it sent the role's connections, each counted as the JSON of its " +
        "own post event, once per connection that was sent it (a merged posts event counts as its posts).",
    ),
  })
  .meta({ title: "served counts" });

/** What a room holds now. */
export const heldSchema = z
  .object({
    messages: countSchema.describe("Messages the room retains."),
    chars: countSchema.describe("Characters of message text they hold, counted as fetch counts them."),
  })
  .meta({ title: "held" });

/** A post as a watcher sees it: never its body, a bounded headline and its size. */
export const watchedPostSchema = z
  .object({
    seq: seqSchema.min(1),
    author: roleNameSchema,
    postedAt: epochMsSchema,
    headline: z
      .string()
      .max(MAX_WATCH_HEADLINE_CHARS)
      .describe(
        `The post's headline, else its body's first line, sanitised and cut to ${MAX_WATCH_HEADLINE_CHARS} characters.`,
      ),
    chars: countSchema.describe("Characters of the message's text (body plus headline), as fetch counts them."),
  })
  .meta({ title: "watched post" });

/** One room in a watch snapshot. */
export const watchedRoomSchema = z
  .object({
    room: roomNameSchema,
    lastSeq: seqSchema.describe("Sequence number of the room's newest message; 0 when it has none."),
    held: heldSchema,
    members: z.array(watchedMemberSchema).describe("Member roles, sorted, with their unread counts."),
    served: z
      .array(servedCountsSchema)
      .describe("One entry per role this broker ever served in the room, sorted by role."),
    recent: z.array(watchedPostSchema).max(MAX_WATCH_RECENT).describe("The newest retained posts, oldest first."),
  })
  .meta({ title: "watched room" });

/** Result of watch: the snapshot. */
export const watchResultSchema = z
  .object({
    broker: z.object({
      pid: z.number().int().min(0),
      instance: z.string().regex(/^[0-9a-f]{1,64}$/),
      store: storeDescriptionSchema,
      protocol: z.number().int().min(0).describe("Protocol version the broker speaks."),
      startedAt: epochMsSchema,
    }),
    rooms: z.array(watchedRoomSchema).describe("Every room of the store, sorted by name."),
  })
  .meta({ title: "watch result" });

/** Result of peek. */
export const peekResultSchema = z
  .object({
    room: roomNameSchema,
    messages: z.array(messageSchema).describe("Oldest first."),
    newestSeq: seqSchema,
    more: z
      .boolean()
      .describe("Reading forward (afterSeq): retained messages follow the page. Reading back: older ones precede it."),
    evicted: evictedRangeSchema
      .optional()
      .describe("Reading forward from an afterSeq older than the retained window: the messages that left it."),
  })
  .meta({ title: "peek result" });

/** Every result, by the op of the request it answers. */
export const resultSchemas = {
  hello: helloResultSchema,
  join: joinResultSchema,
  leave: leaveResultSchema,
  post: postResultSchema,
  digest: digestResultSchema,
  fetch: fetchResultSchema,
  rooms: roomsResultSchema,
  members: membersResultSchema,
  status: statusResultSchema,
  watch: watchResultSchema,
  peek: peekResultSchema,
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Replies
// ---------------------------------------------------------------------------------------------------------------

/** The ops a request may name. */
export const OPS = [
  "hello",
  "join",
  "leave",
  "post",
  "digest",
  "fetch",
  "rooms",
  "members",
  "status",
  "watch",
  "peek",
] as const;

function okReply<const O extends (typeof OPS)[number], R extends z.ZodType>(op: O, result: R) {
  return z
    .object({ id: requestIdSchema, ok: z.literal(true), op: z.literal(op), result })
    .meta({ title: `${op} reply` });
}

/** A successful reply to each op: echoes the request's id and op, and carries the op's result. */
export const okReplySchemas = {
  hello: okReply("hello", helloResultSchema),
  join: okReply("join", joinResultSchema),
  leave: okReply("leave", leaveResultSchema),
  post: okReply("post", postResultSchema),
  digest: okReply("digest", digestResultSchema),
  fetch: okReply("fetch", fetchResultSchema),
  rooms: okReply("rooms", roomsResultSchema),
  members: okReply("members", membersResultSchema),
  status: okReply("status", statusResultSchema),
  watch: okReply("watch", watchResultSchema),
  peek: okReply("peek", peekResultSchema),
} as const;

/** Any successful reply. */
export const okReplySchema = z.discriminatedUnion("op", [
  okReplySchemas.hello,
  okReplySchemas.join,
  okReplySchemas.leave,
  okReplySchemas.post,
  okReplySchemas.digest,
  okReplySchemas.fetch,
  okReplySchemas.rooms,
  okReplySchemas.members,
  okReplySchemas.status,
  okReplySchemas.watch,
  okReplySchemas.peek,
]);

/** What went wrong, in a refusal. */
export const wireErrorSchema = z
  .object({
    code: wireErrorCodeSchema,
    message: z.string().max(MAX_ERROR_MESSAGE_LENGTH),
    details: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
      .optional()
      .describe("Machine-readable facts behind the message (limits, versions)."),
  })
  .meta({ title: "wire error" });

/** A refusal: echoes the request's id (null when the request carried no readable id). */
export const errorReplySchema = z
  .object({
    id: requestIdSchema.nullable(),
    ok: z.literal(false),
    op: z.string().optional().describe("The request's op, when it was readable."),
    error: wireErrorSchema,
  })
  .meta({
    title: "error reply",
    description:
      "A refusal names a stable code from the catalogue, a message saying what failed and what to do, and " +
      "sometimes details (the limit, the versions). It echoes the request's id, or null when the id was unreadable.",
  });

/** Any reply. */
export const replySchema = z.union([okReplySchema, errorReplySchema]);

// ---------------------------------------------------------------------------------------------------------------
// Events: pushed by the broker, carrying no id
// ---------------------------------------------------------------------------------------------------------------

/** Activity ping: a message was posted to a room the receiver is in. Never carries the body. */
export const postEventSchema = z
  .object({
    event: z.literal("post"),
    room: roomNameSchema,
    seq: seqSchema.min(1),
    author: roleNameSchema,
  })
  .meta({
    title: "post event",
    description:
      "A post event tells every connection of every member role of a room, except the posting connection, " +
      "that a message was posted: the room, its seq and its author. A second connection of the author's own " +
      "role gets it too. It never carries the body; a client counts these and pulls a digest when it chooses.",
  });

/**
 * One entry of a merged post event: a post by its seq and author, or with `count` that many posts in a row by one
 * author (seq, seq + 1, ...), so a burst costs its listeners a few bytes, not a few bytes a post; never a body.
 */
export const listedPostSchema = z
  .object({
    seq: seqSchema.min(1),
    author: roleNameSchema,
    count: z
      .number()
      .int()
      .min(2)
      .max(MAX_POSTS_PER_EVENT)
      .optional()
      .describe(
        "Posts in a row this entry stands for, all by author: seq, seq + 1, ..., seq + count - 1. Absent for one post.",
      ),
  })
  .meta({ title: "listed post" });

/** Posts a posts event's entries stand for, a `count` counting as that many. */
function listedPostCount(posts: readonly { readonly count?: number | undefined }[]): number {
  let total = 0;
  for (const post of posts) total += post.count ?? 1;
  return total;
}

/**
 * Several posts to one room in one frame (version 2): what a broker sends instead of a run of post events for the
 * same room that wait for one connection at once. Never carries a body.
 */
export const postsEventSchema = z
  .object({
    event: z.literal("posts"),
    room: roomNameSchema,
    posts: z
      .array(listedPostSchema)
      .min(1)
      .max(MAX_POSTS_PER_EVENT)
      .refine((posts) => listedPostCount(posts) <= MAX_POSTS_PER_EVENT, {
        error: `the entries stand for more than ${MAX_POSTS_PER_EVENT} posts`,
      })
      .refine((posts) => posts.every(({ seq, count = 1 }) => count - 1 <= Number.MAX_SAFE_INTEGER - seq), {
        error: "an entry's posts run past the largest seq",
      })
      .describe(
        `In seq order: each post as its own post event would have announced it, consecutive posts of one author ` +
          `as one entry with a count; ${MAX_POSTS_PER_EVENT} posts at most in all.`,
      ),
  })
  .meta({
    title: "posts event",
    description:
      "A posts event stands for several post events of one room: when post events for the same room wait to be " +
      "written to one connection in the same turn of the broker's event loop, or while the connection's earlier " +
      "frames are still being written (a burst of posts, a pipelined batch, a reader slower than the posts), a " +
      `version-2 connection gets one frame listing them, at most ${MAX_POSTS_PER_EVENT} to a frame, ` +
      "instead of one frame each; posts in a row by one author share one entry with a count. A lone post still " +
      "goes as a post event, and a version-1 connection always gets post events. Reading it is reading its posts " +
      "in order, each as a post event with the same room.",
  });

/** Membership churn in a room the receiver is in; sequence 0 so it cannot pass for content. */
export const memberEventSchema = z
  .object({
    event: z.enum(["join", "leave", "disconnect"]).describe("join, leave, or the role's last connection dropped."),
    room: roomNameSchema,
    seq: z.literal(0),
    role: roleNameSchema,
  })
  .meta({
    title: "member event",
    description:
      "A member event tells the connections of a room's members, except the one whose request caused it, " +
      "that a role joined, left, or lost its last connection (disconnect). A role's own other connections get " +
      "its join and leave too. Its seq is always 0: membership churn, never content.",
  });

/** The broker's room store lost its data: every membership and read position is gone. */
export const resetEventSchema = z
  .object({
    event: z.literal("reset"),
    seq: z.literal(0),
    store: storeDescriptionSchema,
  })
  .meta({
    title: "reset event",
    description:
      "A reset event tells every connection of a broker on a shared room store (Redis) that the store lost its " +
      "data (it was restarted without persistence): every role's memberships and read positions are gone, so " +
      "join again. Rooms the running brokers knew continue past their last seq, so a seq is never reused; the " +
      "messages before it read as evicted. The event is not the only word: the next request naming a room (join, " +
      "leave, post, digest, fetch, members) of every connection that said hello before the loss is refused with " +
      "ERR_STORE_RESET, nothing done, unless a request of that connection already met the loss; hello, status and " +
      "rooms are served as usual. Sent to clients of version 2 and later; a version-1 client gets no event, and " +
      "ERR_NOT_MEMBER with the same message in place of that refusal.",
  });

const watchEvent = z.literal("watch");

/**
 * What a watcher is told, pushed to watcher connections only (version 3), one kind per frame: a post (its headline,
 * never its body), a room's members with their unread counts, a role's running served totals, a room's newest seq
 * and what it holds, a gap (watch events were dropped: ask watch again), or a reset (the store lost the rooms).
 */
export const watchEventSchema = z
  .discriminatedUnion("kind", [
    watchedPostSchema.extend({ event: watchEvent, kind: z.literal("post"), room: roomNameSchema }),
    z.object({
      event: watchEvent,
      kind: z.literal("members"),
      room: roomNameSchema,
      members: z.array(watchedMemberSchema),
    }),
    servedCountsSchema.extend({
      event: watchEvent,
      kind: z.literal("served"),
      room: roomNameSchema,
      at: epochMsSchema,
    }),
    z.object({
      event: watchEvent,
      kind: z.literal("room"),
      room: roomNameSchema,
      lastSeq: seqSchema,
      held: heldSchema,
    }),
    z.object({
      event: watchEvent,
      kind: z.literal("gap"),
      dropped: countSchema.describe("Watch events dropped since the last one this watcher was sent."),
    }),
    z.object({
      event: watchEvent,
      kind: z.literal("reset"),
      room: roomNameSchema.optional().describe("The room lost; absent when the store lost every room."),
    }),
  ])
  .meta({
    title: "watch event",
    description:
      "A watch event goes to a watcher connection that asked watch (version 3), and to nobody else. Its kind says " +
      "what changed: post (a post's seq, author, time, headline and size, never its body), members (a room's members " +
      "and their unread counts, after a join, leave, disconnect, read or post), served (a role's running totals of " +
      "what this broker served it in a room), room (a room's newest seq and what it holds), gap (events were " +
      "dropped for a watcher slower than the rooms: ask watch again), reset (the store lost the room, or every " +
      "room). Events of one room come in order; members, served and room events that wait for a slow watcher " +
      "are replaced by newer ones of the same room and role.",
  });

/** Any event a member connection hears (a watcher's are {@link watchEventSchema}). */
export const eventSchema = z.union([postEventSchema, postsEventSchema, memberEventSchema, resetEventSchema]);

/** Anything a broker sends: a reply (has `id` and `ok`) or an event (has `event`). */
export const serverFrameSchema = z.union([
  okReplySchema,
  errorReplySchema,
  postEventSchema,
  postsEventSchema,
  memberEventSchema,
  resetEventSchema,
  watchEventSchema,
]);
