import { isRecord } from "@orphus/internal";
import { asciiUpperCase, ownField } from "../text.js";

/** What one call declares: it reads, or it executes (changes something, or reaches out). */
export type ToolAccess = "read" | "execute";

/**
 * Which family a tool belongs to; the family, not one call's access, decides which modes see the tool. `edit` is the
 * edits: the tools that write files.
 */
export type ToolFamily = "local-read" | "edit" | "github" | "rag_eval" | "http_api" | "web_search" | "mcp";

/** The annotations an MCP server lists with a tool. */
export interface McpToolAnnotations {
  readonly readOnlyHint?: boolean;
}

/** One call of a built-in tool. */
export interface BuiltinToolCall {
  readonly kind: "builtin";
  readonly tool: string;
  readonly args?: unknown;
}

/** One call of an MCP server's tool, with the annotations the server listed for it. */
export interface McpToolCall {
  readonly kind: "mcp";
  readonly server: string;
  readonly tool: string;
  readonly args?: unknown;
  readonly annotations?: McpToolAnnotations;
}

/** One tool call, as the gate and the fallback guard see it. */
export type ToolCall = BuiltinToolCall | McpToolCall;

/** A built-in tool's row: its family and its access, fixed or read off each call's arguments. */
export interface ToolEntry {
  readonly family: Exclude<ToolFamily, "mcp">;
  readonly access: ToolAccess | ((args: unknown) => ToolAccess);
}

/** The built-in tools by name. */
export type ToolTable = Readonly<Record<string, ToolEntry>>;

/** The github actions that read; any other action executes. */
export const GITHUB_READ_ACTIONS: readonly string[] = Object.freeze([
  "get_repo",
  "get_issue",
  "list_issues",
  "search_issues",
  "get_pr",
  "list_prs",
  "get_pr_diff",
  "get_file",
  "search_code",
  "list_commits",
]);

/** The github actions that write; named for the record, since any action not in {@link GITHUB_READ_ACTIONS} executes. */
export const GITHUB_WRITE_ACTIONS: readonly string[] = Object.freeze(["create_issue", "create_pr"]);

/** The http_api methods that read; a missing method reads too, any other executes. */
export const HTTP_READ_METHODS: readonly string[] = Object.freeze(["GET", "HEAD", "OPTIONS"]);

/** github: reads for its read actions; executes for create_issue, create_pr, an unknown or a missing action. */
export function githubAccess(args: unknown): ToolAccess {
  const action = isRecord(args) ? ownField(args, "action") : undefined;
  return typeof action === "string" && GITHUB_READ_ACTIONS.includes(action) ? "read" : "execute";
}

/**
 * http_api: reads for GET, HEAD, OPTIONS and a missing method. ASCII letter case aside, as fetch normalises a method;
 * no other folding, so `optionſ` or `optıons` (which Unicode upper-cases to OPTIONS) executes.
 */
export function httpApiAccess(args: unknown): ToolAccess {
  if (!isRecord(args)) return args === undefined ? "read" : "execute";
  const method = ownField(args, "method");
  if (method === undefined) return "read";
  return typeof method === "string" && HTTP_READ_METHODS.includes(asciiUpperCase(method)) ? "read" : "execute";
}

/**
 * The built-in tools. The local reads and the edits stand for the runtime's file tools; github, http_api, rag_eval
 * and web_search declare their access per call as #219 has them. Extend it by spreading it into a table of your own.
 */
export const DEFAULT_TOOL_TABLE: ToolTable = Object.freeze({
  read_file: { family: "local-read", access: "read" },
  list_files: { family: "local-read", access: "read" },
  search_files: { family: "local-read", access: "read" },
  write_file: { family: "edit", access: "execute" },
  edit_file: { family: "edit", access: "execute" },
  github: { family: "github", access: githubAccess },
  http_api: { family: "http_api", access: httpApiAccess },
  rag_eval: { family: "rag_eval", access: "read" },
  web_search: { family: "web_search", access: "read" },
} satisfies Record<string, ToolEntry>);

/** The row of a built-in tool, never one inherited from Object.prototype. */
export function entryOf(call: ToolCall, table: ToolTable = DEFAULT_TOOL_TABLE): ToolEntry | undefined {
  return call.kind === "builtin" && Object.hasOwn(table, call.tool) ? table[call.tool] : undefined;
}

/** The family of a call's tool; undefined for a built-in tool the table does not know. */
export function familyOf(call: ToolCall, table: ToolTable = DEFAULT_TOOL_TABLE): ToolFamily | undefined {
  return call.kind === "mcp" ? "mcp" : entryOf(call, table)?.family;
}

/**
 * The access one call declares; total: every tool and argument shape gets a class. An MCP tool reads only when its
 * readOnlyHint is `true`; an unknown built-in tool, or a row whose access cannot be read off the arguments, executes.
 */
export function accessOf(call: ToolCall, table: ToolTable = DEFAULT_TOOL_TABLE): ToolAccess {
  try {
    if (call.kind === "mcp") return call.annotations?.readOnlyHint === true ? "read" : "execute";
    const entry = entryOf(call, table);
    if (entry === undefined) return "execute";
    const access = typeof entry.access === "function" ? entry.access(call.args) : entry.access;
    return access === "read" ? "read" : "execute";
  } catch {
    return "execute";
  }
}
