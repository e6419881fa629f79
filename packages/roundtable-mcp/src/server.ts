import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ListToolsResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { MemoryToolStore } from "@orphus/memory";
import {
  createRoundtableClient,
  resolveRoleName,
  runRoundtableTool,
  type RoundtableToolClient,
} from "@orphus/roundtable-client";
import { McpOptionError } from "./errors.js";
import { createMemoryMcpTools } from "./memory-tools.js";
import { findRoundtableMcpTool, mcpToolName, ROUNDTABLE_MCP_TOOLS } from "./tools.js";
import { MCP_SERVER_NAME, MCP_SERVER_VERSION } from "./version.js";

/** Options of {@link createRoundtableMcpServer}. */
export interface RoundtableMcpServerOptions {
  /** The role every call speaks as, pinned for the server's life. */
  readonly role: string;
  /** The agent directory whose broker the server uses; default `ORPHUS_CODING_AGENT_DIR`, else `~/.orphus/agent`. */
  readonly agentDir?: string;
  /** Environment the agent directory is resolved from and a spawned broker runs with; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * The broker client to call through (its role must be `role`). The caller owns it. Without it the server
   * creates a lazy client that starts the broker on first use, and closes it when the server closes.
   */
  readonly client?: RoundtableToolClient;
  /** Receives client warnings; default process.emitWarning (stderr, never stdout). */
  readonly onWarning?: (message: string) => void;
  /** The memory store behind the memory_* tools; default one at the resolved location, opened on first use. */
  readonly memory?: MemoryToolStore;
}

/** What the server tells the host about itself in `initialize`; hosts may show it to the model. */
export function roundtableMcpInstructions(role: string): string {
  return (
    `You sit at an Orphus roundtable as "${role}": rooms on a local broker where agents deliberate without ` +
    "filling each other's context. Join a room, post to it, and read others through digests (bounded: newest in " +
    "full, older as headlines) or fetch (in full, a page at a time). Nothing is pushed to you: call " +
    `${mcpToolName("digest")} to catch up, or ${mcpToolName("wait")} to block until another agent posts.`
  );
}

function toolResult(text: string, isError: boolean): CallToolResult {
  return { content: [{ type: "text", text }], isError };
}

function checkRole(role: unknown): string {
  if (typeof role !== "string" || role === "") {
    throw new McpOptionError("role", "a role name such as planner", role);
  }
  try {
    return resolveRoleName(role).role;
  } catch (cause) {
    throw new McpOptionError("role", "1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", role, {
      cause,
    });
  }
}

/**
 * An MCP server (the SDK's low-level `Server`, not yet connected to a transport) exposing the shared `roundtable`
 * tool as one MCP tool per action. Every call runs the shared tool's parser and handler: the text a model reads is
 * the same as in an Orphus session, and a bad input or a broker failure is an `isError` result, never a protocol
 * error, so the server stays up. Only an unknown tool name is a protocol error (InvalidParams).
 */
export function createRoundtableMcpServer(options: RoundtableMcpServerOptions): Server {
  const role = checkRole(options.role);
  if (options.client !== undefined && options.client.role !== role) {
    throw new McpOptionError("client", `a client speaking as "${role}"`, options.client.role);
  }
  const owned =
    options.client === undefined
      ? createRoundtableClient({
          role,
          ...(options.agentDir === undefined ? {} : { agentDir: options.agentDir }),
          ...(options.env === undefined ? {} : { env: options.env }),
          ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
        })
      : undefined;
  const client: RoundtableToolClient = options.client ?? (owned as RoundtableToolClient);
  const memory = createMemoryMcpTools({
    role,
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.agentDir === undefined ? {} : { agentDir: options.agentDir }),
    ...(options.memory === undefined ? {} : { store: options.memory }),
  });

  // The low-level Server rather than McpServer.registerTool: McpServer validates arguments with its own schema
  // before the handler runs, which would replace the shared tool's error texts and its tolerance of null members.
  const server = new Server(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION, title: "Orphus roundtable" },
    { capabilities: { tools: {} }, instructions: roundtableMcpInstructions(role) },
  );
  const listed: ListToolsResult = {
    tools: [
      ...ROUNDTABLE_MCP_TOOLS.map((tool) => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: { ...tool.annotations },
      })),
      ...memory.tools,
    ],
  };
  server.setRequestHandler(ListToolsRequestSchema, () => listed);
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = findRoundtableMcpTool(request.params.name);
    const memoryResult = tool === undefined ? memory.call(request.params.name, request.params.arguments) : undefined;
    if (memoryResult !== undefined) return memoryResult;
    if (tool === undefined) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool ${JSON.stringify(request.params.name).slice(0, 80)}; this server has ` +
          ROUNDTABLE_MCP_TOOLS.map((t) => t.name).join(", "),
      );
    }
    // The action comes from the tool's name; an `action` member in the arguments cannot redirect the call.
    const input = { ...request.params.arguments, action: tool.action };
    const result = await runRoundtableTool(client, input, { signal: extra.signal });
    return toolResult(result.text, result.isError);
  });
  const previous = server.onclose;
  server.onclose = () => {
    previous?.();
    owned?.close();
    memory.close();
  };
  return server;
}
