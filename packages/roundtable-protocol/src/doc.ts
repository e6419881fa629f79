import * as z from "zod";
import { WIRE_ERROR_CODES } from "./codes.js";
import {
  DEFAULT_DIGEST_BUDGET,
  DEFAULT_FETCH_CHARS,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_KEY_WINDOW,
  DEFAULT_FETCH_LIMIT,
  MAX_REQUEST_DIGEST_BUDGET,
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_FETCH_CHARS,
  MAX_FETCH_LIMIT,
  MAX_POSTS_PER_EVENT,
  MAX_ROOM_NAME_LENGTH,
  OLDEST_PEER_VERSION,
  MAX_VALID_ROOM_NAME_LENGTH,
  PROTOCOL_NAME,
  PROTOCOL_VERSION,
  STORE_WIRE_VERSION,
  WATCH_SINCE_VERSION,
  MAX_WATCH_RECENT,
  MAX_WATCH_HEADLINE_CHARS,
  DEFAULT_PEEK_LIMIT,
  MAX_PEEK_LIMIT,
  ROLE_NAME_PATTERN,
  ROOM_NAME_PATTERN,
} from "./constants.js";
import { PROTOCOL_EXAMPLES, type ProtocolExample } from "./examples.js";
import {
  OPS,
  errorReplySchema,
  memberEventSchema,
  postEventSchema,
  postsEventSchema,
  requestSchemas,
  resetEventSchema,
  resultSchemas,
  watchEventSchema,
} from "./schemas.js";

/** Where the generated document lives, relative to the repository root. */
export const PROTOCOL_DOC_PATH = "docs/protocol.md";

/**
 * Limits a client meets on the wire that are the broker's settings rather than the protocol's: their defaults live
 * in @orphus/roundtable-broker and @orphus/rooms, which this package does not import. A broker test checks the
 * generated rows against those defaults, so the page cannot drift from them.
 */
const BROKER_DEFAULT_LIMITS = { bodyBytes: 32 * 1024, headlineBytes: 256, frameBytes: 1024 * 1024 } as const;

const bytes = (count: number): string => count.toLocaleString("en");

/** The frame of an example: its 4-byte header in hex and its payload, exactly as they travel. */
export function exampleFrame(value: unknown): { header: string; payload: string; bytes: number } {
  const payload = JSON.stringify(value);
  const bytes = Buffer.byteLength(payload, "utf8");
  const header = Buffer.alloc(4);
  header.writeUInt32BE(bytes, 0);
  return { header: [...header].map((b) => b.toString(16).padStart(2, "0")).join(" "), payload, bytes };
}

function jsonSchema(schema: z.ZodType, io: "input" | "output"): string {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io }) as Record<string, unknown>;
  return JSON.stringify(rest, null, 2);
}

function describe(schema: z.ZodType): string {
  return (z.toJSONSchema(schema) as { description?: string }).description ?? "";
}

function renderExample(example: ProtocolExample): string {
  const frame = exampleFrame(example.value);
  return [
    `Example (${example.direction}), header \`${frame.header}\` (${frame.bytes} bytes), then the payload:`,
    "",
    "```json",
    frame.payload,
    "```",
  ].join("\n");
}

function examplesWhere(test: (example: ProtocolExample) => boolean): ProtocolExample[] {
  return PROTOCOL_EXAMPLES.filter(test);
}

function details(summary: string, body: string): string {
  return ["<details>", `<summary>${summary}</summary>`, "", "```json", body, "```", "", "</details>"].join("\n");
}

function renderOp(op: (typeof OPS)[number]): string {
  const requestExamples = examplesWhere(
    (e) => typeof e.kind === "object" && "request" in e.kind && e.kind.request === op,
  );
  const replyExamples = examplesWhere((e) => typeof e.kind === "object" && "reply" in e.kind && e.kind.reply === op);
  return [
    `### \`${op}\``,
    "",
    describe(requestSchemas[op]),
    "",
    ...requestExamples.map(renderExample),
    "",
    ...replyExamples.map(renderExample),
    "",
    details(`JSON Schema of the ${op} request`, jsonSchema(requestSchemas[op], "input")),
    "",
    details(`JSON Schema of the ${op} result (the reply's \`result\`)`, jsonSchema(resultSchemas[op], "output")),
  ].join("\n");
}

/** A section of messages without an op: what each schema means, the examples, then each schema. */
function renderSection(heading: string, schemas: readonly z.ZodType[], examples: readonly ProtocolExample[]): string[] {
  return [
    `## ${heading}`,
    "",
    ...schemas.flatMap((schema) => [describe(schema), ""]),
    ...examples.flatMap((e) => [`### ${e.title}`, "", renderExample(e), ""]),
    ...schemas.flatMap((schema) => [details(`JSON Schema of the ${title(schema)}`, jsonSchema(schema, "output")), ""]),
  ];
}

function title(schema: z.ZodType): string {
  return (z.toJSONSchema(schema) as { title?: string }).title ?? "message";
}

/**
 * The membership model, stated once: the broker obeys it (its model test checks it against a plain model), and the
 * client and MCP READMEs point here.
 */
const MEMBERSHIP_SECTION = [
  "## Membership",
  "",
  "- Membership belongs to the role, not to a connection. A role is a member of a room from a `join` by any of " +
    "its connections until a `leave` by any of its connections, or until its last connection to the broker closes.",
  "- Every connection of a member role may post, digest and fetch in the room, whether or not it joined itself, " +
    "and receives the room's events, except the connection whose request caused the event.",
  "- `join` by a role that is already a member changes nothing and sends no event.",
  "- `leave` from any connection takes the role out (`left: true`; `false` when the role was not a member). The " +
    "role's other connections get the `leave` event naming their own role, then no more events from the room; " +
    "their posts and reads are refused with `ERR_NOT_MEMBER` until one of them joins again.",
  "- When the role's last connection closes, the role leaves every room it was in, and the remaining members get " +
    "a `disconnect` event.",
  "- A one-shot client (connect, hello, post, close) has no membership of its own: its post is stored when " +
    "another open connection of its role holds the room (that connection gets the post event, and the role stays " +
    "a member after the one-shot closes), and is refused with `ERR_NOT_MEMBER` otherwise. To post from nowhere, " +
    "join first: the other members then see `join`, `post` and `disconnect`.",
  "- Read cursors belong to the role as well: they survive leaving, reconnecting and joining again, for the broker's life.",
];

/** Renders docs/protocol.md from the schemas, the constants, the error catalogue and the checked examples. */
export function renderProtocolDoc(): string {
  const codeRows = Object.entries(WIRE_ERROR_CODES).map(([code, when]) => `| \`${code}\` | ${when} |`);
  const sections = [
    "# The roundtable wire protocol",
    "",
    "<!-- Generated by `pnpm --filter @orphus/roundtable-protocol generate-doc` from packages/roundtable-protocol/src. " +
      "Do not edit: a test fails when this file differs from what the schemas generate. -->",
    "",
    `Protocol \`${PROTOCOL_NAME}\`, version ${PROTOCOL_VERSION}. The schemas are exported by ` +
      "`@orphus/roundtable-protocol`; every example frame below is checked against them by its tests.",
    "",
    "## Framing",
    "",
    "Each message is one frame: a 4-byte big-endian unsigned length, then that many bytes of UTF-8 JSON " +
      "(`@orphus/framing`). Frames may be split across socket reads anywhere, and several may arrive in one read. " +
      "A frame that fails to decode (a length above the broker's frame limit, invalid UTF-8, invalid JSON) " +
      "destroys that connection and no other: framing that went wrong once cannot be trusted again. A frame that " +
      "decodes but fails its request schema gets an `ERR_INVALID_REQUEST` refusal and the connection stays.",
    "",
    "## Conversation",
    "",
    "- The client speaks first, with `hello`. Until then every other request is refused with `ERR_HELLO_REQUIRED`.",
    "- A request is a JSON object `{ id, op, ...arguments }`. The `id` is the client's choice (an integer from 0 " +
      "to 2^53-1) and is echoed by the reply.",
    "- A reply is `{ id, ok: true, op, result }` or `{ id, ok: false, op?, error: { code, message, details? } }`. " +
      "A refusal of a request whose id could not be read carries `id: null`. Replies on one connection come in " +
      "the order of the requests.",
    "- An event is `{ event, room, seq, ... }` (a `posts` event lists its seqs in `posts`; a `reset` names no " +
      "room) and carries no `id`; events arrive " +
      "between replies at any time.",
    "- A `post` event reaches every connection of every member role except the posting connection, with the " +
      "room, the seq and the author, never the body. Membership churn (`join`, `leave`, `disconnect`) goes out with `seq: 0`, so it cannot " +
      "pass for content. A slow reader may miss events (the broker drops pings rather than buffer without bound); " +
      "it never misses a reply.",
    "- Post events for one room that wait for a connection, in the same turn of the broker's event loop or while " +
      "the connection's earlier frames are still being written (a reader slower than the posts), reach a " +
      "version-2 connection as one `posts` event listing them in seq order, posts in a row by one author as one " +
      'entry with a `count` (`{ seq: 43, author: "critic", count: 3 }` stands for seqs 43, 44 and 45); a lone ' +
      "post still comes as a `post` event, and a version-1 connection gets only `post` events. What a connection " +
      "is sent in one turn leaves in one write; events may wait for its earlier write to finish, replies never do.",
    "- `digest` moves the role's read cursor to the newest message it covered; `fetch` moves it to the newest " +
      "message it returned. A cursor never moves backwards.",
    "- A `fetch` page stops at `limit` messages, at `maxChars` characters of message text, or at the broker's " +
      "byte limit, whichever comes first, and always carries one whole message: a message longer than the cap " +
      "arrives whole when it is the first of its page, because reading it in full is what fetch is for. `more` " +
      "says whether retained messages follow; pass `nextAfterSeq` as `afterSeq` to read on. A cap above the " +
      "broker's reply limit is refused with `ERR_INVALID_REQUEST`, naming the largest it serves.",
    "- Characters are counted one way everywhere: the UTF-16 code units (JavaScript's `String.length`) of a " +
      "message's body plus its headline, the unit a digest budget counts. So a page holds at most " +
      "max(`maxChars`, its first message) characters (`fetchMessageChars`).",
    "- A `post` may carry an `idempotencyKey` chosen by the client. Sending the same post again with the same key " +
      "(after a timeout, or over a new connection to the same broker after a lost one) cannot store it twice: the " +
      `broker remembers the keys of the last ${IDEMPOTENCY_KEY_WINDOW} keyed posts of each room and answers a ` +
      "repeat with the original `seq` and `postedAt` and `repeated: true`. A post that timed out may have been " +
      "stored; only a retry with its key finds out without risking a second copy. A key names one post: another " +
      "role's use of it, or other text while the first message is retained, is refused with " +
      "`ERR_IDEMPOTENCY_KEY_REUSED`. Keys live with the rooms: a new broker on the memory store knows none, brokers " +
      "on one shared store answer each other's retries.",
    "- By default rooms live in the broker's memory. A broker exits a few seconds after its last connection " +
      "closes, and a new one knows no rooms: a post then fails with " +
      `\`Not a member of room "<name>"; join it first\`.`,
    "- A broker may instead keep its rooms in a shared room store (Redis, `status` and `hello` name it as " +
      "`store`): brokers of several hosts on one store serve one set of rooms, and rooms and seqs outlive every " +
      "broker. A role is a member while any broker holds a connection of it. While the store does not answer, " +
      "requests fail with `ERR_STORE_UNAVAILABLE` within its timeout and the broker serves again once it answers; " +
      "if the store loses its data, every connection gets a `reset` event, its next request naming a room is " +
      "refused with `ERR_STORE_RESET`, and memberships must be joined again.",
    "",
    ...MEMBERSHIP_SECTION,
    "",
    "## Watching",
    "",
    `A connection whose hello says \`watch: true\` (version ${WATCH_SINCE_VERSION}) is a watcher: it sees the rooms ` +
      "and changes nothing.",
    "",
    "- It is no member of anything: it never appears in `members`, in a room's member count, in a digest, and its " +
      "role is no role of the rooms (a watcher saying hello as `planner` does not make `planner` present). It moves " +
      "no read cursor and causes no event for any member.",
    "- It may ask `watch`, `peek`, `rooms`, `members` and `status`. `join`, `leave`, `post`, `digest` and `fetch` " +
      "are refused with `ERR_WATCHER_CONNECTION`; `watch` and `peek` on a member connection with `ERR_NOT_WATCHER`. " +
      "Either refusal leaves the connection open.",
    "- `watch` answers a snapshot and starts the connection's watch events. They are coalesced and bounded per " +
      "watcher: `members`, `served` and `room` events that wait for a watcher are replaced by newer ones of the " +
      "same room (and role); when a watcher falls further behind than its bound, what waits is dropped and a " +
      "`gap` event follows once it reads again: ask `watch` again for a fresh snapshot. A slow or stalled watcher " +
      "never slows the posts, nor grows the broker's memory past its bound. A broker sends its watchers a round of " +
      "events at the end of the turn that made a change, and at most one round every 50 ms: changes made within that " +
      "pause go out together at its end, a room's new posts in one round being its newest 50 (`lastSeq` counts them " +
      "all; `peek` reads the rest).",
    "- `peek` reads a room's retained messages in full, bounded like `fetch`, without membership, moving no cursor.",
    "- Served counts are kept by each broker for the connections it serves, per room and role, from its start: " +
      "the characters of digest text, of fetch pages' message text, and of the post events it sent. On a shared " +
      "store every broker's watcher sees the same rooms, members and posts, and each broker's own served counts.",
    "",
    "## Constants",
    "",
    "| name | value |",
    "| --- | --- |",
    `| protocol name | \`${PROTOCOL_NAME}\` |`,
    `| protocol version | ${PROTOCOL_VERSION} |`,
    `| role-name syntax | \`${ROLE_NAME_PATTERN.source}\` |`,
    `| room-name length on the wire | 1 to ${MAX_ROOM_NAME_LENGTH} characters (the broker applies its room syntax) |`,
    `| oldest client version a broker serves | ${OLDEST_PEER_VERSION} |`,
    `| room-name syntax (the broker's) | \`${ROOM_NAME_PATTERN.source}\`, 1 to ${MAX_VALID_ROOM_NAME_LENGTH} characters |`,
    `| fetch limit | default ${DEFAULT_FETCH_LIMIT}, at most ${MAX_FETCH_LIMIT} |`,
    `| fetch characters (\`maxChars\`) | default ${DEFAULT_FETCH_CHARS}, at most ${MAX_FETCH_CHARS} and the broker's reply limit |`,
    `| digest budget | default ${DEFAULT_DIGEST_BUDGET} characters, at most ${MAX_REQUEST_DIGEST_BUDGET} |`,
    `| error message | at most ${MAX_ERROR_MESSAGE_LENGTH} characters |`,
    `| idempotency-key syntax | \`${IDEMPOTENCY_KEY_PATTERN.source}\` |`,
    `| idempotency keys remembered | the last ${IDEMPOTENCY_KEY_WINDOW} keyed posts of each room (broker default) |`,
    `| posts one \`posts\` event stands for | 1 to ${MAX_POSTS_PER_EVENT} |`,
    `| posts a watch snapshot shows per room | the newest ${MAX_WATCH_RECENT} |`,
    `| headline a watcher is sent | at most ${MAX_WATCH_HEADLINE_CHARS} characters |`,
    `| peek limit | default ${DEFAULT_PEEK_LIMIT}, at most ${MAX_PEEK_LIMIT} |`,
    `| post body | at most ${bytes(BROKER_DEFAULT_LIMITS.bodyBytes)} bytes of UTF-8 (32 KiB) by the broker's default ` +
      "(its `maxBodyBytes` option); a longer body is refused with `ERR_BODY_TOO_LARGE` |",
    `| post headline | at most ${bytes(BROKER_DEFAULT_LIMITS.headlineBytes)} bytes of UTF-8 by the broker's default ` +
      "(`maxHeadlineBytes`); a longer one is refused with `ERR_HEADLINE_TOO_LARGE` |",
    `| frame | at most ${bytes(BROKER_DEFAULT_LIMITS.frameBytes)} bytes (1 MiB) in either direction by the broker's ` +
      "default (`maxFrameBytes`); a larger request frame closes the connection, a larger reply is refused with " +
      "`ERR_REPLY_TOO_LARGE` |",
    "",
    "## Versions",
    "",
    "A hello names the client's version. The version is bumped on any change an older peer would misread; a " +
      "broker serves clients from the oldest version in the table above to its own, and refuses any other with " +
      "`ERR_PROTOCOL_MISMATCH`. Unknown members of a request are stripped, not refused.",
    "",
    "- Version 2 added fetch's character cap: `maxChars` in the request, `nextAfterSeq` and `maxChars` in the " +
      "result. A version-1 broker would strip `maxChars` and send an uncut page that a version-2 client would take " +
      "for a bounded one, so a version-2 client must not use it: the version-1 broker's exact version check " +
      "refuses it at hello, and the refusal says how to replace the running broker.",
    "- A version-2 broker serves version-1 clients. They name no cap and get the default one; their pages may " +
      "end sooner than before, which `more` already allowed (the byte limit cut pages in version 1 too), and the " +
      "version-1 client ignores reply members it does not know (its zod objects strip them), so it misreads nothing.",
    "- Version 2 also carries `idempotencyKey` on `post` and `repeated` in its result. Neither needed a bump of " +
      "its own: a broker that knew no keys would strip the key and store the post once, as it always did.",
    "- Version 2 also merges post events: several posts to one room waiting for a connection at once come as one " +
      "`posts` event listing them. A version-1 client would fail on an event kind it does not know, so a broker " +
      "sends a connection that said hello with version 1 one `post` event per post, as before.",
    "- Version 2 also carries the room store: the `reset` event, the codes `ERR_STORE_UNAVAILABLE` and " +
      "`ERR_STORE_RESET`, and `store` in the hello and status results (`storeAvailable` in status). A version-1 " +
      "client closes its connection on an event or a code it cannot parse, so a broker sends clients older than " +
      `version ${STORE_WIRE_VERSION} no reset event and \`ERR_INTERNAL\`, with the same message, in place of the two ` +
      "store codes, except that a reset refusal of a request naming a room goes to them as `ERR_NOT_MEMBER` (the " +
      "same message, details `{ room }`): that is the code that makes a version-1 client join again. So a " +
      "version-1 client learns of a reset on its next request naming a room, as a version-2 client does.",
    "- Version 2 also carries `brokerInstance` in the hello result, a random id new at every start of a broker, " +
      "without a bump: it is optional, a client that does not know it strips it, and a client that meets a broker " +
      "without it tells one broker from another by `brokerPid` alone. A client that meets another instance than " +
      "before knows the broker restarted: on the memory store its rooms, memberships and history are gone.",
    `- Version ${WATCH_SINCE_VERSION} adds watching: \`watch: true\` in hello, the \`watch\` and \`peek\` ops, ` +
      "the `watch` event and the codes `ERR_WATCHER_CONNECTION` and `ERR_NOT_WATCHER`. A version-2 broker would " +
      "strip `watch` and make a watcher a member, so it must refuse a version-3 hello, which its version check does. " +
      "A version-3 broker serves version-1 and -2 clients as before: they cannot say `watch`, never get a watch " +
      "event, and `watch` or `peek` from them is an unknown op (`ERR_UNKNOWN_OP`); the two new codes reach " +
      "them as `ERR_INTERNAL`.",
    "",
    "## Error codes",
    "",
    "| code | when |",
    "| --- | --- |",
    ...codeRows,
    "",
    "## Requests and replies",
    "",
    ...OPS.flatMap((op) => [renderOp(op), ""]),
    ...renderSection(
      "Events",
      [postEventSchema, postsEventSchema, memberEventSchema, resetEventSchema, watchEventSchema],
      examplesWhere((e) => e.kind === "event"),
    ),
    ...renderSection(
      "Refusals",
      [errorReplySchema],
      examplesWhere((e) => e.kind === "error"),
    ),
  ];
  return sections.join("\n");
}
