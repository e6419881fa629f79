/** Default wait after the last connection closes before the broker shuts down: 5 seconds. */
export const DEFAULT_IDLE_MS = 5000;

/**
 * Default wait for a new connection's hello: a connection that has not said hello by then is closed, so a peer that
 * connects and stays silent can neither hold one of the broker's connections nor keep an idle broker alive.
 */
export const DEFAULT_HELLO_TIMEOUT_MS = 10_000;

/** Default wait for an answer when probing an existing socket at start-up before calling it stale. */
export const DEFAULT_PROBE_TIMEOUT_MS = 1000;

/** Default number of connections served at once; one more is refused with ERR_TOO_MANY_CONNECTIONS. */
export const DEFAULT_MAX_CONNECTIONS = 256;

/**
 * Default largest frame in either direction: 1 MiB, room for the largest post even with every character escaped.
 * Smaller than @orphus/framing's DEFAULT_MAX_FRAME_BYTES (16 MiB), the library's default for any peer.
 */
export const DEFAULT_BROKER_MAX_FRAME_BYTES = 1024 * 1024;

/** Default high-water mark of a connection's outbound queue: a connection whose queue passes it is closed. */
export const DEFAULT_MAX_OUTBOUND_BYTES = 8 * 1024 * 1024;

/** Default outbound backlog at which pings to a connection are dropped (and counted) instead of queued. */
export const DEFAULT_PING_DROP_BYTES = 256 * 1024;

/**
 * Default backlog of watch events a watcher connection may have queued or unread: past it, what the watcher is
 * behind on is dropped and it gets a gap event, so a stalled watcher holds at most this much of the broker's memory.
 */
export const DEFAULT_MAX_WATCH_BACKLOG_BYTES = 256 * 1024;

/** Default most JSON bytes of messages one fetch reply carries; at least one message always goes. */
export const DEFAULT_MAX_FETCH_BYTES = 512 * 1024;

/** Default size at which the bin's log file is rotated to `broker.log.1`, so logs hold at most twice this. */
export const DEFAULT_MAX_LOG_BYTES = 1024 * 1024;

/** Attempts at claiming the socket path before standing down (each probes what holds it first). */
export const MAX_CLAIM_ATTEMPTS = 4;

/**
 * Default number of requests of one connection held while an earlier one waits for the store (a Redis round trip);
 * past it the broker stops reading that connection until they drain to half. The memory store never makes one wait.
 */
export const DEFAULT_MAX_QUEUED_REQUESTS = 64;

/** Default pause between a running broker's checks that its socket path still names its own socket. */
export const DEFAULT_PATH_CHECK_MS = 1000;

/**
 * How long a connection refused for the connection limit has to send its first request, which is then answered
 * with ERR_TOO_MANY_CONNECTIONS; past it the refusal is sent unprompted and the connection closed.
 */
export const FULL_REFUSAL_WAIT_MS = 2000;

/**
 * Refused connections waiting for their first request at once. Past it a refusal is sent unprompted and the
 * connection closed at once (its peer may then miss it), so a flood past the limit holds few descriptors.
 */
export const MAX_PENDING_REFUSALS = 64;

/** Largest first frame read from a connection refused for the connection limit (a hello is a few hundred bytes). */
export const REFUSAL_MAX_FRAME_BYTES = 64 * 1024;
