/** Name every hello carries; a peer naming another protocol is refused at hello. */
export const PROTOCOL_NAME = "orphus-roundtable";

/**
 * Version of the wire described here; bumped on any change an older peer would misread. Version 3 added watching (see
 * {@link WATCH_SINCE_VERSION}). Version 2 added fetch's character cap: a version-1 broker would drop `maxChars` and send an uncut page the client takes for a bounded one.
 * Version 2 also merges post events into one `posts` event and carries the room store: the `reset` event and the
 * store's error codes. A version-1 client cannot parse either, so a broker keeps the old forms for it.
 */
export const PROTOCOL_VERSION = 3;

/**
 * First client version that may watch (version 3): a hello with `watch: true`, the `watch` and `peek` ops, the
 * `watch` events and the codes ERR_WATCHER_CONNECTION and ERR_NOT_WATCHER. A version-2 broker refuses a version-3
 * hello; a version-3 broker serves version-1 and -2 members as before and never sends them a watch event.
 */
export const WATCH_SINCE_VERSION = 3;

/** Newest posts of each room a watch snapshot carries. */
export const MAX_WATCH_RECENT = 50;

/** Longest headline a watch event or snapshot carries, in characters; a longer one is cut with `…`. */
export const MAX_WATCH_HEADLINE_CHARS = 200;

/** Messages a peek returns when the request names no limit. */
export const DEFAULT_PEEK_LIMIT = 20;

/** Largest limit a peek request may name. */
export const MAX_PEEK_LIMIT = 200;

/**
 * First client version that knows the room store's wire: the `reset` event and the codes ERR_STORE_UNAVAILABLE and
 * ERR_STORE_RESET. A broker sends an older client no reset event, and ERR_INTERNAL in place of those codes.
 */
export const STORE_WIRE_VERSION = 2;

/**
 * Longest store description a status or hello result carries: `memory`, or a store URL with its password masked.
 * A broker cuts a longer one.
 */
export const MAX_STORE_DESCRIPTION_LENGTH = 256;

/**
 * Oldest client version a broker of this version still serves. A version-1 client never names a character cap and
 * gets the default one; its pages may be shorter than before, which `more` already allowed, so it misreads nothing.
 */
export const OLDEST_PEER_VERSION = 1;

/** Messages a fetch returns when the request names no limit: small, because fetch is the unbounded tier. */
export const DEFAULT_FETCH_LIMIT = 20;

/** Largest limit a fetch request may name. */
export const MAX_FETCH_LIMIT = 200;

/**
 * Characters of message text a fetch page holds when the request names no cap: about 2,000 tokens, the size of the
 * largest digest the shared tool may ask for, so a default fetch costs a context window no more than that. A page's
 * first message comes whole even when it alone is longer (`fetchMessageChars` says what counts).
 */
export const DEFAULT_FETCH_CHARS = 8000;

/**
 * Largest character cap a fetch request may name: 512 Ki, the default broker's reply limit (`maxFetchBytes`), since
 * every character takes at least one byte of JSON. A broker with a smaller reply limit refuses caps above its own.
 */
export const MAX_FETCH_CHARS = 512 * 1024;

/** Characters a digest may spend when the request names no budget. */
export const DEFAULT_DIGEST_BUDGET = 2000;

/** Largest budget a digest request may name. */
export const MAX_REQUEST_DIGEST_BUDGET = 100_000;

/** Role-name syntax: letters, digits, `.`, `_`, `-`; starts with a letter or digit; 1 to 64 characters. */
export const ROLE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Longest room name the wire carries; the broker's room registry applies the finer syntax. */
export const MAX_ROOM_NAME_LENGTH = 128;

/**
 * Room-name syntax the broker accepts (its registry's pattern): lower-case letters, digits, `.`, `_`, `-`; starts
 * with a letter or digit; 1 to 64 characters. The wire carries up to {@link MAX_ROOM_NAME_LENGTH} so a name outside
 * this syntax gets the broker's coded refusal (ERR_INVALID_ROOM_NAME); callers that validate input before it
 * reaches the wire (tools, the CLI) use this, through `validRoomNameSchema`, so they cannot disagree with the broker.
 */
export const ROOM_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** Longest room name {@link ROOM_NAME_PATTERN} accepts. */
export const MAX_VALID_ROOM_NAME_LENGTH = 64;

/** Longest error message the wire carries; longer ones are cut. */
export const MAX_ERROR_MESSAGE_LENGTH = 1000;

/** Idempotency-key syntax: 1 to 64 letters, digits, '_' or '-' (base64url, UUIDs). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Keyed posts per room whose keys a broker remembers by default: a repeated key is recognised while fewer than this
 * many keyed posts have followed the original in its room.
 */
export const IDEMPOTENCY_KEY_WINDOW = 1024;

/**
 * Most posts one merged post event stands for (`{ event: "posts" }`, version 2), an entry with a count counting as
 * that many. A broker merges the post events of one room that wait for one connection in the same turn of its event
 * loop, or while the connection's earlier frames are still being written; past this many it starts another event,
 * so a merged event stays far below any frame limit (about 100 bytes a post at the longest role name) and a reader
 * expands at most this many.
 */
export const MAX_POSTS_PER_EVENT = 1024;
