import { expect, test } from "vitest";
import * as api from "@orphus/roundtable-mcp";
import {
  MAX_MCP_INPUT_BYTES,
  MCP_SERVER_NAME,
  MCP_USAGE,
  McpOptionError,
  McpUsageError,
  ROUNDTABLE_MCP_TOOLS,
  findRoundtableMcpTool,
  mcpToolName,
} from "@orphus/roundtable-mcp";

test("the public surface is exactly these names", () => {
  expect(Object.keys(api).sort()).toEqual([
    "MAX_MCP_DIAGNOSTIC_CHARS",
    "MAX_MCP_ERROR_MESSAGE_CHARS",
    "MAX_MCP_INPUT_BYTES",
    "MCP_SERVER_NAME",
    "MCP_SERVER_VERSION",
    "MCP_USAGE",
    "McpOptionError",
    "McpUsageError",
    "ROUNDTABLE_MCP_TOOLS",
    "RoundtableMcpError",
    "createRoundtableMcpServer",
    "findRoundtableMcpTool",
    "mcpToolName",
    "parseMcpArguments",
    "roundtableMcpInstructions",
    "runStdioServer",
  ]);
  expect(MCP_SERVER_NAME).toBe("orphus-roundtable");
  expect(MAX_MCP_INPUT_BYTES).toBe(1_048_576);
  expect([api.MAX_MCP_ERROR_MESSAGE_CHARS, api.MAX_MCP_DIAGNOSTIC_CHARS]).toEqual([1000, 1000]);
});

test("one tool per action, named roundtable_<action>, with every annotation explicit and truthful", () => {
  const table = ROUNDTABLE_MCP_TOOLS.map((tool) => {
    const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.annotations;
    return [tool.name, tool.action, { readOnlyHint, destructiveHint, idempotentHint, openWorldHint }];
  });
  expect(table).toEqual([
    [
      "roundtable_join",
      "join",
      { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    ],
    [
      "roundtable_leave",
      "leave",
      { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    ],
    [
      "roundtable_post",
      "post",
      { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    ],
    [
      "roundtable_digest",
      "digest",
      { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    ],
    [
      "roundtable_fetch",
      "fetch",
      { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    ],
    [
      "roundtable_rooms",
      "rooms",
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    ],
    [
      "roundtable_members",
      "members",
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    ],
    [
      "roundtable_wait",
      "wait",
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    ],
  ]);
  for (const tool of ROUNDTABLE_MCP_TOOLS) {
    expect(tool.annotations.title).toBe(tool.title);
    expect(tool.description.length).toBeGreaterThan(20);
    expect(findRoundtableMcpTool(tool.name)).toBe(tool);
  }
  expect(mcpToolName("post")).toBe("roundtable_post");
  expect(findRoundtableMcpTool("roundtable")).toBeUndefined();
});

test("each tool's input schema is its action's schema without the action member", () => {
  const shapes = Object.fromEntries(
    ROUNDTABLE_MCP_TOOLS.map((tool) => {
      const schema = tool.inputSchema as { type: string; properties: Record<string, unknown>; required?: string[] };
      return [
        tool.name,
        { type: schema.type, properties: Object.keys(schema.properties), required: schema.required ?? [] },
      ];
    }),
  );
  expect(shapes).toEqual({
    roundtable_join: { type: "object", properties: ["room"], required: ["room"] },
    roundtable_leave: { type: "object", properties: ["room"], required: ["room"] },
    roundtable_post: { type: "object", properties: ["room", "body", "headline"], required: ["room", "body"] },
    roundtable_digest: { type: "object", properties: ["room", "budget"], required: ["room"] },
    roundtable_fetch: { type: "object", properties: ["room", "afterSeq", "limit", "maxChars"], required: ["room"] },
    roundtable_rooms: { type: "object", properties: [], required: [] },
    roundtable_members: { type: "object", properties: ["room"], required: ["room"] },
    roundtable_wait: { type: "object", properties: ["room", "timeoutSeconds"], required: [] },
  });
  const wait = findRoundtableMcpTool("roundtable_wait")?.inputSchema as unknown as {
    properties: { timeoutSeconds: unknown };
  };
  expect(wait.properties.timeoutSeconds).toMatchObject({ type: "integer", minimum: 1, maximum: 120 });
  expect(JSON.stringify(ROUNDTABLE_MCP_TOOLS)).not.toContain("$schema");
});

test("descriptions carry the shared tool's limits", () => {
  const text = (name: string): string => findRoundtableMcpTool(name)?.description ?? "";
  expect(text("roundtable_post")).toContain("32768 characters");
  expect(text("roundtable_digest")).toContain("default 1500, at most 8000");
  expect(text("roundtable_fetch")).toContain(
    "up to 10 messages (limit, at most 50) and 8000 characters (maxChars, at most 524288) by default. A message " +
      "longer than the cap still comes whole when it is the first of its page.",
  );
  expect(text("roundtable_wait")).toContain("default 30, at most 120");
});

test("the usage names the flags and every tool", () => {
  expect(MCP_USAGE.startsWith("Usage: orphus-roundtable-mcp --as <role> [--agent-dir <dir>]\n")).toBe(true);
  for (const tool of ROUNDTABLE_MCP_TOOLS) expect(MCP_USAGE).toContain(tool.name);
});

test("errors carry stable codes and names", () => {
  const usage = new McpUsageError("--as <role> is required");
  expect([usage.name, usage.code, usage.message]).toEqual([
    "McpUsageError",
    "ERR_MCP_USAGE",
    "orphus-roundtable-mcp: --as <role> is required",
  ]);
  const option = new McpOptionError("role", "a role name", "x".repeat(100));
  expect([option.name, option.code]).toEqual(["McpOptionError", "ERR_MCP_INVALID_OPTION"]);
  expect(option.message).toBe(
    `Invalid roundtable MCP server option role: expected a role name, got "${"x".repeat(60)}"… (100 characters)`,
  );
  expect(usage).toBeInstanceOf(api.RoundtableMcpError);
});
