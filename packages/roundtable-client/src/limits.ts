import { DEFAULT_FETCH_CHARS, MAX_FETCH_CHARS } from "@orphus/roundtable-protocol";

/** Quiet period that closes an activity notice: events closer together than this coalesce into one notice. */
export const PING_WINDOW_MS = 1500;

/** Longest an activity notice is held while events keep arriving, so a room that never goes quiet still pings. */
export const PING_MAX_DELAY_MS = 10_000;

/** Rooms a notice names one by one; activity in further rooms is counted, not named. */
export const MAX_PING_ROOMS = 8;

/** Authors a notice names per room; further authors are counted, not named. */
export const MAX_PING_AUTHORS = 6;

/**
 * Most characters one ping line can have (renderActivityNotice): MAX_PING_ROOMS rooms, each with MAX_PING_AUTHORS
 * authors, every name at its longest shown form (64 characters) and every count at its widest safe integer. A line
 * naming a few short roles is under 100.
 */
export const MAX_PING_LINE_CHARS = 4_200;

/** How long a request waits for its reply before it fails. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** Requests a connection keeps in flight at once; one more is refused rather than queued without bound. */
export const MAX_PENDING_REQUESTS = 256;

/** How long one connection attempt to the socket may take before it counts as nothing answering. */
export const CONNECT_ATTEMPT_TIMEOUT_MS = 2_000;

/** Total time to wait for a spawned broker to answer before giving up with its log tail. */
export const DEFAULT_BROKER_START_TIMEOUT_MS = 15_000;

/** First pause between connection attempts after a spawn; it doubles up to {@link BROKER_RETRY_MAX_DELAY_MS}. */
export const BROKER_RETRY_INITIAL_DELAY_MS = 20;

/** Longest pause between connection attempts while a broker starts. */
export const BROKER_RETRY_MAX_DELAY_MS = 250;

/**
 * Connection attempts retried when the broker's accept queue is full (EAGAIN) before giving up with
 * BrokerBusyError: the broker is there, only busy, so the client waits briefly and never spawns for it.
 */
export const MAX_CONNECT_BUSY_RETRIES = 12;

/** First pause before retrying a connection refused with EAGAIN; it doubles up to {@link BROKER_RETRY_MAX_DELAY_MS}, with jitter. */
export const CONNECT_BUSY_INITIAL_DELAY_MS = 10;

/** Connect rounds in one call when the broker reached drops the connection before hello's reply, or is shutting down. */
export const MAX_CONNECT_ROUNDS = 3;

/**
 * Pause before a connect's second round, doubled before each later one, with jitter: a crowd dropped together (a
 * full broker closing at once) comes back spread out rather than in step.
 */
export const CONNECT_ROUND_DELAY_MS = 50;

/**
 * How long a round after the first listens before it writes hello. A full broker past its pending refusals writes
 * its refusal and closes at once; a hello written into that closing socket fails (EPIPE) and the refusal is lost
 * unread, so a round that follows a dropped connection lets the broker speak first.
 */
export const LISTEN_FIRST_MS = 100;

/**
 * Rooms a client remembers having joined on its broker, so that after a restart it can name them and say which
 * join recreated one; past it the earliest joined is forgotten.
 */
export const MAX_REMEMBERED_ROOMS = 256;

/** Attempts a post makes, the first included, when a timeout or a lost connection leaves its fate unknown. */
export const DEFAULT_POST_ATTEMPTS = 2;

/** Times a client spawns a broker during one connect before it gives up (a spawned broker may stand down). */
export const MAX_BROKER_SPAWNS = 3;

/** Bytes of the broker log quoted in a start failure. */
export const BROKER_LOG_TAIL_BYTES = 2_000;

/** Size past which the broker log is rotated to `<log>.1` when a broker is spawned, so it never grows without bound. */
export const MAX_BROKER_LOG_BYTES = 1024 * 1024;

/** Characters a digest spends when a tool call names no budget: small, because it lands in a context window. */
export const TOOL_DEFAULT_DIGEST_BUDGET = 1_500;

/** Largest digest budget a tool call may name. */
export const TOOL_MAX_DIGEST_BUDGET = 8_000;

/** Messages a fetch returns when a tool call names no limit. */
export const TOOL_DEFAULT_FETCH_LIMIT = 10;

/** Largest fetch page a tool call may name. */
export const TOOL_MAX_FETCH_LIMIT = 50;

/**
 * Characters of message text a fetch page holds when a tool call names no cap: the broker's default, 8,000 (about
 * 2,000 tokens, the largest digest a tool call may ask for). A longer first message still comes whole.
 */
export const TOOL_DEFAULT_FETCH_CHARS = DEFAULT_FETCH_CHARS;

/** Largest character cap a tool call may name: the protocol's; a broker with a smaller reply limit refuses above it. */
export const TOOL_MAX_FETCH_CHARS = MAX_FETCH_CHARS;

/** How long the wait action waits for activity when the call names no timeout. */
export const TOOL_DEFAULT_WAIT_MS = 30_000;

/** Longest wait a tool call may name: well below the call timeouts of common agent harnesses. */
export const TOOL_MAX_WAIT_MS = 120_000;

/**
 * How often a wait looks at the unread counts besides listening for posts: a post whose event was missed (dropped
 * for a slow reader) wakes the wait within this, and so does being taken out of the room from another connection.
 */
export const TOOL_WAIT_POLL_MS = 2_000;

/** Longest post body a tool call may carry, in characters; the broker applies its own byte limit too. */
export const TOOL_MAX_POST_CHARS = 32 * 1024;

/**
 * Longest error text the tool returns and the CLI prints, in characters, counted after sanitising; a longer one is
 * cut with a note of how much was left out. Room for the longest the client makes: a broker start failure with
 * its log's tail (BROKER_LOG_TAIL_BYTES) and socket path.
 */
export const MAX_ERROR_TEXT_CHARS = 2_500;

/** Rooms the notice of a broker restart names (to join again); further ones are counted, not named. */
export const MAX_RESTART_ROOMS = 8;

/** Names a tool result lists (the members of a room); further names are counted, not named. */
export const MAX_LISTED_NAMES = 32;

/** Rooms a tool result lists (rooms, wait), joined ones first; further rooms are counted, not listed. */
export const MAX_LISTED_ROOMS = 32;

/** Longest file system path a text shows, escapes included; a longer one is cut with "…". */
export const MAX_SHOWN_PATH_CHARS = 512;
