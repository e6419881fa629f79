/** Name every hello carries; a peer naming another protocol is refused at hello. */
export const PROTOCOL_NAME = "orphus-roundtable";

/** Version of the wire described here; bumped on any change an older peer would misread. */
export const PROTOCOL_VERSION = 1;

/** Messages a fetch returns when the request names no limit: small, because fetch is the unbounded tier. */
export const DEFAULT_FETCH_LIMIT = 20;

/** Largest limit a fetch request may name. */
export const MAX_FETCH_LIMIT = 200;

/** Characters a digest may spend when the request names no budget. */
export const DEFAULT_DIGEST_BUDGET = 2000;

/** Largest budget a digest request may name. */
export const MAX_DIGEST_BUDGET = 100_000;

/** Role-name syntax: letters, digits, `.`, `_`, `-`; starts with a letter or digit; 1 to 64 characters. */
export const ROLE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Longest room name the wire carries; the broker's room registry applies the finer syntax. */
export const MAX_ROOM_NAME_LENGTH = 128;

/** Longest error message the wire carries; longer ones are cut. */
export const MAX_ERROR_MESSAGE_LENGTH = 1000;

/** Idempotency-key syntax: 1 to 64 letters, digits, '_' or '-' (base64url, UUIDs). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Keyed posts per room whose keys a broker remembers by default: a repeated key is recognised while fewer than this
 * many keyed posts have followed the original in its room.
 */
export const IDEMPOTENCY_KEY_WINDOW = 1024;
