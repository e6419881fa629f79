/** Default number of messages a room retains; older ones are evicted, their sequence numbers never reused. */
export const DEFAULT_RING_CAPACITY = 500;

/** Largest ring capacity a room accepts; the ring is allocated up front, so this bounds a room's slot array. */
export const MAX_RING_CAPACITY = 1_000_000;

/** Default number of rooms a registry holds. */
export const DEFAULT_MAX_ROOMS = 64;

/** Default number of distinct roles that may be members of one room at once. */
export const DEFAULT_MAX_MEMBERS = 32;

/** Default largest message body, in UTF-8 bytes: 32 KiB. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024;

/** Default largest headline (the one-line summary a digest can fall back to), in UTF-8 bytes. */
export const DEFAULT_MAX_HEADLINE_BYTES = 256;

/** Default largest role name, in UTF-8 bytes. */
export const DEFAULT_MAX_ROLE_NAME_BYTES = 128;

/** Default number of departed roles whose cursor a room keeps for their return; the earliest to leave goes first. */
export const DEFAULT_MAX_RETAINED_CURSORS = 256;

/** Default room-name syntax: 1 to 64 of lower-case letters, digits, `.`, `_`, `-`, starting with a letter or digit. */
export const DEFAULT_ROOM_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** Default number of idempotency keys of recent posts a room remembers; the oldest is forgotten first. */
export const DEFAULT_MAX_POST_KEYS = 1024;

/** Largest idempotency key of a post, in UTF-8 bytes, non-empty. */
export const MAX_POST_KEY_BYTES = 128;

/**
 * Default budget of message text all rooms of a memory store hold together: 128 MiB, counted as two bytes per UTF-16
 * code unit of bodies and headlines. Past it the oldest messages of the largest rooms are evicted, reported to their
 * readers as the ring's own evictions are. Posts of 2 KB fill every ring of 64 rooms (500 each) before it is reached;
 * 32 KiB bodies reach it at 2,048 messages, where the limits alone would let them hold about 1 GiB.
 */
export const DEFAULT_MAX_HELD_BYTES = 128 * 1024 * 1024;
