/**
 * Bytes of one incoming MCP message (one line of stdin) the server buffers. The largest legal call, a post of
 * 32 768 characters each escaped as `\uXXXX`, is about 200 KB; a line past this limit ends the session (the SDK's
 * stdio transport drops its buffer and closes) rather than growing memory without bound.
 */
export const MAX_MCP_INPUT_BYTES = 1024 * 1024;
