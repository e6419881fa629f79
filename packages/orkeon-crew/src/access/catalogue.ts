import { isReadOnlyMode, type OrkeonMode } from "../modes.js";
import { DEFAULT_TOOL_TABLE, familyOf, type ToolCall, type ToolFamily, type ToolTable } from "./table.js";

/**
 * Which modes see each family. github and rag_eval sit with the edits: one opens a pull request, the other re-ingests
 * a collection of the knowledge index. http_api is an outbound request able to carry the repository's content. So
 * none of the four is in the read-only modes, whatever one call declares.
 */
export const FAMILY_MODES: Readonly<Record<ToolFamily, "every-mode" | "writing-modes">> = Object.freeze({
  "local-read": "every-mode",
  web_search: "every-mode",
  mcp: "every-mode",
  edit: "writing-modes",
  github: "writing-modes",
  rag_eval: "writing-modes",
  http_api: "writing-modes",
});

/** True when the mode's catalogue offers the call's tool at all; a built-in tool the table does not know never is. */
export function isExposed(mode: OrkeonMode, call: ToolCall, table: ToolTable = DEFAULT_TOOL_TABLE): boolean {
  const family = familyOf(call, table);
  if (family === undefined) return false;
  return FAMILY_MODES[family] === "every-mode" || !isReadOnlyMode(mode);
}

/** The built-in tools a mode's catalogue offers, sorted; every MCP tool is offered besides. */
export function catalogue(mode: OrkeonMode, table: ToolTable = DEFAULT_TOOL_TABLE): readonly string[] {
  return Object.keys(table)
    .filter((tool) => isExposed(mode, { kind: "builtin", tool }, table))
    .sort();
}
