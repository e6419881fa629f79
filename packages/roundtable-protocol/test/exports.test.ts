import { expect, test } from "vitest";
import * as protocol from "@orphus/roundtable-protocol";

test("the public export list", () => {
  expect(Object.keys(protocol).sort()).toEqual(
    [
      "DEFAULT_DIGEST_BUDGET",
      "DEFAULT_FETCH_CHARS",
      "DEFAULT_FETCH_LIMIT",
      "IDEMPOTENCY_KEY_PATTERN",
      "IDEMPOTENCY_KEY_WINDOW",
      "MAX_REQUEST_DIGEST_BUDGET",
      "MAX_ERROR_MESSAGE_LENGTH",
      "MAX_FETCH_CHARS",
      "MAX_FETCH_LIMIT",
      "MAX_ROOM_NAME_LENGTH",
      "MAX_STORE_DESCRIPTION_LENGTH",
      "OLDEST_PEER_VERSION",
      "MAX_VALID_ROOM_NAME_LENGTH",
      "OPS",
      "MAX_POSTS_PER_EVENT",
      "POSTS_EVENT_SINCE_VERSION",
      "announcedPosts",
      "listedPostSchema",
      "postsEventSchema",
      "readsPostsEvents",
      "PROTOCOL_EXAMPLES",
      "PROTOCOL_NAME",
      "PROTOCOL_VERSION",
      "ROLE_NAME_PATTERN",
      "ROOM_NAME_PATTERN",
      "RoundtableProtocolError",
      "STORE_WIRE_VERSION",
      "ServerFrameInvalidError",
      "WIRE_ERROR_CODES",
      "WireRefusalError",
      "clipMessage",
      "describeIssues",
      "digestRequestSchema",
      "digestResultSchema",
      "errorReplySchema",
      "eventSchema",
      "fetchCapTooLargeMessage",
      "fetchMessageChars",
      "evictedRangeSchema",
      "fetchRequestSchema",
      "fetchResultSchema",
      "heldTextSchema",
      "helloRequestSchema",
      "helloResultSchema",
      "idempotencyKeySchema",
      "isCompatiblePeer",
      "isOp",
      "joinRequestSchema",
      "joinResultSchema",
      "leaveRequestSchema",
      "leaveResultSchema",
      "memberEventSchema",
      "membersRequestSchema",
      "membersResultSchema",
      "messageSchema",
      "notMemberMessage",
      "okReplySchema",
      "okReplySchemas",
      "parseRequest",
      "parseServerFrame",
      "postEventSchema",
      "postRequestSchema",
      "postResultSchema",
      "protocolMismatchMessage",
      "readPeerProtocol",
      "replySchema",
      "requestIdSchema",
      "requestSchema",
      "requestSchemas",
      "resetEventSchema",
      "resultSchemas",
      "roleNameSchema",
      "roomNameSchema",
      "validRoomNameSchema",
      "roomSummarySchema",
      "roomsRequestSchema",
      "roomsResultSchema",
      "seqSchema",
      "serverFrameSchema",
      "statusRequestSchema",
      "statusResultSchema",
      "wireCodeForPeer",
      "wireErrorForPeer",
      "wireErrorCodeSchema",
      "wireErrorSchema",
      "WATCH_SINCE_VERSION",
      "MAX_WATCH_RECENT",
      "MAX_WATCH_HEADLINE_CHARS",
      "DEFAULT_PEEK_LIMIT",
      "MAX_PEEK_LIMIT",
      "watcherConnectionMessage",
      "notWatcherMessage",
      "watchRequestSchema",
      "peekRequestSchema",
      "watchedMemberSchema",
      "servedCountsSchema",
      "heldSchema",
      "watchedPostSchema",
      "watchedRoomSchema",
      "watchResultSchema",
      "peekResultSchema",
      "watchEventSchema",
    ].sort(),
  );
});

test("protocol constants", () => {
  expect(protocol.PROTOCOL_NAME).toBe("orphus-roundtable");
  expect(protocol.PROTOCOL_VERSION).toBe(3);
  expect(protocol.WATCH_SINCE_VERSION).toBe(3);
  expect(protocol.MAX_WATCH_RECENT).toBe(50);
  expect(protocol.MAX_WATCH_HEADLINE_CHARS).toBe(200);
  expect(protocol.DEFAULT_PEEK_LIMIT).toBe(20);
  expect(protocol.MAX_PEEK_LIMIT).toBe(200);
  expect(protocol.STORE_WIRE_VERSION).toBe(2);
  expect(protocol.MAX_STORE_DESCRIPTION_LENGTH).toBe(256);
  expect(protocol.OLDEST_PEER_VERSION).toBe(1);
  expect(protocol.DEFAULT_FETCH_LIMIT).toBe(20);
  expect(protocol.MAX_FETCH_LIMIT).toBe(200);
  expect(protocol.DEFAULT_FETCH_CHARS).toBe(8000);
  expect(protocol.MAX_FETCH_CHARS).toBe(524_288);
  expect(protocol.DEFAULT_DIGEST_BUDGET).toBe(2000);
  expect(protocol.MAX_REQUEST_DIGEST_BUDGET).toBe(100_000);
  expect(protocol.MAX_ROOM_NAME_LENGTH).toBe(128);
  expect(protocol.MAX_ERROR_MESSAGE_LENGTH).toBe(1000);
  expect(protocol.ROLE_NAME_PATTERN.source).toBe("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$");
  expect(protocol.ROOM_NAME_PATTERN.source).toBe("^[a-z0-9][a-z0-9._-]{0,63}$");
  expect(protocol.MAX_VALID_ROOM_NAME_LENGTH).toBe(64);
  expect(protocol.IDEMPOTENCY_KEY_PATTERN.source).toBe("^[A-Za-z0-9_-]{1,64}$");
  expect(protocol.IDEMPOTENCY_KEY_WINDOW).toBe(1024);
  expect(protocol.MAX_POSTS_PER_EVENT).toBe(1024);
  expect(protocol.POSTS_EVENT_SINCE_VERSION).toBe(2);
  expect(protocol.OPS).toEqual([
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
  ]);
});

test("the error-code catalogue", () => {
  expect(Object.keys(protocol.WIRE_ERROR_CODES)).toEqual([
    "ERR_INVALID_REQUEST",
    "ERR_UNKNOWN_OP",
    "ERR_HELLO_REQUIRED",
    "ERR_HELLO_REPEATED",
    "ERR_PROTOCOL_MISMATCH",
    "ERR_NOT_MEMBER",
    "ERR_NO_SUCH_ROOM",
    "ERR_INVALID_ROOM_NAME",
    "ERR_INVALID_ROLE_NAME",
    "ERR_TOO_MANY_ROOMS",
    "ERR_TOO_MANY_MEMBERS",
    "ERR_BODY_TOO_LARGE",
    "ERR_HEADLINE_TOO_LARGE",
    "ERR_IDEMPOTENCY_KEY_REUSED",
    "ERR_REPLY_TOO_LARGE",
    "ERR_TOO_MANY_CONNECTIONS",
    "ERR_SHUTTING_DOWN",
    "ERR_STORE_UNAVAILABLE",
    "ERR_STORE_RESET",
    "ERR_WATCHER_CONNECTION",
    "ERR_NOT_WATCHER",
    "ERR_INTERNAL",
  ]);
  expect(protocol.wireErrorCodeSchema.safeParse("ERR_NOT_MEMBER").success).toBe(true);
  expect(protocol.wireErrorCodeSchema.safeParse("ERR_SOMETHING_ELSE").success).toBe(false);
});

test("the store's codes reach only clients that know them; older ones get ERR_INTERNAL", () => {
  expect(protocol.wireCodeForPeer("ERR_STORE_UNAVAILABLE", 2)).toBe("ERR_STORE_UNAVAILABLE");
  expect(protocol.wireCodeForPeer("ERR_STORE_RESET", 2)).toBe("ERR_STORE_RESET");
  expect(protocol.wireCodeForPeer("ERR_STORE_UNAVAILABLE", 1)).toBe("ERR_INTERNAL");
  expect(protocol.wireCodeForPeer("ERR_STORE_RESET", 1)).toBe("ERR_INTERNAL");
  expect(protocol.wireCodeForPeer("ERR_NOT_MEMBER", 1)).toBe("ERR_NOT_MEMBER");
  // A version-1 client's catalogue: its zod enum refuses a reply with any other code, so it must never get one.
  const version1 = protocol.wireErrorCodeSchema.options.filter((code) => !code.startsWith("ERR_STORE_"));
  for (const code of protocol.wireErrorCodeSchema.options) {
    expect(version1).toContain(protocol.wireCodeForPeer(code, 1));
  }
});

test("a reset refusal tells an older client to join again when its request named a room", () => {
  const reset = {
    code: "ERR_STORE_RESET",
    message: "lost its data; join the room again",
    details: { store: "s" },
  } as const;
  expect(protocol.wireErrorForPeer(reset, 2, "r")).toEqual(reset);
  expect(protocol.wireErrorForPeer(reset, 1, "r")).toEqual({
    code: "ERR_NOT_MEMBER",
    message: "lost its data; join the room again",
    details: { room: "r" },
  });
  expect(protocol.wireErrorForPeer(reset, 1)).toEqual({ ...reset, code: "ERR_INTERNAL" });
  const unavailable = { code: "ERR_STORE_UNAVAILABLE", message: "away" } as const;
  expect(protocol.wireErrorForPeer(unavailable, 1, "r")).toEqual({ code: "ERR_INTERNAL", message: "away" });
  const notMember = { code: "ERR_NOT_MEMBER", message: "m", details: { room: "r" } } as const;
  expect(protocol.wireErrorForPeer(notMember, 1, "r")).toBe(notMember);
});

test("the exact refusal texts", () => {
  expect(protocol.notMemberMessage("design-review")).toBe('Not a member of room "design-review"; join it first');
  expect(
    protocol.protocolMismatchMessage({
      brokerProtocol: "orphus-roundtable",
      brokerVersion: 1,
      brokerPid: 4100,
      brokerIdleMs: 5000,
      peerProtocol: "orphus-roundtable",
      peerVersion: 2,
    }),
  ).toBe(
    "Protocol mismatch: the running broker (pid 4100) speaks orphus-roundtable v1, this client speaks " +
      "orphus-roundtable v2. The broker exits 5 s after its last session disconnects: close the sessions still " +
      "using it, or stop it with `kill 4100`, and the next session starts a broker of its own version.",
  );
  expect(protocol.fetchCapTooLargeMessage(600_000, 524_288)).toBe(
    "Invalid fetch request: maxChars 600000 is above this broker's largest page, 524288 characters (its reply " +
      "limit); ask for at most 524288",
  );
});

test("what a fetch page counts: UTF-16 code units of body plus headline, as the digest budget does", () => {
  expect(protocol.fetchMessageChars({ body: "hello" })).toBe(5);
  expect(protocol.fetchMessageChars({ body: "hello", headline: "hi" })).toBe(7);
  expect(protocol.fetchMessageChars({ body: "", headline: undefined })).toBe(0);
  // "é" is one code unit, "😀" two (a surrogate pair), a line break one: bytes and code points do not count.
  expect(protocol.fetchMessageChars({ body: "é😀\n" })).toBe(4);
});

test("the watch codes reach only version-3 clients; older ones get ERR_INTERNAL", () => {
  expect(protocol.wireCodeForPeer("ERR_WATCHER_CONNECTION", 3)).toBe("ERR_WATCHER_CONNECTION");
  expect(protocol.wireCodeForPeer("ERR_NOT_WATCHER", 3)).toBe("ERR_NOT_WATCHER");
  expect(protocol.wireCodeForPeer("ERR_NOT_WATCHER", 2)).toBe("ERR_INTERNAL");
  expect(protocol.watcherConnectionMessage("post")).toBe(
    "A watcher connection cannot post: it is no member of any room; open a member connection to post",
  );
  expect(protocol.notWatcherMessage("peek")).toBe(
    "Only a watcher connection can peek: say hello with watch: true on a connection of its own",
  );
});

test("watch events: each kind parses, and a post carries no body", () => {
  const post = {
    event: "watch",
    kind: "post",
    room: "r",
    seq: 3,
    author: "critic",
    postedAt: 5,
    headline: "h",
    chars: 9,
    body: "never",
  };
  expect(protocol.parseServerFrame(post)).toEqual({
    event: "watch",
    kind: "post",
    room: "r",
    seq: 3,
    author: "critic",
    postedAt: 5,
    headline: "h",
    chars: 9,
  });
  expect(protocol.parseServerFrame({ event: "watch", kind: "gap", dropped: 2 })).toEqual({
    event: "watch",
    kind: "gap",
    dropped: 2,
  });
  expect(() => protocol.parseServerFrame({ event: "watch", kind: "shout" })).toThrow();
  expect(() => protocol.parseServerFrame({ ...post, headline: "x".repeat(201) })).toThrow();
  expect(protocol.parseRequest({ id: 1, op: "peek", room: "r", limit: 201 })).toMatchObject({
    ok: false,
    error: { code: "ERR_INVALID_REQUEST" },
  });
  expect(
    protocol.parseRequest({
      id: 1,
      op: "hello",
      protocol: "orphus-roundtable",
      version: 3,
      role: "v",
      pid: 1,
      watch: false,
    }),
  ).toMatchObject({ ok: false, error: { code: "ERR_INVALID_REQUEST" } });
});
