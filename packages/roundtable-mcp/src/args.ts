import { parseArgs } from "node:util";
import { z } from "zod";
import { resolveRoleName, shownName } from "@orphus/roundtable-client";
import { McpUsageError } from "./errors.js";
import { ROUNDTABLE_MCP_TOOLS } from "./tools.js";

/** What `orphus-roundtable-mcp --help` prints. */
export const MCP_USAGE = `Usage: orphus-roundtable-mcp --as <role> [--agent-dir <dir>]

A stdio MCP server that seats an external agent CLI (Claude Code, Codex, Gemini CLI) in Orphus roundtable rooms,
next to Orphus-hosted roles. Started by the agent CLI, not by hand: stdout carries MCP frames only.

  --as <role>        the role to speak as, for the server's life (required): 1 to 64 letters, digits, '.', '_'
                     or '-', starting with a letter or digit; read positions key on it, so keep it stable
  --agent-dir <dir>  the agent directory whose broker to use (one per fleet); default $ORPHUS_CODING_AGENT_DIR,
                     else ~/.orphus/agent; a relative one is resolved against the directory the server starts
                     in, once, and the result is printed on stderr
  -h, --help         print this and exit
  --version          print the version and exit

Starts the directory's broker if none answers. Tools: ${ROUNDTABLE_MCP_TOOLS.map((tool) => tool.name).join(", ")}.
Exit codes: 0 when the host closes stdin, 1 when the session failed, 2 for bad arguments (or an agent directory too
deep for the broker's socket path).
`;

/** A parsed command line: serve as a role, or print help or the version. */
export type McpArguments =
  | { readonly command: "serve"; readonly role: string; readonly agentDir?: string }
  | { readonly command: "help" }
  | { readonly command: "version" };

const role = z
  .string({ error: "--as <role> is required: the role this agent speaks as in every room" })
  .min(1, { error: "--as needs a role name" })
  .superRefine((value, context) => {
    try {
      resolveRoleName(value);
    } catch {
      context.addIssue({
        code: "custom",
        message:
          `--as "${shownName(value)}" is not a role name: use 1 to 64 letters, digits, '.', '_' or '-', ` +
          "starting with a letter or digit",
      });
    }
  });

const serveSchema = z.object({
  as: role,
  "agent-dir": z.string().trim().min(1, { error: "--agent-dir needs a directory" }).optional(),
});

/** Parses the command line (unknown options and positionals refused); throws McpUsageError. */
export function parseMcpArguments(argv: readonly string[]): McpArguments {
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        as: { type: "string" },
        "agent-dir": { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (cause) {
    throw new McpUsageError((cause as Error).message, { cause });
  }
  if (values["help"] === true) return { command: "help" };
  if (values["version"] === true) return { command: "version" };
  const parsed = serveSchema.safeParse(values);
  if (!parsed.success) {
    throw new McpUsageError(parsed.error.issues.map((issue) => issue.message).join("; "), { cause: parsed.error });
  }
  const agentDir = parsed.data["agent-dir"];
  return { command: "serve", role: parsed.data.as, ...(agentDir === undefined ? {} : { agentDir }) };
}
