import { isReadOnlyMode, type OrkeonMode } from "../modes.js";
import { isExposed } from "./catalogue.js";
import { accessOf, DEFAULT_TOOL_TABLE, familyOf, type ToolCall, type ToolTable } from "./table.js";

/** What the gateless fallback does with one call: it has no one to ask. */
export type GuardDecision = "allow" | "deny";

/**
 * The gateless fallback guard of the dev crews. In the writing modes it reads the same table as the catalogue: a tool
 * the mode offers is allowed. In the read-only modes it is stricter: only a local read that declares a read, since a
 * fallback must never widen what the catalogue promised (a declared read of web_search or an MCP tool needs the gate).
 */
export function fallbackDecision(
  mode: OrkeonMode,
  call: ToolCall,
  table: ToolTable = DEFAULT_TOOL_TABLE,
): GuardDecision {
  if (!isExposed(mode, call, table)) return "deny";
  if (!isReadOnlyMode(mode)) return "allow";
  return familyOf(call, table) === "local-read" && accessOf(call, table) === "read" ? "allow" : "deny";
}
