import type { MemoryAvailability } from "../memory/package.js";
import type { MemorySeat } from "../memory/seat.js";
import type { RoundtableSeat } from "../seat.js";
import { memoryTool } from "./memory.js";
import { roundtableTool } from "./roundtable.js";
import type { SharedTool } from "./shared.js";

/**
 * The shared tools every session gets: `roundtable`, and `memory` beside it (a tool that says how to install
 * @orphus/memory when that optional peer is not there). Each holds its resource lazily: the client connects, and
 * the store opens, on the session's first call of that tool.
 */
export function sharedTools(
  seat: RoundtableSeat,
  memory: MemoryAvailability,
  memorySeat: MemorySeat | undefined,
): SharedTool[] {
  return [roundtableTool(seat), memoryTool(memory, memorySeat)];
}
