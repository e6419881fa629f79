import {
  fetchCapTooLargeMessage,
  notMemberMessage,
  notWatcherMessage,
  protocolMismatchMessage,
  watcherConnectionMessage,
} from "./codes.js";
import { PROTOCOL_NAME, PROTOCOL_VERSION } from "./constants.js";
import type { ErrorReply, OkReplyFor, Op, RequestFor, RoundtableEvent, WatchEvent } from "./types.js";

/** One example frame of the protocol document: what it is, which way it travels, and its JSON payload. */
export interface ProtocolExample {
  /** Heading in docs/protocol.md. */
  readonly title: string;
  readonly direction: "client → broker" | "broker → client";
  /** The schema the payload satisfies: a request or reply op, "error" or "event". */
  readonly kind: { readonly request: Op } | { readonly reply: Op } | "error" | "event";
  readonly value: RequestFor<Op> | OkReplyFor<Op> | ErrorReply | RoundtableEvent | WatchEvent;
}

function request<O extends Op>(value: RequestFor<O> & { op: O }): ProtocolExample {
  return { title: `${value.op} request`, direction: "client → broker", kind: { request: value.op }, value };
}

function reply<O extends Op>(value: OkReplyFor<O> & { op: O }, title = `${value.op} reply`): ProtocolExample {
  return { title, direction: "broker → client", kind: { reply: value.op }, value };
}

function refusal(title: string, value: ErrorReply): ProtocolExample {
  return { title, direction: "broker → client", kind: "error", value };
}

function event(title: string, value: RoundtableEvent | WatchEvent): ProtocolExample {
  return { title, direction: "broker → client", kind: "event", value };
}

/**
 * One example per message of the protocol, in the order docs/protocol.md shows them. Every example is checked
 * against its schema by the tests, so the document's frames are valid by construction.
 */
export const PROTOCOL_EXAMPLES: readonly ProtocolExample[] = [
  request<"hello">({
    id: 1,
    op: "hello",
    protocol: PROTOCOL_NAME,
    version: PROTOCOL_VERSION,
    role: "planner",
    pid: 4242,
  }),
  reply<"hello">({
    id: 1,
    ok: true,
    op: "hello",
    result: {
      protocol: PROTOCOL_NAME,
      version: PROTOCOL_VERSION,
      role: "planner",
      brokerPid: 4100,
      brokerVersion: "0.1.0",
      store: "memory",
      brokerInstance: "9f2c41d07ab35e68",
    },
  }),
  request<"join">({ id: 2, op: "join", room: "design-review" }),
  reply<"join">({
    id: 2,
    ok: true,
    op: "join",
    result: { room: "design-review", created: false, members: ["critic", "planner"], newestSeq: 41, unread: 3 },
  }),
  request<"leave">({ id: 3, op: "leave", room: "design-review" }),
  reply<"leave">({ id: 3, ok: true, op: "leave", result: { room: "design-review", left: true } }),
  request<"post">({
    id: 4,
    op: "post",
    room: "design-review",
    body: "Ship the ring buffer first; cursors can follow.",
    headline: "ship ring first",
    idempotencyKey: "Jx3kQ9vTn2Lw8RbZ",
  }),
  reply<"post">({ id: 4, ok: true, op: "post", result: { room: "design-review", seq: 42, postedAt: 1796000000000 } }),
  reply<"post">(
    {
      id: 12,
      ok: true,
      op: "post",
      result: { room: "design-review", seq: 42, postedAt: 1796000000000, repeated: true },
    },
    "post reply to a retry with the same key",
  ),
  request<"digest">({ id: 5, op: "digest", room: "design-review", budget: 200 }),
  reply<"digest">({
    id: 5,
    ok: true,
    op: "digest",
    result: {
      room: "design-review",
      text:
        "[digest] 39 messages collapsed (#1–#39), fetch afterSeq=0 to read them.\n" +
        "[#40 critic, headline] cursors per role\n" +
        "[#41 critic] Cursors key on role name, not connection.\n" +
        "[#42 planner] Ship the ring buffer first; cursors can follow.",
      full: 2,
      excerpted: 0,
      headlined: 1,
      collapsed: 39,
      evicted: 0,
      throughSeq: 42,
      fetchAfterSeq: 0,
    },
  }),
  // #41 counts 41 characters and #42 counts 62 (body 47, headline 15): together past a cap of 100, so the page ends.
  request<"fetch">({ id: 6, op: "fetch", room: "design-review", afterSeq: 40, limit: 2, maxChars: 100 }),
  reply<"fetch">({
    id: 6,
    ok: true,
    op: "fetch",
    result: {
      room: "design-review",
      messages: [
        { seq: 41, author: "critic", body: "Cursors key on role name, not connection.", postedAt: 1795999990000 },
      ],
      newestSeq: 42,
      more: true,
      nextAfterSeq: 41,
      maxChars: 100,
    },
  }),
  request<"rooms">({ id: 7, op: "rooms" }),
  reply<"rooms">({
    id: 7,
    ok: true,
    op: "rooms",
    result: {
      rooms: [
        { room: "design-review", members: 2, newestSeq: 42, joined: true, unread: 0 },
        { room: "release", members: 1, newestSeq: 7, joined: false },
      ],
    },
  }),
  request<"members">({ id: 8, op: "members", room: "design-review" }),
  reply<"members">({
    id: 8,
    ok: true,
    op: "members",
    result: { room: "design-review", members: ["critic", "planner"] },
  }),
  request<"status">({ id: 9, op: "status" }),
  reply<"status">({
    id: 9,
    ok: true,
    op: "status",
    result: {
      pid: 4100,
      uptimeMs: 93000,
      version: "0.1.0",
      protocol: PROTOCOL_NAME,
      protocolVersion: PROTOCOL_VERSION,
      rooms: 2,
      connections: 3,
      socketPath: "/home/me/.orphus/agent/roundtable/broker.sock",
      pingsDropped: 0,
      store: "redis://orphus:***@redis.internal:6379/0",
      storeAvailable: true,
    },
  }),
  request<"hello">({
    id: 1,
    op: "hello",
    protocol: PROTOCOL_NAME,
    version: PROTOCOL_VERSION,
    role: "viewer",
    pid: 4343,
    watch: true,
  }),
  request<"watch">({ id: 2, op: "watch" }),
  reply<"watch">({
    id: 2,
    ok: true,
    op: "watch",
    result: {
      broker: {
        pid: 4100,
        instance: "9f2c41d07ab35e68",
        store: "memory",
        protocol: PROTOCOL_VERSION,
        startedAt: 1795999900000,
      },
      rooms: [
        {
          room: "design-review",
          lastSeq: 42,
          held: { messages: 42, chars: 2310 },
          members: [
            { role: "critic", unread: 1 },
            { role: "planner", unread: 0 },
          ],
          served: [
            { role: "critic", digestChars: 1840, fetchChars: 41, pingChars: 2296 },
            { role: "planner", digestChars: 233, fetchChars: 0, pingChars: 2240 },
          ],
          recent: [
            {
              seq: 41,
              author: "critic",
              postedAt: 1795999990000,
              headline: "Cursors key on role name, not connection.",
              chars: 41,
            },
            { seq: 42, author: "planner", postedAt: 1796000000000, headline: "ship ring first", chars: 62 },
          ],
        },
      ],
    },
  }),
  // Reading back from the newest: #42 alone fills a cap of 62, so the page ends and older messages remain.
  request<"peek">({ id: 3, op: "peek", room: "design-review", limit: 2, maxChars: 62 }),
  reply<"peek">({
    id: 3,
    ok: true,
    op: "peek",
    result: {
      room: "design-review",
      messages: [
        {
          seq: 42,
          author: "planner",
          body: "Ship the ring buffer first; cursors can follow.",
          headline: "ship ring first",
          postedAt: 1796000000000,
        },
      ],
      newestSeq: 42,
      more: true,
    },
  }),
  event("post event", { event: "post", room: "design-review", seq: 42, author: "planner" }),
  event("posts event", {
    event: "posts",
    room: "design-review",
    posts: [
      { seq: 43, author: "critic", count: 3 },
      { seq: 46, author: "reviewer" },
    ],
  }),
  event("member event", { event: "join", room: "design-review", seq: 0, role: "reviewer" }),
  event("reset event", { event: "reset", seq: 0, store: "redis://orphus:***@redis.internal:6379/0" }),
  event("watch event: a post", {
    event: "watch",
    kind: "post",
    room: "design-review",
    seq: 43,
    author: "critic",
    postedAt: 1796000005000,
    headline: "one nit on cursors",
    chars: 120,
  }),
  event("watch event: members", {
    event: "watch",
    kind: "members",
    room: "design-review",
    members: [
      { role: "critic", unread: 0 },
      { role: "planner", unread: 1 },
    ],
  }),
  event("watch event: served", {
    event: "watch",
    kind: "served",
    room: "design-review",
    role: "planner",
    digestChars: 353,
    fetchChars: 0,
    pingChars: 2296,
    at: 1796000006000,
  }),
  event("watch event: room", {
    event: "watch",
    kind: "room",
    room: "design-review",
    lastSeq: 43,
    held: { messages: 43, chars: 2430 },
  }),
  event("watch event: gap", { event: "watch", kind: "gap", dropped: 517 }),
  event("watch event: reset", { event: "watch", kind: "reset" }),
  refusal("refusal: not a member", {
    id: 10,
    ok: false,
    op: "post",
    error: { code: "ERR_NOT_MEMBER", message: notMemberMessage("release"), details: { room: "release" } },
  }),
  refusal("refusal: a member op on a watcher connection", {
    id: 15,
    ok: false,
    op: "post",
    error: { code: "ERR_WATCHER_CONNECTION", message: watcherConnectionMessage("post") },
  }),
  refusal("refusal: a watcher op on a member connection", {
    id: 16,
    ok: false,
    op: "peek",
    error: { code: "ERR_NOT_WATCHER", message: notWatcherMessage("peek") },
  }),
  refusal("refusal: schema-invalid request", {
    id: 11,
    ok: false,
    op: "post",
    error: {
      code: "ERR_INVALID_REQUEST",
      message: "Invalid post request: body: Invalid input: expected string, received number",
    },
  }),
  refusal("refusal: a fetch cap above the broker's reply limit", {
    id: 12,
    ok: false,
    op: "fetch",
    error: {
      code: "ERR_INVALID_REQUEST",
      message: fetchCapTooLargeMessage(200_000, 131_072),
      details: { maxChars: 200000, maxFetchChars: 131072 },
    },
  }),
  refusal("refusal: the broker is full", {
    id: 1,
    ok: false,
    op: "hello",
    error: {
      code: "ERR_TOO_MANY_CONNECTIONS",
      message:
        "The broker (pid 4100) already serves its maximum of 256 connections; wait for sessions to finish, or " +
        "close sessions you no longer need, and connect again",
      details: { maxConnections: 256, brokerPid: 4100 },
    },
  }),
  refusal("refusal: the room store is unavailable", {
    id: 13,
    ok: false,
    op: "post",
    error: {
      code: "ERR_STORE_UNAVAILABLE",
      message:
        'Room store redis://orphus:***@redis.internal:6379/0 unavailable during post (timeout 2000 ms): "Connection ' +
        'is closed."; the post may or may not have been stored: retry it with its idempotency key',
      details: { store: "redis://orphus:***@redis.internal:6379/0", timeoutMs: 2000 },
    },
  }),
  refusal("refusal: the room store lost its data", {
    id: 14,
    ok: false,
    op: "post",
    error: {
      code: "ERR_STORE_RESET",
      message:
        "Room store redis://orphus:***@redis.internal:6379/0 lost its data; rooms continue past their last sequence " +
        "numbers, but their history, members and read positions are gone. Nothing was done: join the room again, " +
        "then repeat the request",
      details: { store: "redis://orphus:***@redis.internal:6379/0" },
    },
  }),
  refusal("refusal: protocol mismatch", {
    id: 1,
    ok: false,
    op: "hello",
    error: {
      code: "ERR_PROTOCOL_MISMATCH",
      message: protocolMismatchMessage({
        brokerProtocol: PROTOCOL_NAME,
        brokerVersion: PROTOCOL_VERSION,
        brokerPid: 4100,
        brokerIdleMs: 5000,
        peerProtocol: PROTOCOL_NAME,
        peerVersion: PROTOCOL_VERSION + 1,
      }),
      details: {
        brokerProtocol: PROTOCOL_NAME,
        brokerVersion: PROTOCOL_VERSION,
        brokerPid: 4100,
        peerProtocol: PROTOCOL_NAME,
        peerVersion: PROTOCOL_VERSION + 1,
      },
    },
  }),
];
