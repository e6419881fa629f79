import { NO_RULES, type PermissionRules } from "../rules.js";
import type { OrkeonMode } from "../modes.js";
import { isExposed } from "./catalogue.js";
import { accessOf, DEFAULT_TOOL_TABLE, familyOf, type ToolCall, type ToolTable } from "./table.js";

/** What the gate does with one call. */
export type GateDecision = "allow" | "ask" | "deny";

/** The name a rule matches a call by: the built-in tool's name, or `mcp__<server>__<tool>`. */
export function toolRuleName(call: ToolCall): string {
  return call.kind === "mcp" ? `mcp__${call.server}__${call.tool}` : call.tool;
}

function matches(rules: readonly string[], call: ToolCall): boolean {
  const name = toolRuleName(call);
  return rules.some((rule) => rule === name || (call.kind === "mcp" && rule === `mcp__${call.server}`));
}

/**
 * The gate, per call. A tool outside the mode's catalogue, or matched by a deny rule, is denied. A call declaring a
 * read runs without a question in every mode (so an http_api GET runs in default: the gate has allow and deny rules,
 * no rule that asks; a project that must not reach out adds the deny rule `http_api`). An execute is denied in plan,
 * allowed by an allow rule elsewhere, otherwise denied in dontAsk, allowed for the edits in acceptEdits, and asked.
 */
export function gateDecision(
  mode: OrkeonMode,
  call: ToolCall,
  rules: PermissionRules = NO_RULES,
  table: ToolTable = DEFAULT_TOOL_TABLE,
): GateDecision {
  if (!isExposed(mode, call, table) || matches(rules.deny, call)) return "deny";
  if (accessOf(call, table) === "read") return "allow";
  // plan promises nothing changes: an allow rule does not turn an execute into a plan step.
  if (mode === "plan") return "deny";
  if (matches(rules.allow, call)) return "allow";
  if (mode === "dontAsk") return "deny";
  if (mode === "acceptEdits" && familyOf(call, table) === "edit") return "allow";
  return "ask";
}
