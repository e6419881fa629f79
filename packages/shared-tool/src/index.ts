/**
 * @orphus/shared-tool — what every Orphus shared tool (the roundtable tool of @orphus/roundtable-client, the memory
 * tool of @orphus/memory) does the same way, whatever it runs and whichever host serves it: closed arguments, checked
 * and refused in one line that names an unknown argument and the nearest known one; the one-tool-per-action mode of
 * the MCP server; and texts bounded after the one sanitiser of @orphus/digest.
 *
 * ```ts
 * import { z } from "zod";
 * import { boundedText, checkActionArguments, checkToolCall } from "@orphus/shared-tool";
 *
 * const schemas = {
 *   digest: z.strictObject({ action: z.literal("digest"), room: z.string(), budget: z.number().optional() }),
 *   rooms: z.strictObject({ action: z.literal("rooms") }),
 * };
 * checkToolCall(schemas, { action: "digest", room: "design", bugdet: 500 });
 * // { ok: false, problem: 'digest: unknown argument "bugdet" (nearest known: "budget"); digest takes room, budget', … }
 * checkActionArguments(schemas, "digest", { room: "design", budget: null }); // { ok: true, value: { room, action } }
 * boundedText(error.message, 2500); // sanitised, then cut with "… (812 more characters)"
 * ```
 *
 * A check returns its outcome rather than throwing: each tool wraps a refusal in its own typed error. Only
 * @orphus/digest (the sanitiser) and zod are imported, so the client and the memory store share this without either
 * depending on the other.
 */
export { checkToolCall, checkActionArguments, withoutNulls, argumentsOf } from "./arguments.js";
export { describeArgumentIssues, quotedName } from "./issues.js";
export { nearestName } from "./nearest.js";
export { toolJsonSchema, actionArgumentsJsonSchema } from "./json-schema.js";
export { boundedText } from "./bounded.js";
export { shownValue } from "./shown-value.js";
export { showableJson } from "./showable-json.js";
// The default of shownValue's `maxChars`; how much else a refusal names and quotes is internal (see the README).
export { SHOWN_VALUE_CHARS } from "./limits.js";
export type { ActionSchemas, ActionInput, ArgumentCheck } from "./arguments.js";
export type { ToolInputJsonSchema } from "./json-schema.js";
export type { BoundedTextOptions, CutKeep } from "./bounded.js";
