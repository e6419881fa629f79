// The memory_* tools: listed with truthful annotations, the three empty answers through the real server over stdio
// (the SDK's own Client), and writes refused unless the server runs --as librarian.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { openMemory } from "@orphus/memory";
import { MEMORY_MCP_TOOLS } from "../src/memory-tools.js";
import { connectSdkStdio, endBroker, shortAgentDir } from "./support/stdio.js";
import { HOSTILE_BODY, HOSTILE_BODY_LINES, expectShowable } from "../../../test-support/hostile-text.js";

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as {
    content: { text: string }[];
    isError?: boolean;
  };
  return { text: result.content[0]?.text ?? "", isError: result.isError === true };
}

test("the memory tools and their annotations", () => {
  expect(MEMORY_MCP_TOOLS.map((t) => [t.name, t.annotations.readOnlyHint, t.annotations.destructiveHint])).toEqual([
    ["memory_query", true, false],
    ["memory_get", true, false],
    ["memory_stats", true, false],
    ["memory_ingest", false, true],
    ["memory_forget", false, true],
  ]);
  for (const tool of MEMORY_MCP_TOOLS) {
    expect(tool.annotations.openWorldHint).toBe(false);
    expect(tool.inputSchema["properties"]).not.toHaveProperty("action");
  }
  expect(MEMORY_MCP_TOOLS.find((t) => t.name === "memory_query")?.inputSchema["required"]).toEqual(["query"]);
});

describe("over stdio", () => {
  let agent: ReturnType<typeof shortAgentDir>;
  let critic: { client: Client; stderr: () => string };
  let librarian: { client: Client; stderr: () => string };

  beforeAll(async () => {
    agent = shortAgentDir();
    [critic, librarian] = await Promise.all([
      connectSdkStdio("critic", agent.dir),
      connectSdkStdio("librarian", agent.dir),
    ]);
  });

  afterAll(async () => {
    await critic?.client.close();
    await librarian?.client.close();
    if (agent !== undefined) {
      await endBroker(agent.dir);
      agent.remove();
    }
  });

  test("lists the memory tools after the roundtable ones", async () => {
    const { tools } = await critic.client.listTools();
    expect(tools.map((t) => t.name).slice(8)).toEqual([
      "memory_query",
      "memory_get",
      "memory_stats",
      "memory_ingest",
      "memory_forget",
    ]);
  });

  test("missing, empty and no match are three different answers; writes need --as librarian", async () => {
    const store = `${agent.dir}/memory/memory.db`;
    const missing = await call(critic.client, "memory_query", { query: "release" });
    expect(missing.isError).toBe(true);
    // connectSdkStdio starts the server with --agent-dir, and the SDK passes no ORPHUS_* variable on.
    expect(missing.text).toContain(`[memory ${store}] no memory store exists here (location from --agent-dir)`);

    const refused = await call(critic.client, "memory_ingest", { title: "t", body: "b" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('this session\'s role is "critic" (from option)');
    expect(refused.text).toContain("--as librarian");

    expect(
      (await call(librarian.client, "memory_ingest", { title: "tmp", body: "soon gone", source: "tmp" })).isError,
    ).toBe(false);
    expect((await call(librarian.client, "memory_forget", { source: "tmp" })).text).toContain("forgot 1 entry");
    const empty = await call(critic.client, "memory_query", { query: "release" });
    expect(empty.isError).toBe(true);
    expect(empty.text).toContain("the memory store is empty");

    await call(librarian.client, "memory_ingest", {
      title: "Release policy",
      body: "We release with changesets.",
      tags: ["release"],
    });
    const none = await call(critic.client, "memory_query", { query: "kubernetes" });
    expect(none).toEqual({
      isError: false,
      text: expect.stringContaining('no entry matches "kubernetes" among 1 entry'),
    });
    const hits = await call(critic.client, "memory_query", { query: "changesets" });
    expect(hits.text).toMatch(/^\[#\d+\] Release policy/m);
    const stats = await call(critic.client, "memory_stats");
    expect(stats.text).toContain("1 entry from 1 source");
    const reader = openMemory({ env: { ORPHUS_CODING_AGENT_DIR: agent.dir } });
    try {
      expect(reader.path).toBe(store);
    } finally {
      reader.close();
    }
  });

  test("one tool per action: an action argument refused, a misspelled one named with the nearest, nothing names an action", async () => {
    expect(await call(critic.client, "memory_query", { query: "x", action: "get" })).toEqual({
      isError: true,
      text: 'Invalid memory call: query: unknown argument "action" (this tool runs query already; leave it out); got {"query":"x","action":"get"}',
    });
    expect(await call(critic.client, "memory_query", { qeury: "release" })).toEqual({
      isError: true,
      text:
        'Invalid memory call: query: unknown argument "qeury" (nearest known: "query"); query takes query, budget, ' +
        'limit, offset; a query needs words; got {"qeury":"release"}',
    });
    const long = await call(critic.client, "memory_query", { query: "word ".repeat(201) });
    expect(long.isError).toBe(true);
    expect(long.text).toMatch(
      /^Invalid memory call: query: the query is longer than 1000 characters; got \{"query":"word word /,
    );
    const forget = await call(librarian.client, "memory_forget", {});
    expect(forget).toEqual({ isError: true, text: "Invalid memory call: forget: give either id or source; got {}" });
    await expect(
      critic.client.callTool({ name: "memory_query", arguments: [1, 2] as unknown as Record<string, unknown> }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("must be a JSON object of named arguments"),
    });
  });

  test("hostile titles, sources and bodies reach the host escaped and cleaned", async () => {
    const ingest = await call(librarian.client, "memory_ingest", {
      title: "Hostile plan\u200bner",
      body: `${HOSTILE_BODY} hostiletoken`,
      source: "docs/\u202eevil.md",
      tags: ["t\u{E0041}ag"],
    });
    expect(ingest.isError).toBe(false);
    const query = await call(critic.client, "memory_query", { query: "hostiletoken" });
    expectShowable(query.text);
    expect(query.text).toContain("] Hostile plan\\u{200B}ner · docs/\\u{202E}evil.md");
    expect(query.text).toContain(`  ${HOSTILE_BODY_LINES.join(" ")} hostiletoken`);
    const id = Number(/\[#(\d+)\] Hostile/.exec(query.text)?.[1]);
    const page = await call(critic.client, "memory_get", { id });
    expectShowable(page.text);
    expect(page.text).toContain("tags: t\\u{E0041}ag");
    expect(page.text.split("\n").slice(2)).toEqual([
      ...HOSTILE_BODY_LINES.slice(0, -1),
      `${HOSTILE_BODY_LINES.at(-1)} hostiletoken`,
    ]);
    const refused = await call(critic.client, "memory_forget", { source: "docs/\u202eevil.md" });
    expect(refused.isError).toBe(true);
    expectShowable(refused.text);
  });
});
