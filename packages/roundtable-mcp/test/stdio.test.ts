// The server as an agent CLI runs it: spawned from source over real stdio, talking to a real broker (started by
// whichever process needs it first) in a short temporary agent directory, next to a native client.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createRoundtableClient, type RoundtableClient } from "@orphus/roundtable-client";
import { MAX_MCP_INPUT_BYTES } from "@orphus/roundtable-mcp";
import {
  RecordingStdioTransport,
  connectSdkStdio,
  packageRoot,
  shortAgentDir,
  endBroker,
  type ServerExit,
} from "./support/stdio.js";

interface ToolText {
  text: string;
  isError: boolean;
}

let agent: ReturnType<typeof shortAgentDir>;
/** "claude": the SDK's Client over the SDK's StdioClientTransport. */
let claude: { client: Client; stderr: () => string };
/** "codex": the SDK's Client over a transport that records every stdout line and the exit status. */
let codex: Client;
let codexTransport: RecordingStdioTransport;
/** "planner": an Orphus-hosted role, through the client library directly. */
let planner: RoundtableClient;
let brokerPid: number | undefined;
const clientErrors: Error[] = [];

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolText> {
  const result = (await client.callTool({ name, arguments: args })) as {
    content: { type: string; text: string }[];
    isError?: boolean;
  };
  expect(result.content.map((part) => part.type)).toEqual(["text"]);
  return { text: result.content[0]?.text ?? "", isError: result.isError === true };
}

beforeAll(async () => {
  agent = shortAgentDir();
  codexTransport = new RecordingStdioTransport(["--as", "codex", "--agent-dir", agent.dir]);
  codex = new Client({ name: "test-codex", version: "0.0.0" });
  codex.onerror = (error) => clientErrors.push(error);
  // Both servers start at once and both try to ensure the broker: the socket settles which one serves.
  [claude] = await Promise.all([connectSdkStdio("claude", agent.dir), codex.connect(codexTransport)]);
  claude.client.onerror = (error) => clientErrors.push(error);
  planner = createRoundtableClient({ role: "planner", agentDir: agent.dir });
  brokerPid = (await planner.connect()).brokerPid;
});

afterAll(async () => {
  planner?.close();
  await claude?.client.close();
  await codex?.close();
  // The broker would idle out five seconds after its last connection; this test started it, so it ends it now,
  // and waits for it to be gone before removing the directory its log lives in.
  if (agent !== undefined) {
    await endBroker(agent.dir, brokerPid);
    agent.remove();
  }
});

test("tools/list over stdio: eight tools, read-only ones marked", async () => {
  const { tools } = await claude.client.listTools();
  expect(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint]).slice(0, 8)).toEqual([
    ["roundtable_join", false],
    ["roundtable_leave", false],
    ["roundtable_post", false],
    ["roundtable_digest", true],
    ["roundtable_fetch", true],
    ["roundtable_rooms", true],
    ["roundtable_members", true],
    ["roundtable_wait", true],
  ]);
  expect(claude.client.getInstructions()).toContain('as "claude"');
});

test("join, post, digest and fetch through one server", async () => {
  const joined = await call(claude.client, "roundtable_join", { room: "solo" });
  expect(joined).toEqual({
    text: 'Joined "solo" as claude (new room). Members: claude. Nothing unread.',
    isError: false,
  });
  expect(await call(claude.client, "roundtable_post", { room: "solo", body: "a note to self" })).toEqual({
    text: 'Posted #1 to "solo".',
    isError: false,
  });
  // Posting while caught up counts as reading your own message.
  expect(await call(claude.client, "roundtable_digest", { room: "solo" })).toEqual({
    text: 'Nothing unread in "solo" (read through #1).',
    isError: false,
  });
  expect(await call(claude.client, "roundtable_fetch", { room: "solo", afterSeq: 0 })).toEqual({
    text: "[#1 claude] a note to self",
    isError: false,
  });
  expect(await call(claude.client, "roundtable_members", { room: "solo" })).toEqual({
    text: 'Members of "solo": claude.',
    isError: false,
  });
});

test("bad input comes back as a clear isError result and the server stays up", async () => {
  const missing = await call(claude.client, "roundtable_post", { room: "solo" });
  expect(missing.isError).toBe(true);
  expect(missing.text).toMatch(/^Invalid roundtable call: post: .*body/);
  const notJoined = await call(claude.client, "roundtable_post", { room: "elsewhere", body: "hello?" });
  expect(notJoined).toEqual({
    text: 'roundtable post: Not a member of room "elsewhere"; join it first',
    isError: true,
  });
  await expect(claude.client.callTool({ name: "no_such_tool" })).rejects.toMatchObject({ code: -32602 });
  const rooms = await call(claude.client, "roundtable_rooms");
  expect(rooms).toEqual({ text: "solo: 1 member, newest #1, joined, 0 unread", isError: false });
});

test("two MCP servers as two roles and a native client share a room and see each other's posts", async () => {
  await call(claude.client, "roundtable_join", { room: "design" });
  await call(codex, "roundtable_join", { room: "design" });
  await planner.join("design");
  expect(await call(codex, "roundtable_members", { room: "design" })).toEqual({
    text: 'Members of "design": claude, codex, planner.',
    isError: false,
  });

  await planner.post("design", "Proposal: one tool per action");
  await call(claude.client, "roundtable_post", { room: "design", body: "Agreed: annotations are per tool" });
  await call(codex, "roundtable_post", { room: "design", body: "Then readOnlyHint can be truthful" });

  const codexDigest = await call(codex, "roundtable_digest", { room: "design" });
  expect(codexDigest.isError).toBe(false);
  expect(codexDigest.text).toContain("planner");
  expect(codexDigest.text).toContain("Proposal: one tool per action");
  expect(codexDigest.text).toContain("claude");
  expect(codexDigest.text).toContain("Agreed: annotations are per tool");
  // codex had unread messages when it posted, so its own post is still above its read position.
  expect(codexDigest.text).toContain("Then readOnlyHint can be truthful");

  const claudeFetch = await call(claude.client, "roundtable_fetch", { room: "design", afterSeq: 0 });
  expect(claudeFetch).toEqual({
    text:
      "[#1 planner] Proposal: one tool per action\n" +
      "[#2 claude] Agreed: annotations are per tool\n" +
      "[#3 codex] Then readOnlyHint can be truthful",
    isError: false,
  });

  const plannerView = await planner.fetch("design", { afterSeq: 1 });
  expect(plannerView.messages.map((message) => [message.author, message.body])).toEqual([
    ["claude", "Agreed: annotations are per tool"],
    ["codex", "Then readOnlyHint can be truthful"],
  ]);
});

test("wait blocks until another role posts, then says where to read", async () => {
  await call(codex, "roundtable_digest", { room: "design" });
  const waiting = call(codex, "roundtable_wait", { room: "design", timeoutSeconds: 60 });
  // Requests on one connection start in order; once a later call has made its broker round trip, the wait has
  // subscribed (and if it has not, it finds the post unread when it looks: the answer is the same).
  await call(codex, "roundtable_rooms");
  await planner.post("design", "Decision: ship it");
  expect(await waiting).toEqual({ text: "design: 1 unread. Digest to read.", isError: false });
  const digest = await call(codex, "roundtable_digest", { room: "design" });
  expect(digest.text).toContain("Decision: ship it");
});

test("a 5 MB request line gets a JSON-RPC error naming the limit, and the server goes on", async () => {
  const body = "x".repeat(5 * 1024 * 1024);
  await expect(codex.callTool({ name: "roundtable_post", arguments: { room: "design", body } })).rejects.toMatchObject({
    code: -32600,
    message: expect.stringContaining(`over this server's limit of ${MAX_MCP_INPUT_BYTES} bytes per message`),
  });
  // A 900 KB body is under the line limit and gets the tool's own clear refusal.
  const large = await call(codex, "roundtable_post", { room: "design", body: "y".repeat(900 * 1024) });
  expect(large.isError).toBe(true);
  expect(large.text).toMatch(
    /^Invalid roundtable call: post: body: Too big: expected string to have <=32768 characters/,
  );
  expect(await call(codex, "roundtable_members", { room: "design" })).toEqual({
    text: 'Members of "design": claude, codex, planner.',
    isError: false,
  });
});

test("arguments that are not an object get -32602; a misspelled argument and an uppercase room are isError results", async () => {
  for (const args of [[1, 2], "design", 3]) {
    await expect(
      codex.callTool({ name: "roundtable_join", arguments: args as unknown as Record<string, unknown> }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("must be a JSON object of named arguments"),
    });
  }
  expect(await call(codex, "roundtable_wait", { room: "design", timeout: 1 })).toEqual({
    text:
      'Invalid roundtable call: wait: unknown argument "timeout" (nearest known: "timeoutSeconds"); ' +
      'wait takes room, timeoutSeconds; got {"room":"design","timeout":1}',
    isError: true,
  });
  expect(await call(codex, "roundtable_join", { room: "Design" })).toEqual({
    text:
      "Invalid roundtable call: join: room: a room name is lower-case letters, digits, '.', '_' or '-', starting " +
      'with a letter or digit (^[a-z0-9][a-z0-9._-]{0,63}$); got {"room":"Design"}',
    isError: true,
  });
});

test("the server's version is its package's", () => {
  const manifest = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { version: string };
  expect(claude.client.getServerVersion()).toMatchObject({ name: "orphus-roundtable", version: manifest.version });
});

test("stdout carried MCP frames only, and every diagnostic went to stderr as one prefixed line", async () => {
  expect(codexTransport.strayLines).toEqual([]);
  expect(codexTransport.frames).toBeGreaterThan(5);
  expect(clientErrors).toEqual([]);
  expect(codexTransport.stderr).toMatch(/^orphus-roundtable-mcp: seated as "codex"; broker pid \d+ \(version /m);
  expect(codexTransport.stderr).toContain(`orphus-roundtable-mcp: agent directory ${agent.dir} (from --agent-dir `);
  expect(claude.stderr()).toContain('orphus-roundtable-mcp: seated as "claude"');
  for (const line of [...codexTransport.stderr.split("\n"), ...claude.stderr().split("\n")].filter(Boolean)) {
    expect(line).toMatch(/^orphus-roundtable-mcp: /);
  }
});

test("the server exits by itself with code 0 when its stdin closes, even with a wait in flight", async () => {
  const waiting = codex.callTool({ name: "roundtable_wait", arguments: { timeoutSeconds: 120 } });
  waiting.catch(() => undefined);
  await call(codex, "roundtable_rooms");
  await codexTransport.close();
  const exit: ServerExit = await codexTransport.exited;
  expect(exit).toEqual({ code: 0, signal: null });
  // The other server and the native client are unaffected.
  await expect
    .poll(async () => (await call(claude.client, "roundtable_members", { room: "design" })).text)
    .toBe('Members of "design": claude, planner.');
});
