import type { RoundtableSeat } from "../seat.js";
import { roundtableTool } from "./roundtable.js";
import type { SharedTool } from "./shared.js";

/**
 * The shared tools every session gets. A second shared tool (memory, from @orphus/memory) joins with one entry here:
 * a `SharedTool` whose `run` calls that package's runner, holding its store the way the seat holds the client.
 */
export function sharedTools(seat: RoundtableSeat): SharedTool[] {
  return [roundtableTool(seat)];
}
