import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import { expect, test } from "vitest";
import { openMemory } from "@orphus/memory";
import { MAX_MCP_INPUT_BYTES, MCP_USAGE, runStdioServer } from "@orphus/roundtable-mcp";
import { FakeToolClient } from "./support/fake-client.js";

/** runStdioServer over in-memory pipes, with the fake client; the bin does the same over the process's stdio. */
function harness(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  const created: { role: string; agentDir?: string }[] = [];
  const fake = new FakeToolClient("codex");
  const exit = runStdioServer(argv, {
    stdin,
    stdout,
    stderr,
    env,
    createClient: (options) => {
      created.push({ role: options.role, ...(options.agentDir === undefined ? {} : { agentDir: options.agentDir }) });
      return fake;
    },
  });
  const lines = (): unknown[] =>
    out
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as unknown);
  const request = async (id: number, method: string, params: unknown = {}): Promise<Record<string, unknown>> => {
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    for (;;) {
      const reply = lines().find((line) => (line as { id?: unknown }).id === id);
      if (reply !== undefined) return reply as Record<string, unknown>;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  const initialize = async (): Promise<void> => {
    await request(0, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    });
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  };
  return { stdin, exit, fake, created, request, initialize, lines, out: () => out, err: () => err };
}

test("--help prints the usage to stdout and exits 0; --version prints the version", async () => {
  const help = harness(["--help"]);
  expect(await help.exit).toBe(0);
  expect(help.out()).toBe(MCP_USAGE);
  expect(help.err()).toBe("");
  expect(help.created).toEqual([]);
  const version = harness(["--version"]);
  expect(await version.exit).toBe(0);
  expect(version.out()).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
});

test("bad arguments exit 2 with the reason on stderr and nothing on stdout", async () => {
  const run = harness(["--agent-dir", "/tmp/x"]);
  expect(await run.exit).toBe(2);
  expect(run.out()).toBe("");
  expect(run.err()).toBe(
    "orphus-roundtable-mcp: --as <role> is required: the role this agent speaks as in every room\n" +
      "(orphus-roundtable-mcp --help shows the usage)\n",
  );
  expect(run.created).toEqual([]);
});

test("serves MCP on stdout only, ensures the broker at start, and exits 0 when stdin ends", async () => {
  const run = harness(["--as", "codex", "--agent-dir", "/tmp/fleet"]);
  await run.initialize();
  expect(run.created).toEqual([{ role: "codex", agentDir: "/tmp/fleet" }]);
  await expect.poll(() => run.fake.calls).toContain("connect");
  const listed = await run.request(1, "tools/list");
  // Eight roundtable tools and five memory tools.
  expect((listed["result"] as { tools: unknown[] }).tools).toHaveLength(13);
  const joined = await run.request(2, "tools/call", { name: "roundtable_join", arguments: { room: "design" } });
  expect(joined["result"]).toEqual({
    content: [{ type: "text", text: 'Joined "design" as codex (new room). Members: codex. Nothing unread.' }],
    isError: false,
  });
  run.stdin.end();
  expect(await run.exit).toBe(0);
  expect(run.fake.closed).toBe(true);
  // Every stdout line is a JSON-RPC frame (lines() would have thrown otherwise); diagnostics went to stderr.
  expect(run.lines().every((line) => (line as { jsonrpc?: unknown }).jsonrpc === "2.0")).toBe(true);
  expect(run.err()).toBe('orphus-roundtable-mcp: seated as "codex"; broker pid 4242 (version 0.0.0)\n');
});

test("a malformed line is reported on stderr and skipped; the session goes on", async () => {
  const run = harness(["--as", "codex"]);
  await run.initialize();
  run.stdin.write("this is not json\n");
  const listed = await run.request(1, "tools/list");
  expect(listed["result"]).toBeDefined();
  expect(run.err()).toContain("orphus-roundtable-mcp: bad input from the host: ");
  run.stdin.end();
  expect(await run.exit).toBe(0);
});

test("an input line over the limit ends the session with exit code 1", async () => {
  const run = harness(["--as", "codex"]);
  await run.initialize();
  run.stdin.write(Buffer.alloc(MAX_MCP_INPUT_BYTES + 1, 0x20));
  expect(await run.exit).toBe(1);
  expect(run.fake.closed).toBe(true);
  expect(run.err()).toContain(`session ended: ReadBuffer exceeded maximum size of ${MAX_MCP_INPUT_BYTES} bytes`);
});

test("when the session ends, the server's own close hooks run too: the memory store it opened is closed", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "mcp-run-memory-"));
  try {
    const librarian = openMemory({ dir, role: "librarian", env: {} });
    librarian.ingestTexts([{ title: "Release policy", body: "Packages release with changesets." }]);
    librarian.close();
    const store = path.join(dir, "memory.db");
    // SQLite removes a store's write-ahead log when the last connection to it closes, so the log's presence
    // says whether this process still holds the store open.
    expect(existsSync(`${store}-wal`)).toBe(false);
    const run = harness(["--as", "codex"], { ORPHUS_MEMORY_DIR: dir });
    await run.initialize();
    const answer = await run.request(1, "tools/call", { name: "memory_query", arguments: { query: "release" } });
    expect((answer["result"] as { isError: boolean }).isError).toBe(false);
    expect(existsSync(`${store}-wal`)).toBe(true);
    run.stdin.end();
    expect(await run.exit).toBe(0);
    expect(run.fake.closed).toBe(true);
    expect(existsSync(`${store}-wal`)).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
