import type { MemoryAvailability } from "../memory/package.js";
import type { MemorySeat } from "../memory/seat.js";
import { MEMORY_TOOL } from "../names.js";
import { checkedBy, type SharedTool } from "./shared.js";

/** What every call says when @orphus/memory cannot be loaded: why, and how to install it where pi will find it. */
export function memoryUnavailableText(reason: string): string {
  return (
    `memory is not available in this pi: ${reason}. Install it where pi installed @orphus/pi-roundtable: ` +
    "npm install -g @orphus/memory for a global install (pi install), npm install --prefix .pi/npm @orphus/memory " +
    "for a project one (pi install -l); it also brings the orphus-memory command a librarian ingests with"
  );
}

/**
 * The shared `memory` tool of @orphus/memory: its name, description, JSON Schema and runner, run on the session's
 * store (opened on the first call). When the package is not available, a tool of the same name whose every call
 * is an error result saying why and how to install it, so a model that reaches for memory learns what is missing.
 */
export function memoryTool(availability: MemoryAvailability, seat: MemorySeat | undefined): SharedTool {
  if (!availability.available || seat === undefined) {
    const reason = availability.available ? "no memory seat" : availability.reason;
    return {
      name: MEMORY_TOOL,
      label: "Memory (not installed)",
      description: `The memory store Orphus sessions share. ${memoryUnavailableText(reason)}.`,
      // Any arguments: every call gets the same answer.
      parameters: { type: "object", properties: {} },
      run: async () => ({ text: memoryUnavailableText(reason), isError: true }),
    };
  }
  const { memory } = availability;
  return {
    name: memory.MEMORY_TOOL_NAME,
    label: "Memory",
    description: memory.MEMORY_TOOL_DESCRIPTION,
    parameters: memory.memoryToolJsonSchema(),
    promptSnippet:
      "Search the memory every session shares (decisions, conventions, repo files): query (bounded), get, stats",
    prepareArguments: checkedBy(memory.parseMemoryToolInput, (refusal) =>
      memory.describeMemoryToolError("call", refusal),
    ),
    // The runner never throws; a closed seat's refusal becomes an error result where the tool is registered.
    run: async (input) => memory.runMemoryTool(seat.take(), input),
  };
}
