// The memory store's tools on this server: memory_query, memory_get and memory_stats for every role, memory_ingest
// and memory_forget for the librarian (refused, with how to act as librarian, for anyone else). Each runs the shared
// `memory` tool of @orphus/memory in its one-action mode, so the text is the same as in an Orphus session: checked by
// the same argument rules as the roundtable tools (@orphus/shared-tool), sanitised and bounded by the shared tool.
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import {
  DEFAULT_GET_PAGE_CHARS,
  DEFAULT_QUERY_BUDGET,
  LIBRARIAN_ROLE,
  MEMORY_ACTIONS,
  MEMORY_TOOL_NAME,
  memoryActionSchemas,
  openMemory,
  runMemoryTool,
  type MemoryAction,
  type MemoryToolStore,
} from "@orphus/memory";
import { actionArgumentsJsonSchema } from "@orphus/shared-tool";
import { toolAnnotations, type RoundtableMcpToolAnnotations } from "./tools.js";

/** One MCP tool: one action of the shared `memory` tool. */
export interface MemoryMcpTool {
  /** `memory_<action>`. */
  readonly name: string;
  readonly action: MemoryAction;
  readonly title: string;
  readonly description: string;
  readonly annotations: RoundtableMcpToolAnnotations;
  readonly inputSchema: { readonly type: "object"; readonly [key: string]: unknown };
}

interface MemoryToolText {
  readonly title: string;
  readonly description: string;
  readonly readOnly: boolean;
  /** Replaces or removes stored entries. */
  readonly destructive: boolean;
}

const LIBRARIAN_ONLY =
  ` Librarian only: this server must run --as ${LIBRARIAN_ROLE}, else the call is refused (a convention that keeps ` +
  "writers from colliding, not a security boundary).";

const TEXTS: Record<MemoryAction, MemoryToolText> = {
  query: {
    title: "Search the shared memory",
    description:
      "Full-text search of the memory every session of this user shares (decisions, conventions, findings, repo " +
      `files), best hits first, within a character budget (default ${DEFAULT_QUERY_BUDGET}) plus one marker line that ` +
      "names the store and says how many more matched and how to get them (offset). Every word must match, or else " +
      "any. A missing or empty store is reported as an error, never as an empty success.",
    readOnly: true,
    destructive: false,
  },
  get: {
    title: "Read a memory entry in full",
    description: `One memory entry by its id ([#id] in a hit), in full, ${DEFAULT_GET_PAGE_CHARS} characters a page; the first line names the next offset.`,
    readOnly: true,
    destructive: false,
  },
  stats: {
    title: "What the shared memory holds",
    description:
      "Where the memory store is, its entries, sources, size, last ingest and schema version; says when it is missing or empty.",
    readOnly: true,
    destructive: false,
  },
  ingest: {
    title: "Add to the shared memory",
    description:
      "Store a text (title, body, optional tags and source; the same source later replaces it) or files and folders " +
      "(chunked at headings and paragraphs; unchanged files are left alone, changed ones replaced)." +
      LIBRARIAN_ONLY,
    readOnly: false,
    destructive: true,
  },
  forget: {
    title: "Remove from the shared memory",
    description: "Remove one entry by id, or every entry of a source." + LIBRARIAN_ONLY,
    readOnly: false,
    destructive: true,
  },
};

function defineTool(action: MemoryAction): MemoryMcpTool {
  const text = TEXTS[action];
  return {
    name: `${MEMORY_TOOL_NAME}_${action}`,
    action,
    title: text.title,
    description: text.description,
    // Ingesting the same content again, or forgetting what is gone, changes nothing more.
    annotations: toolAnnotations(text.title, {
      readOnly: text.readOnly,
      destructive: text.destructive,
      idempotent: true,
    }),
    // The action's schema without its action member (the tool's name stands for it), closed like the roundtable's.
    inputSchema: actionArgumentsJsonSchema(memoryActionSchemas[action]),
  };
}

/** The memory tools, one per action of the shared `memory` tool, in its action order. */
export const MEMORY_MCP_TOOLS: readonly MemoryMcpTool[] = Object.freeze(MEMORY_ACTIONS.map(defineTool));

/** Options of {@link createMemoryMcpTools}. */
export interface MemoryMcpToolsOptions {
  readonly role: string;
  readonly env?: NodeJS.ProcessEnv;
  /** The agent directory the memory directory defaults under (when ORPHUS_MEMORY_DIR is unset). */
  readonly agentDir?: string;
  /**
   * What set `agentDir`, as the memory answers credit the location to it: `--agent-dir`, `ORPHUS_CODING_AGENT_DIR` or
   * `default`; default `the agentDir option`.
   */
  readonly agentDirSource?: string;
  /** The store to use; default a lazily opened one at the resolved location, acting as `role`. */
  readonly store?: MemoryToolStore;
}

/** The memory tools of one server: what tools/list shows, a call by tool name, and close. */
export interface MemoryMcpTools {
  readonly tools: Tool[];
  /** The result of a memory tool's call, or undefined when `name` is not a memory tool. */
  call(name: string, args: Record<string, unknown> | undefined): CallToolResult | undefined;
  close(): void;
}

/** The memory_* tools for a server pinned to `role`; the store opens on the first call, never at start. */
export function createMemoryMcpTools(options: MemoryMcpToolsOptions): MemoryMcpTools {
  const env = options.env ?? process.env;
  const owned =
    options.store === undefined
      ? openMemory({
          role: options.role,
          env,
          ...(options.agentDir === undefined ? {} : { agentDir: options.agentDir }),
          ...(options.agentDirSource === undefined ? {} : { agentDirSource: options.agentDirSource }),
        })
      : undefined;
  const store: MemoryToolStore = options.store ?? (owned as MemoryToolStore);
  return {
    tools: MEMORY_MCP_TOOLS.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: { ...tool.annotations },
    })),
    call(name, args) {
      const tool = MEMORY_MCP_TOOLS.find((t) => t.name === name);
      if (tool === undefined) return undefined;
      // One-action mode, as for the roundtable tools: the action is the tool's, an `action` argument is refused, and
      // the texts name only the arguments this tool has.
      const result = runMemoryTool(store, args, { action: tool.action });
      return { content: [{ type: "text", text: result.text }], isError: result.isError };
    },
    close() {
      owned?.close();
    },
  };
}
