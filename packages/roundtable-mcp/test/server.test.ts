import fc from "fast-check";
import { afterEach, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { runRoundtableTool } from "@orphus/roundtable-client";
import {
  McpOptionError,
  ROUNDTABLE_MCP_TOOLS,
  createRoundtableMcpServer,
  roundtableMcpInstructions,
} from "@orphus/roundtable-mcp";
import { FakeToolClient } from "./support/fake-client.js";

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

async function connect(fake: FakeToolClient): Promise<Client> {
  const server = createRoundtableMcpServer({ role: fake.role, client: fake });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "0.0.0" });
  await client.connect(clientSide);
  open.push(client);
  return client;
}

function textOf(result: unknown): { text: string; isError: boolean } {
  const { content, isError } = result as { content: { type: string; text: string }[]; isError?: boolean };
  expect(content).toHaveLength(1);
  expect(content[0]?.type).toBe("text");
  return { text: content[0]?.text ?? "", isError: isError === true };
}

test("initialize names the server and pins the role in its instructions", async () => {
  const client = await connect(new FakeToolClient("claude"));
  expect(client.getServerVersion()).toMatchObject({ name: "orphus-roundtable", title: "Orphus roundtable" });
  expect(client.getServerCapabilities()).toEqual({ tools: {} });
  expect(client.getInstructions()).toBe(roundtableMcpInstructions("claude"));
  expect(client.getInstructions()).toContain('as "claude"');
});

test("tools/list returns the eight tools with their annotations", async () => {
  const client = await connect(new FakeToolClient("claude"));
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).slice(0, 8)).toEqual(ROUNDTABLE_MCP_TOOLS.map((tool) => tool.name));
  expect(tools.filter((tool) => tool.annotations?.readOnlyHint === true).map((tool) => tool.name)).toEqual([
    "roundtable_digest",
    "roundtable_fetch",
    "roundtable_rooms",
    "roundtable_members",
    "roundtable_wait",
    "memory_query",
    "memory_get",
    "memory_stats",
  ]);
});

test("a call runs the shared tool; the action comes from the tool name, never from the arguments", async () => {
  const fake = new FakeToolClient("claude");
  const client = await connect(fake);
  // The schema is closed and has no `action`: one in the arguments is refused, never obeyed.
  expect(
    textOf(await client.callTool({ name: "roundtable_join", arguments: { room: "design", action: "post" } })),
  ).toEqual({
    text:
      'Invalid roundtable call: join: unknown argument "action" (this tool runs join already; leave it out); ' +
      'got {"room":"design","action":"post"}',
    isError: true,
  });
  const joined = textOf(await client.callTool({ name: "roundtable_join", arguments: { room: "design" } }));
  expect(joined).toEqual({
    text: 'Joined "design" as claude (new room). Members: claude. Nothing unread.',
    isError: false,
  });
  const posted = textOf(
    await client.callTool({ name: "roundtable_post", arguments: { room: "design", body: "ship it", headline: null } }),
  );
  expect(posted).toEqual({ text: 'Posted #1 to "design".', isError: false });
  expect(fake.calls).toEqual(["join design", "post design 7"]);
});

test("bad input is an isError result naming the problem, and the server keeps serving", async () => {
  const client = await connect(new FakeToolClient("claude"));
  const missing = textOf(await client.callTool({ name: "roundtable_post", arguments: { room: "design" } }));
  expect(missing.isError).toBe(true);
  expect(missing.text).toMatch(/^Invalid roundtable call: post: .*body/);
  const wrongType = textOf(
    await client.callTool({ name: "roundtable_digest", arguments: { room: "design", budget: "all" } }),
  );
  expect(wrongType.isError).toBe(true);
  expect(wrongType.text).toMatch(/^Invalid roundtable call: digest: .*budget/);
  const failing = textOf(await client.callTool({ name: "roundtable_join", arguments: { room: "boom" } }));
  expect(failing).toEqual({ text: "roundtable join failed: the fake broker refuses room boom", isError: true });
  expect(textOf(await client.callTool({ name: "roundtable_rooms", arguments: {} }))).toEqual({
    text: "No rooms yet: join one to create it.",
    isError: false,
  });
});

test("an unknown tool is a protocol error (InvalidParams), not a result", async () => {
  const client = await connect(new FakeToolClient("claude"));
  await expect(client.callTool({ name: "roundtable", arguments: { action: "rooms" } })).rejects.toMatchObject({
    code: -32602,
  });
  expect(textOf(await client.callTool({ name: "roundtable_rooms" })).isError).toBe(false);
});

test("a misspelled argument is an isError result naming it and the nearest known one; nothing is called", async () => {
  const fake = new FakeToolClient("claude");
  const client = await connect(fake);
  expect(textOf(await client.callTool({ name: "roundtable_wait", arguments: { room: "design", timeout: 1 } }))).toEqual(
    {
      text:
        'Invalid roundtable call: wait: unknown argument "timeout" (nearest known: "timeoutSeconds"); ' +
        'wait takes room, timeoutSeconds; got {"room":"design","timeout":1}',
      isError: true,
    },
  );
  expect(
    textOf(await client.callTool({ name: "roundtable_digest", arguments: { room: "design", bugdet: 500 } })),
  ).toEqual({
    text:
      'Invalid roundtable call: digest: unknown argument "bugdet" (nearest known: "budget"); digest takes room, ' +
      'budget; got {"room":"design","bugdet":500}',
    isError: true,
  });
  expect(fake.calls).toEqual([]);
});

test("every tool's input schema is closed, and the room carries the broker's pattern and length", async () => {
  const client = await connect(new FakeToolClient("claude"));
  const { tools } = await client.listTools();
  for (const tool of tools) {
    expect(tool.inputSchema).toMatchObject({ type: "object", additionalProperties: false });
    expect(Object.keys(tool.inputSchema.properties ?? {})).not.toContain("action");
    const room = tool.inputSchema.properties?.["room"];
    if (room !== undefined) {
      expect(room).toMatchObject({
        type: "string",
        minLength: 1,
        maxLength: 64,
        pattern: "^[a-z0-9][a-z0-9._-]{0,63}$",
      });
    }
  }
});

test("cancelling a wait from the client ends the wait on the server", async () => {
  const fake = new FakeToolClient("claude");
  const client = await connect(fake);
  await client.callTool({ name: "roundtable_join", arguments: { room: "design" } });
  const controller = new AbortController();
  const waiting = client.callTool({ name: "roundtable_wait", arguments: { timeoutSeconds: 60 } }, undefined, {
    signal: controller.signal,
  });
  await expect.poll(() => fake.waiting).toBe(1);
  controller.abort("changed my mind");
  await expect(waiting).rejects.toThrow();
  await expect.poll(() => fake.waiting).toBe(0);
});

test("a wait returns when another role posts", async () => {
  const fake = new FakeToolClient("claude");
  const client = await connect(fake);
  await client.callTool({ name: "roundtable_join", arguments: { room: "design" } });
  const waiting = client.callTool({ name: "roundtable_wait", arguments: { room: "design" } });
  await expect.poll(() => fake.waiting).toBe(1);
  fake.inject("design", "planner", "first draft");
  expect(textOf(await waiting)).toEqual({ text: "design: 1 unread. Digest to read.", isError: false });
  expect(fake.calls.filter((call) => call.startsWith("wait"))).toEqual(["wait design 30000"]);
});

test("options are checked: a valid role, and a client speaking as it", () => {
  const attempt = (run: () => unknown): McpOptionError => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(McpOptionError);
      return error as McpOptionError;
    }
    throw new Error("accepted");
  };
  expect(attempt(() => createRoundtableMcpServer({ role: "Bad Role" })).message).toBe(
    `Invalid roundtable MCP server option role: expected 1 to 64 letters, digits, '.', '_' or '-', starting with a ` +
      `letter or digit, got "Bad Role"`,
  );
  expect(attempt(() => createRoundtableMcpServer({ role: "" })).code).toBe("ERR_MCP_INVALID_OPTION");
  expect(
    attempt(() => createRoundtableMcpServer({ role: "codex", client: new FakeToolClient("claude") })).message,
  ).toBe(`Invalid roundtable MCP server option client: expected a client speaking as "codex", got "claude"`);
});

// Arbitrary argument objects: right and wrong types, nulls for absent members, stray members.
const value = fc.oneof(
  fc.constantFrom("design", "boom", "", "Design Room", null, 0, 1, 99, 100, 8001, -1, 2.5, true),
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -5, max: 200 }),
);
const argumentsArbitrary = fc.dictionary(
  fc.constantFrom("room", "body", "headline", "budget", "afterSeq", "limit", "timeoutSeconds", "action", "extra"),
  value,
  { maxKeys: 5 },
);
const callArbitrary = fc.record({
  tool: fc.constantFrom(...ROUNDTABLE_MCP_TOOLS.filter((tool) => tool.action !== "wait")),
  arguments: argumentsArbitrary,
});

test("over MCP, every call answers exactly what the shared tool answers for the same input", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(callArbitrary, { minLength: 1, maxLength: 8 }), async (calls) => {
      const overMcp = new FakeToolClient("claude");
      const direct = new FakeToolClient("claude");
      const client = await connect(overMcp);
      for (const call of calls) {
        const got = textOf(await client.callTool({ name: call.tool.name, arguments: call.arguments }));
        const expected = await runRoundtableTool(direct, call.arguments, { action: call.tool.action });
        expect(got).toEqual({ text: expected.text, isError: expected.isError });
        // Error texts name only what the MCP tool has: never an `action` member the caller did not send.
        if (!Object.hasOwn(call.arguments, "action")) expect(got.text).not.toMatch(/\baction\b/);
      }
      expect(overMcp.calls).toEqual(direct.calls);
      await client.close();
    }),
    { numRuns: 60 },
  );
});
