/**
 * @orphus/roundtable-mcp — `orphus-roundtable-mcp`, a stdio MCP server that seats an external agent CLI (Claude
 * Code, Codex, Gemini CLI) in roundtable rooms next to Orphus-hosted roles, through the same tool logic and the same
 * broker client as the Orphus builtin.
 *
 * ```ts
 * import { createRoundtableMcpServer } from "@orphus/roundtable-mcp";
 * import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
 *
 * const server = createRoundtableMcpServer({ role: "reviewer" }); // nothing connects until the first call
 * await server.connect(new StdioServerTransport());
 * // tools: roundtable_join, roundtable_post, roundtable_digest, ... each with truthful annotations
 * ```
 *
 * The role is pinned for the server's life; two seats with one role share its memberships and read positions. There
 * is no push channel: a peer polls digests, or blocks in roundtable_wait (capped at 120 s) until another role posts.
 * Every failure of a call is an `isError` result with readable text, no input line ends the session, and only MCP
 * frames go to stdout. Every text it gives a host (results, error messages, stderr lines) has passed the one
 * sanitiser of @orphus/digest, names escaped rather than stripped, and is bounded.
 */
export { createRoundtableMcpServer, roundtableMcpInstructions } from "./server.js";
export { runStdioServer } from "./run.js";
export { parseMcpArguments, MCP_USAGE } from "./args.js";
export { ROUNDTABLE_MCP_TOOLS, mcpToolName, findRoundtableMcpTool } from "./tools.js";
export { MCP_SERVER_NAME, MCP_SERVER_VERSION } from "./version.js";
export { MAX_MCP_INPUT_BYTES, MAX_MCP_ERROR_MESSAGE_CHARS, MAX_MCP_DIAGNOSTIC_CHARS } from "./limits.js";
export { RoundtableMcpError, McpUsageError, McpOptionError } from "./errors.js";
export type { RoundtableMcpServerOptions } from "./server.js";
export type { StdioServerIo, StdioServerClient } from "./run.js";
export type { McpArguments } from "./args.js";
export type { RoundtableMcpTool, RoundtableMcpToolAnnotations } from "./tools.js";
