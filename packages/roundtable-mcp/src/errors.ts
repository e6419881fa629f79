import { brandErrorClass, previewValue } from "@orphus/internal";

/** Base class of every error this package throws; `code` is stable across releases. */
export abstract class RoundtableMcpError extends Error {
  abstract readonly code: string;
  static {
    brandErrorClass(this);
  }
}

/**
 * The command line of `orphus-roundtable-mcp` cannot be used (no `--as`, a role name outside the wire's syntax, an
 * unknown option); the bin prints the message and the usage to stderr and exits with code 2.
 */
export class McpUsageError extends RoundtableMcpError {
  override readonly name = "McpUsageError";
  readonly code = "ERR_MCP_USAGE";
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`orphus-roundtable-mcp: ${detail}`, options);
  }
}

/** An option of {@link createRoundtableMcpServer} is outside its allowed form; thrown before anything is started. */
export class McpOptionError extends RoundtableMcpError {
  override readonly name = "McpOptionError";
  readonly code = "ERR_MCP_INVALID_OPTION";
  constructor(option: string, expected: string, got: unknown, options?: { cause?: unknown }) {
    super(`Invalid roundtable MCP server option ${option}: expected ${expected}, got ${previewValue(got)}`, options);
  }
}
