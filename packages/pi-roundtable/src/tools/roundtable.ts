import {
  ROUNDTABLE_TOOL_DESCRIPTION,
  ROUNDTABLE_TOOL_NAME,
  describeToolError,
  parseRoundtableToolInput,
  roundtableToolJsonSchema,
  runRoundtableTool,
} from "@orphus/roundtable-client";
import type { RoundtableSeat } from "../seat.js";
import { checkedBy, type SharedTool } from "./shared.js";

/** The shared `roundtable` tool, run through the seat's client (leased, and the broker started, on the first call). */
export function roundtableTool(seat: RoundtableSeat): SharedTool {
  return {
    name: ROUNDTABLE_TOOL_NAME,
    label: "Roundtable",
    description: ROUNDTABLE_TOOL_DESCRIPTION,
    parameters: roundtableToolJsonSchema(),
    promptSnippet: "Deliberate with other agents in shared rooms: join, post, digest (bounded), fetch",
    prepareArguments: checkedBy(parseRoundtableToolInput, (refusal) => describeToolError("call", refusal)),
    async run(input, signal) {
      let client;
      try {
        client = seat.take();
      } catch (error) {
        return { text: describeToolError("call", error), isError: true };
      }
      return runRoundtableTool(client, input, signal === undefined ? {} : { signal });
    },
  };
}
