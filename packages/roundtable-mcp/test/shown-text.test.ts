// Every text the MCP server gives a host passes the one sanitiser (@orphus/digest, through the shared tool) and is
// bounded: tool results and errors, JSON-RPC error messages that echo a host's input, and the stderr lines a host
// logs, which stay one line each whatever an echoed value holds.
import { expect, test } from "vitest";
import { HOSTILE_BODY, HOSTILE_BODY_LINES, HOSTILE_NAMES, expectShowable } from "../../../test-support/hostile-text.js";
import { FakeToolClient } from "./support/fake-client.js";
import { harness } from "./support/harness.js";

const PREFIX = "orphus-roundtable-mcp: ";
const [planner, critic, , , , , red] = HOSTILE_NAMES.map(([name]) => name) as string[];

/** Every stderr line is one prefixed line of at most 1000 characters after the prefix, with nothing unsafe in it. */
function expectStderrLines(stderr: string): string[] {
  expect(stderr.endsWith("\n")).toBe(true);
  const lines = stderr.slice(0, -1).split("\n");
  for (const line of lines) {
    expect(line.startsWith(PREFIX) || line === "(orphus-roundtable-mcp --help shows the usage)").toBe(true);
    expect(line.length).toBeLessThanOrEqual(PREFIX.length + 1000);
    expectShowable(line);
  }
  return lines;
}

function resultText(reply: Record<string, unknown>): { text: string; isError: boolean } {
  const result = reply["result"] as { content: { text: string }[]; isError: boolean };
  return { text: result.content[0]?.text ?? "", isError: result.isError };
}

test("tool results: bodies stripped, authors and members escaped", async () => {
  const fake = new FakeToolClient("codex");
  const run = harness(["--as", "codex", "--agent-dir", "/tmp/fleet"], {}, fake);
  await run.initialize();
  await run.request(1, "tools/call", { name: "roundtable_join", arguments: { room: "design" } });
  fake.seat("design", planner as string);
  fake.seat("design", critic as string);
  fake.inject("design", planner as string, HOSTILE_BODY);
  fake.inject("design", red as string, "ok");
  const fetched = resultText(
    await run.request(2, "tools/call", { name: "roundtable_fetch", arguments: { room: "design" } }),
  );
  expect(fetched).toEqual({
    text: `[#1 plan\\u{200B}ner] ${HOSTILE_BODY_LINES.join("\n  ")}\n[#2 red\\u{1B}\\u{5B}31m] ok`,
    isError: false,
  });
  const members = resultText(
    await run.request(3, "tools/call", { name: "roundtable_members", arguments: { room: "design" } }),
  );
  expect(members.text).toBe('Members of "design": codex, crit\\u{202E}ic, plan\\u{200B}ner.');
  // The fake renders digests without the digest package, as a careless broker would: the tool sanitises the body
  // still. (Names inside a digest are the broker's to escape: the real one renders them with escapeIdentity.)
  fake.inject("design", "planner", HOSTILE_BODY);
  const digest = resultText(
    await run.request(4, "tools/call", { name: "roundtable_digest", arguments: { room: "design" } }),
  );
  expect(digest.text).toBe(`[#3 planner] ${HOSTILE_BODY_LINES.join("\n")}`);
  for (const { text } of [fetched, members, digest]) expectShowable(text);
  run.stdin.end();
  expect(await run.exit).toBe(0);
});

test("tool errors: sanitised and cut to 2500 characters", async () => {
  const fake = new FakeToolClient("codex");
  fake.rooms = async () => {
    throw new Error(`${HOSTILE_BODY}${"z".repeat(20_000)}`);
  };
  const run = harness(["--as", "codex", "--agent-dir", "/tmp/fleet"], {}, fake);
  await run.initialize();
  const failed = resultText(await run.request(1, "tools/call", { name: "roundtable_rooms", arguments: {} }));
  expect(failed.isError).toBe(true);
  expect(failed.text.length).toBeLessThanOrEqual(2500);
  expect(failed.text.startsWith(`roundtable rooms failed: ${HOSTILE_BODY_LINES.join("\n")}zz`)).toBe(true);
  expect(failed.text).toMatch(/z… \(\d+ more characters\)$/);
  expectShowable(failed.text);
  const badArgument = resultText(
    await run.request(2, "tools/call", { name: "roundtable_digest", arguments: { room: "design", "bud\u200bget": 1 } }),
  );
  expect(badArgument.text).toContain('unknown argument "bud\\u{200B}get" (nearest known: "budget")');
  run.stdin.end();
  expect(await run.exit).toBe(0);
});

test("JSON-RPC errors that echo a host's input: names escaped, cut to 1000 characters", async () => {
  const run = harness(["--as", "codex", "--agent-dir", "/tmp/fleet"]);
  await run.initialize();
  const tool = await run.request(1, "tools/call", {
    name: `plan\u200bner\u001b[31m${"\u202e".repeat(500)}`,
    arguments: {},
  });
  const toolError = (tool["error"] as { message: string }).message;
  expect(toolError).toContain('Unknown tool "plan\\u{200B}ner\\u{1B}\\u{5B}31m\\u{202E}');
  expect(toolError.length).toBeLessThanOrEqual(1000);
  const method = await run.request(2, `x\u202e${"\u001b[2J".repeat(300)}`, {});
  const methodError = (method["error"] as { message: string }).message;
  expect(methodError).toContain('Method not found: "x\\u{202E}\\u{1B}\\u{5B}2J');
  // The SDK's own refusals pass the same sanitiser on their way out: an initialize whose params it cannot read.
  const sdk = await run.request(3, "initialize", {
    protocolVersion: `\u001b]0;${"\u200b".repeat(5000)}`,
    capabilities: 7,
  });
  for (const reply of [tool, method, sdk]) {
    const { message } = reply["error"] as { message: string };
    expect(message.length).toBeLessThanOrEqual(1000);
    expectShowable(message);
  }
  run.stdin.end();
  expect(await run.exit).toBe(0);
});

test("stderr lines: an agent directory, a broker version, a loss reason and a host's bad line stay one line each", async () => {
  const fake = new FakeToolClient("codex");
  fake.brokerVersion = "1.0\u001b[31m\nforged line";
  const dir = "/tmp/fle\u200bet\n\u001b[2Jorphus-roundtable-mcp: forged";
  const run = harness(["--as", "codex", "--agent-dir", dir], {}, fake);
  await run.initialize();
  await expect.poll(() => run.err()).toContain("seated as");
  fake.loseConnection(`gone\r\n\u001b]0;title\u0007${"\u202e".repeat(3000)}${"x".repeat(3000)}`);
  run.stdin.write(`not json \u001b[31m\u2028 ${"\u200b".repeat(10)}\n`);
  await expect.poll(() => run.err()).toContain("bad input from the host");
  run.stdin.end();
  expect(await run.exit).toBe(0);
  const lines = expectStderrLines(run.err());
  expect(lines[0]).toBe(
    `${PREFIX}agent directory /tmp/fle\\u{200B}et\\u{A}\\u{1B}[2Jorphus-roundtable-mcp: forged ` +
      '(from --agent-dir "/tmp/fle\\u{200B}et\\u{A}\\u{1B}[2Jorphus-roundtable-mcp: forged")',
  );
  expect(lines[1]).toBe(
    `${PREFIX}seated as "codex"; broker pid 4242 (version 1.0\\u{1B}\\u{5B}31m\\u{A}forged\\u{20}line)`,
  );
  expect(lines[2]).toMatch(/^orphus-roundtable-mcp: broker lost \(gone \| x+… \(\d+ more characters\)$/);
  expect(lines.some((line) => line.startsWith(`${PREFIX}bad input from the host: `))).toBe(true);
});

test("a usage error echoing --as is one line with the name escaped", async () => {
  const run = harness(["--as", "plan\u200bner\n\u001b[31mforged"]);
  expect(await run.exit).toBe(2);
  expect(expectStderrLines(run.err())).toEqual([
    `${PREFIX}--as "plan\\u{200B}ner\\u{A}\\u{1B}\\u{5B}31mforged" is not a role name: use 1 to 64 letters, digits, ` +
      "'.', '_' or '-', starting with a letter or digit",
    "(orphus-roundtable-mcp --help shows the usage)",
  ]);
});
