/**
 * Bytes of one incoming MCP message (one line of stdin) the server reads. The largest legal call, a post of 32 768
 * characters each escaped as `\uXXXX` plus a headline, is about 200 KB, so this sits five times above it. A longer
 * line is never buffered: it is read on and discarded as it arrives, answered with a JSON-RPC error naming this
 * limit (to its request id), and the session goes on.
 */
export const MAX_MCP_INPUT_BYTES = 1024 * 1024;
