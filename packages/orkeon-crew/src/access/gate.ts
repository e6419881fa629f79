import { NO_RULES, type PermissionRules } from "../rules.js";
import type { OrkeonMode } from "../modes.js";
import { isExposed } from "./catalogue.js";
import { accessOf, DEFAULT_TOOL_TABLE, familyOf, type ToolCall, type ToolTable } from "./table.js";

/** What the gate does with one call. */
export type GateDecision = "allow" | "ask" | "deny";

/** What a permission rule names: a built-in tool, one MCP tool, or every tool of an MCP server. */
export type ToolRule =
  | { readonly kind: "builtin"; readonly tool: string }
  | { readonly kind: "mcp"; readonly server: string; readonly tool?: string };

const MCP_PREFIX = "mcp__";
const SEPARATOR = "__";

/** The name a rule matches a call by: the built-in tool's name, or `mcp__<server>__<tool>`. */
export function toolRuleName(call: ToolCall): string {
  return call.kind === "mcp" ? `${MCP_PREFIX}${call.server}${SEPARATOR}${call.tool}` : call.tool;
}

/**
 * What a rule names, read one way only: `mcp__<server>` names a whole server, `mcp__<server>__<tool>` one tool, the
 * server ending at the first `__` after the prefix (so a server name never holds `__`, and a tool name may). Any
 * other rule names a built-in tool. Undefined for an MCP rule with an empty server or tool, which names nothing.
 */
export function parseToolRule(rule: string): ToolRule | undefined {
  if (!rule.startsWith(MCP_PREFIX)) return { kind: "builtin", tool: rule };
  const [server = "", ...toolParts] = rule.slice(MCP_PREFIX.length).split(SEPARATOR);
  const tool = toolParts.length === 0 ? undefined : toolParts.join(SEPARATOR);
  if (server === "" || tool === "") return undefined;
  return tool === undefined ? { kind: "mcp", server } : { kind: "mcp", server, tool };
}

/**
 * True when a rule can name this call and no other tool: its rule name reads back as the same tool. A server named
 * `a__b` or `a_` (whose `mcp__a___t` reads as server `a`), an empty server, or a built-in tool named `mcp__…` cannot.
 */
export function isNameable(call: ToolCall): boolean {
  const named = parseToolRule(toolRuleName(call));
  if (named === undefined) return false;
  if (call.kind === "builtin") return named.kind === "builtin";
  return named.kind === "mcp" && named.server === call.server && named.tool === call.tool;
}

function matches(rules: readonly string[], call: ToolCall): boolean {
  return rules.some((rule) => {
    const named = parseToolRule(rule);
    if (named === undefined || named.kind !== call.kind) return false;
    if (named.kind === "builtin") return named.tool === call.tool;
    return (
      call.kind === "mcp" && named.server === call.server && (named.tool === undefined || named.tool === call.tool)
    );
  });
}

/**
 * The gate, per call. A tool outside the mode's catalogue, one no rule can name unambiguously (so no rule could allow
 * or deny it), or one matched by a deny rule, is denied. A call declaring a read runs without a question in every
 * mode (so an http_api GET runs in default: the gate has allow and deny rules, no rule that asks; a project that
 * must not reach out adds the deny rule `http_api`). An execute is denied in plan, allowed by an allow rule
 * elsewhere, otherwise denied in dontAsk, allowed for the edits in acceptEdits, and asked.
 */
export function gateDecision(
  mode: OrkeonMode,
  call: ToolCall,
  rules: PermissionRules = NO_RULES,
  table: ToolTable = DEFAULT_TOOL_TABLE,
): GateDecision {
  if (!isExposed(mode, call, table) || !isNameable(call) || matches(rules.deny, call)) return "deny";
  if (accessOf(call, table) === "read") return "allow";
  // plan promises nothing changes: an allow rule does not turn an execute into a plan step.
  if (mode === "plan") return "deny";
  if (matches(rules.allow, call)) return "allow";
  if (mode === "dontAsk") return "deny";
  if (mode === "acceptEdits" && familyOf(call, table) === "edit") return "allow";
  return "ask";
}
