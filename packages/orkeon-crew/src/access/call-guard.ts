import { isReadOnlyMode, type OrkeonMode } from "../modes.js";
import { NO_RULES } from "../rules.js";
import { gateDecision } from "./gate.js";
import { DEFAULT_TOOL_TABLE, familyOf, type ToolCall, type ToolTable } from "./table.js";

/** What the gateless fallback does with one call: it has no one to ask. */
export type GuardDecision = "allow" | "deny";

/**
 * The gateless fallback guard of the dev crews. It has no rules and no one to ask, so it allows only what the gate
 * would run without a question and without a rule. In the writing modes that is read off the per-call access table,
 * as the gate reads it: a call that declares a read runs, an edit runs in acceptEdits, and every other execute (a
 * github create_pr, an http_api POST, an MCP tool without readOnlyHint, an edit in default) is refused. In the
 * read-only modes it is stricter still: only a local read that declares a read, since a fallback must never widen
 * what the catalogue promised (a declared read of web_search or an MCP tool needs the gate there). Since the gate
 * with no rule runs only declared reads in the read-only modes, that is a local read that declares a read.
 */
export function fallbackDecision(
  mode: OrkeonMode,
  call: ToolCall,
  table: ToolTable = DEFAULT_TOOL_TABLE,
): GuardDecision {
  if (gateDecision(mode, call, NO_RULES, table) !== "allow") return "deny";
  return isReadOnlyMode(mode) && familyOf(call, table) !== "local-read" ? "deny" : "allow";
}
