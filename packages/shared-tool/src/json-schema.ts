import { z } from "zod";

/** A JSON Schema of a tool's input: an object, as MCP's inputSchema and function-calling APIs require. */
export interface ToolInputJsonSchema {
  readonly type: "object";
  readonly [key: string]: unknown;
}

/** `schema` as JSON Schema (draft 2020-12) of what a caller sends, without the `$schema` member hosts do not want. */
export function toolJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input" });
  return json;
}

/**
 * The JSON Schema of one action's arguments for a host with one tool per action: the action's schema (closed:
 * `additionalProperties: false`) without its `action` member, which the tool's name stands for.
 */
export function actionArgumentsJsonSchema(schema: z.ZodObject): ToolInputJsonSchema {
  const json = toolJsonSchema(schema);
  const properties = { ...(json["properties"] as Record<string, unknown> | undefined) };
  delete properties["action"];
  const required = ((json["required"] as string[] | undefined) ?? []).filter((name) => name !== "action");
  const { required: _all, ...rest } = json;
  return { ...rest, type: "object", properties, ...(required.length > 0 ? { required } : {}) };
}
