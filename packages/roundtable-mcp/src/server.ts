import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
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
  shownName,
  type RoundtableToolClient,
} from "@orphus/roundtable-client";
import { isRecord, typeName } from "@orphus/internal";
import { McpOptionError } from "./errors.js";
import { createMemoryMcpTools, MEMORY_MCP_TOOLS } from "./memory-tools.js";
import { findRoundtableMcpTool, mcpToolName, ROUNDTABLE_MCP_TOOLS, type RoundtableMcpTool } from "./tools.js";
import { MCP_SERVER_NAME, MCP_SERVER_VERSION } from "./version.js";

/** Options of {@link createRoundtableMcpServer}. */
export interface RoundtableMcpServerOptions {
  /** The role every call speaks as, pinned for the server's life. */
  readonly role: string;
  /** The agent directory whose broker the server uses; default `ORPHUS_CODING_AGENT_DIR`, else `~/.orphus/agent`. */
  readonly agentDir?: string;
  /**
   * What set `agentDir` (`--agent-dir`, `ORPHUS_CODING_AGENT_DIR`, `default`), which the memory answers name as where
   * their store's location came from; default `the agentDir option`.
   */
  readonly agentDirSource?: string;
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
    "filling each other's context. Join a room, post to it, and read others through digests (bounded: the budget " +
    "goes newest first to whole messages, excerpts and headlines, and a marker line counts the rest with the " +
    "afterSeq that fetches it) or fetch (in full, a page at a time). Nothing is pushed to you: call " +
    `${mcpToolName("digest")} to catch up, or ${mcpToolName("wait")} to block until another agent posts.`
  );
}

function toolResult(text: string, isError: boolean): CallToolResult {
  return { content: [{ type: "text", text }], isError };
}

const TOOL_NAMES = [...ROUNDTABLE_MCP_TOOLS, ...MEMORY_MCP_TOOLS].map((t) => t.name).join(", ");

/**
 * Checks a tools/call request's params: the tool is one of ours and the arguments, when present, are an object.
 * Anything else is a protocol error, -32602 (InvalidParams), with a message naming what was expected.
 */
function checkCall(params: unknown): { tool: { readonly name: string }; args: Record<string, unknown> } {
  const name = isRecord(params) ? params["name"] : undefined;
  if (typeof name !== "string") {
    throw new McpError(ErrorCode.InvalidParams, `tools/call needs params.name, one of ${TOOL_NAMES}`);
  }
  const tool = findRoundtableMcpTool(name) ?? MEMORY_MCP_TOOLS.find((t) => t.name === name);
  if (tool === undefined) {
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${shownName(name)}"; this server has ${TOOL_NAMES}`);
  }
  const args = (params as Record<string, unknown>)["arguments"];
  if (args !== undefined && args !== null && !isRecord(args)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `The arguments of ${tool.name} must be a JSON object of named arguments; got ${typeName(args)}`,
    );
  }
  return { tool, args: args ?? {} };
}

function checkRole(role: unknown): string {
  if (typeof role !== "string" || role === "") {
    throw new McpOptionError("role", "a role name such as planner", role);
  }
  try {
    return resolveRoleName(role).role;
  } catch (cause) {
    throw new McpOptionError(
      "role",
      "1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
      role,
      {
        cause,
      },
    );
  }
}

/**
 * An MCP server (the SDK's low-level `Server`, not yet connected to a transport) exposing the shared `roundtable`
 * tool as one MCP tool per action. Every call runs the shared tool's parser and handler in its one-action mode: the
 * text a model reads is the shared tool's, naming only the arguments the MCP tool has, and a bad input (an unknown or
 * misspelled argument included) or a broker failure is an `isError` result, never a protocol error, so the server
 * stays up. Only an unknown tool name or arguments that are not an object are protocol errors (-32602, InvalidParams).
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
    ...(options.agentDirSource === undefined ? {} : { agentDirSource: options.agentDirSource }),
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
  // tools/call is served by the fallback handler rather than setRequestHandler(CallToolRequestSchema): the SDK parses
  // a registered request against its schema before the handler runs and answers non-object arguments with -32603 and
  // a schema dump. Here checkCall answers them with -32602 and one sentence.
  server.fallbackRequestHandler = async (request, extra) => {
    if (request.method !== "tools/call") {
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: "${shownName(request.method)}"`);
    }
    const { tool, args } = checkCall(request.params);
    const memoryResult = memory.call(tool.name, args);
    if (memoryResult !== undefined) return memoryResult;
    const roundtableTool = findRoundtableMcpTool(tool.name) as RoundtableMcpTool;
    // The action comes from the tool's name; an `action` member in the arguments is refused as unknown.
    const result = await runRoundtableTool(client, args, { action: roundtableTool.action, signal: extra.signal });
    return toolResult(result.text, result.isError);
  };
  const previous = server.onclose;
  server.onclose = () => {
    previous?.();
    owned?.close();
    memory.close();
  };
  return server;
}
