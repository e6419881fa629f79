import { sanitizeText } from "@orphus/digest";
import { boundedText, MAX_ERROR_TEXT_CHARS } from "@orphus/roundtable-client";
import { ToolArgumentsRefusedError } from "../errors.js";
import type { PiContext, PiExtensionApi } from "../pi.js";

/** What a call of a shared tool returns: text for the model, and whether the call failed. */
export interface SharedToolResult {
  readonly text: string;
  readonly isError: boolean;
}

/**
 * A tool the Orphus hosts share (the roundtable tool of @orphus/roundtable-client, the memory tool of @orphus/memory):
 * one name, one JSON Schema, one runner that never throws. The extension only adapts it to pi's tool interface.
 */
export interface SharedTool {
  readonly name: string;
  /** What pi's interface shows for the tool. */
  readonly label: string;
  /** What the model reads about the tool. */
  readonly description: string;
  /** The input's JSON Schema: the one the MCP server publishes too. pi validates calls against it. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** One line for the "Available tools" list of pi's system prompt. */
  readonly promptSnippet?: string;
  /** Checks raw arguments before pi validates them: returns them normalised, or throws the tool's refusal (checkedBy). */
  readonly prepareArguments?: (args: unknown) => unknown;
  /** Runs one call; every failure comes back as a result with isError set. */
  run(input: unknown, signal: AbortSignal | undefined, ctx: PiContext): Promise<SharedToolResult>;
}

/**
 * A shared tool's `prepareArguments`: the tool's own check of the arguments, run before pi validates them against
 * the schema. Accepted arguments come back as the check returns them (null members dropped, as models send them for
 * an absent one). A refusal is thrown as the tool's own error text (an unknown argument named with the nearest known
 * one; bounded; sanitised), which pi returns as the call's error result: pi's own validation, whose text quotes the
 * raw arguments whole and names no nearest argument, never answers a shared tool's call.
 */
export function checkedBy(
  check: (args: unknown) => unknown,
  describe: (refusal: unknown) => string,
): (args: unknown) => unknown {
  return (args) => {
    try {
      return check(args);
    } catch (refusal) {
      throw new ToolArgumentsRefusedError(sanitizeText(describe(refusal)), { cause: refusal });
    }
  };
}

/** The `details` of a shared tool's result in the session: which tool, and whether it failed. */
export interface SharedToolDetails {
  readonly tool: string;
  readonly isError: boolean;
}

function isFailedCall(details: unknown, names: ReadonlySet<string>): boolean {
  if (typeof details !== "object" || details === null) return false;
  const { tool, isError } = details as Partial<SharedToolDetails>;
  return isError === true && typeof tool === "string" && names.has(tool);
}

/** Runs a call so that nothing escapes into pi: a runner that throws after all still yields an error result. */
async function runSafely(
  tool: SharedTool,
  input: unknown,
  signal: AbortSignal | undefined,
  ctx: PiContext,
): Promise<SharedToolResult> {
  try {
    return await tool.run(input, signal, ctx);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { text: boundedText(`${tool.name} failed: ${message}`, MAX_ERROR_TEXT_CHARS), isError: true };
  }
}

/**
 * Registers shared tools with pi. A failed call is returned, not thrown, and flagged in its details; a tool_result
 * handler then marks it as pi's error result (`isError: true`), since pi sets that flag only for a thrown error.
 */
export function registerSharedTools(
  pi: Pick<PiExtensionApi, "registerTool" | "on">,
  tools: readonly SharedTool[],
): void {
  const names = new Set(tools.map((tool) => tool.name));
  for (const tool of tools) {
    const { prepareArguments } = tool;
    pi.registerTool({
      name: tool.name,
      label: tool.label,
      description: tool.description,
      ...(tool.promptSnippet === undefined ? {} : { promptSnippet: tool.promptSnippet }),
      parameters: tool.parameters,
      ...(prepareArguments === undefined ? {} : { prepareArguments: (args: unknown) => prepareArguments(args) }),
      async execute(_toolCallId, params, signal, _onUpdate, ctx) {
        const result = await runSafely(tool, params, signal, ctx);
        const details: SharedToolDetails = { tool: tool.name, isError: result.isError };
        // Each shared tool bounds and sanitises its own texts; this last pass of the one sanitiser holds for any
        // tool registered here, so nothing a shared tool returns reaches the session unsanitised.
        return { content: [{ type: "text", text: sanitizeText(result.text) }], details };
      },
    });
  }
  pi.on("tool_result", (event) => (isFailedCall(event.details, names) ? { isError: true } : undefined));
}
