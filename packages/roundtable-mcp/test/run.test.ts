import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { expect, test } from "vitest";
import { openMemory } from "@orphus/memory";
import { MAX_MCP_INPUT_BYTES, MCP_USAGE } from "@orphus/roundtable-mcp";
import { harness } from "./support/harness.js";

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
  expect(run.err()).toBe(
    'orphus-roundtable-mcp: agent directory /tmp/fleet (from --agent-dir "/tmp/fleet")\n' +
      'orphus-roundtable-mcp: seated as "codex"; broker pid 4242 (version 0.0.0)\n',
  );
});

test("a relative agent directory is resolved once, at start, against the working directory, and named", async () => {
  const flag = harness(["--as", "codex", "--agent-dir", "fleet/agent"]);
  await flag.initialize();
  expect(flag.created).toEqual([{ role: "codex", agentDir: "/work/here/fleet/agent" }]);
  expect(flag.err().split("\n")[0]).toBe(
    'orphus-roundtable-mcp: agent directory /work/here/fleet/agent (from --agent-dir "fleet/agent", resolved against /work/here)',
  );
  flag.stdin.end();
  expect(await flag.exit).toBe(0);
  const variable = harness(["--as", "codex"], { ORPHUS_CODING_AGENT_DIR: "../agent" });
  await variable.initialize();
  expect(variable.created).toEqual([{ role: "codex", agentDir: "/work/agent" }]);
  expect(variable.err().split("\n")[0]).toBe(
    'orphus-roundtable-mcp: agent directory /work/agent (from ORPHUS_CODING_AGENT_DIR "../agent", resolved against /work/here)',
  );
  variable.stdin.end();
  expect(await variable.exit).toBe(0);
});

test("an agent directory too deep for the broker socket exits 2, the advice naming what set it", async () => {
  const deep = `/tmp/${"d".repeat(100)}`;
  const flag = harness(["--as", "codex", "--agent-dir", deep]);
  expect(await flag.exit).toBe(2);
  expect(flag.out()).toBe("");
  expect(flag.err()).toMatch(
    /^orphus-roundtable-mcp: Broker socket path is \d+ bytes; .*\. Pass a shorter --agent-dir\.\n$/,
  );
  const variable = harness(["--as", "codex"], { ORPHUS_CODING_AGENT_DIR: deep });
  expect(await variable.exit).toBe(2);
  expect(variable.err()).toMatch(/\. Set ORPHUS_CODING_AGENT_DIR to a shorter directory\.\n$/);
  expect([...flag.created, ...variable.created]).toEqual([]);
});

test("a lost broker is one prefixed line on stderr", async () => {
  const run = harness(["--as", "codex", "--agent-dir", "/tmp/fleet"]);
  await run.initialize();
  await expect.poll(() => run.err()).toContain("seated as");
  run.fake.loseConnection("the broker closed the connection\nand more");
  expect(run.err().split("\n").slice(2)).toEqual([
    "orphus-roundtable-mcp: broker lost (the broker closed the connection | and more); the next call reconnects, " +
      "starting a broker if none answers, and rooms must be joined again",
    "",
  ]);
  run.stdin.end();
  expect(await run.exit).toBe(0);
});

test("arguments that are not an object are InvalidParams (-32602), with one sentence; the session goes on", async () => {
  const run = harness(["--as", "codex"]);
  await run.initialize();
  for (const [id, args, kind] of [
    [1, [1, 2], "an array"],
    [2, "room=design", "a string"],
    [3, 7, "a number"],
  ] as const) {
    expect(await run.request(id, "tools/call", { name: "roundtable_join", arguments: args })).toEqual({
      jsonrpc: "2.0",
      id,
      error: {
        code: -32602,
        message: `MCP error -32602: The arguments of roundtable_join must be a JSON object of named arguments; got ${kind}`,
      },
    });
  }
  const rooms = await run.request(4, "tools/call", { name: "roundtable_rooms", arguments: null });
  expect(rooms["result"]).toMatchObject({ isError: false });
  run.stdin.end();
  expect(await run.exit).toBe(0);
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

test("a request line over the limit gets an error naming the limit, addressed to its id, and the session goes on", async () => {
  const run = harness(["--as", "codex"]);
  await run.initialize();
  const body = "x".repeat(5 * 1024 * 1024);
  const line = `${JSON.stringify({
    jsonrpc: "2.0",
    method: "tools/call",
    params: { name: "roundtable_post", arguments: { room: "design", body, id: 99 } },
    id: 7,
  })}\n`;
  // Written in pieces as a pipe delivers it; the top-level id comes last, after a decoy inside the arguments.
  for (let at = 0; at < line.length; at += 64 * 1024) run.stdin.write(line.slice(at, at + 64 * 1024));
  const refused = await run
    .request(8, "tools/list")
    .then(() => run.lines().find((l) => (l as { id?: unknown }).id === 7));
  expect(refused).toEqual({
    jsonrpc: "2.0",
    id: 7,
    error: {
      code: -32600,
      message:
        `Request too large: the line was ${line.length - 1} bytes, over this server's limit of ${MAX_MCP_INPUT_BYTES} ` +
        "bytes per message, and was discarded unread. Send less: a post body is at most 32768 characters.",
      data: { bytes: line.length - 1, maxLineBytes: MAX_MCP_INPUT_BYTES },
    },
  });
  expect(run.fake.calls).not.toContain("post design 5242880");
  expect(run.err()).toContain(
    `orphus-roundtable-mcp: bad input from the host: discarded a ${line.length - 1}-byte line, over the limit of ${MAX_MCP_INPUT_BYTES} bytes`,
  );
  // A line of nothing but padding has no id to answer: it is reported and skipped.
  run.stdin.write(Buffer.alloc(MAX_MCP_INPUT_BYTES + 1, 0x20));
  run.stdin.write("\n");
  expect((await run.request(9, "tools/list"))["result"]).toBeDefined();
  run.stdin.end();
  expect(await run.exit).toBe(0);
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

test("the memory answers say where the location came from: --agent-dir, or the variable that set it", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "mcp-run-where-"));
  const stats = async (argv: string[], env: NodeJS.ProcessEnv): Promise<string> => {
    const run = harness(["--as", "codex", ...argv], env);
    await run.initialize();
    const answer = await run.request(1, "tools/call", { name: "memory_stats", arguments: {} });
    run.stdin.end();
    expect(await run.exit).toBe(0);
    return (answer["result"] as { content: { text: string }[] }).content[0]?.text ?? "";
  };
  try {
    const flag = await stats(["--agent-dir", dir], {});
    expect(flag).toContain(`[memory ${dir}/memory/memory.db] no memory store exists here (location from --agent-dir);`);
    // A host that passes no variables on is told of the flags too.
    expect(flag).toContain(
      "where a host passes no variables on, the same orphus-roundtable-mcp --agent-dir or orphus-memory --dir",
    );
    const variable = await stats([], { ORPHUS_CODING_AGENT_DIR: dir });
    expect(variable).toContain(
      `[memory ${dir}/memory/memory.db] no memory store exists here (location from ORPHUS_CODING_AGENT_DIR);`,
    );
    const memoryDir = await stats(["--agent-dir", dir], { ORPHUS_MEMORY_DIR: path.join(dir, "elsewhere") });
    expect(memoryDir).toContain(
      `[memory ${dir}/elsewhere/memory.db] no memory store exists here (location from ORPHUS_MEMORY_DIR);`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
