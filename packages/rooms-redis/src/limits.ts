/** Default time a store call may take before it fails with ERR_STORE_UNAVAILABLE, in milliseconds. */
export const DEFAULT_STORE_TIMEOUT_MS = 2_000;

/** Default interval between a store's heartbeats (which also sweep brokers whose heartbeat expired), in ms. */
export const DEFAULT_HEARTBEAT_MS = 5_000;

/** Default time a broker's roles stay held after its last heartbeat, in ms: three missed heartbeats. */
export const DEFAULT_MEMBER_TTL_MS = 15_000;

/** Default longest a blocking read of activity waits before it asks again, in ms. */
export const DEFAULT_WATCH_BLOCK_MS = 5_000;

/** Default number of entries kept per broker inbox of activity (approximately, as XADD MAXLEN ~ keeps them). */
export const DEFAULT_ACTIVITY_RETAINED = 256;

/** Activity entries one blocking read takes at most. */
export const WATCH_BATCH = 256;

/** Default prefix of every key the store writes, so several deployments can share one Redis database. */
export const DEFAULT_KEY_PREFIX = "orphus:roundtable:";

/** Longest wait between two reconnection attempts, in ms. */
export const MAX_RECONNECT_DELAY_MS = 1_000;
