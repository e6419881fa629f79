/**
 * Bytes of one incoming MCP message (one line of stdin) the server reads. The largest legal call, a post of 32 768
 * characters each escaped as `\uXXXX` plus a headline, is about 200 KB, so this sits five times above it. A longer
 * line is never buffered: it is read on and discarded as it arrives, answered with a JSON-RPC error naming this
 * limit (to its request id), and the session goes on.
 */
export const MAX_MCP_INPUT_BYTES = 1024 * 1024;

/**
 * Longest JSON-RPC error message the server sends, in characters, counted after sanitising: every error message
 * (the server's own and the SDK's, which may echo a host's input) passes the one sanitiser and is cut to this.
 */
export const MAX_MCP_ERROR_MESSAGE_CHARS = 1000;

/** Longest stderr line after its prefix, in characters; a longer one is cut with a note of how much was left out. */
export const MAX_MCP_DIAGNOSTIC_CHARS = 1000;

/** Most characters of a broker log's tail a start-failure line folds in (its end: the last lines). */
export const MAX_MCP_LOG_TAIL_CHARS = 400;
