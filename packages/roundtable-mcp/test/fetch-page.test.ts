// roundtable_fetch through the real server (issue 13): the SDK's Client over stdio, a real broker, posts from a native
// client. A default page is small in characters, a first message over the cap comes whole, the result says how to
// read on, and following it to the end loses and repeats nothing.
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createRoundtableClient, type RoundtableClient } from "@orphus/roundtable-client";
import { pagingProperty, type PagingReader } from "../../../test-support/fetch-pages-model.js";
import { connectSdkStdio, endBroker, shortAgentDir } from "./support/stdio.js";

const KB32 = 32 * 1024;

let agent: ReturnType<typeof shortAgentDir>;
let claude: Client;
let planner: RoundtableClient;
let brokerPid: number | undefined;

beforeAll(async () => {
  agent = shortAgentDir();
  claude = (await connectSdkStdio("claude", agent.dir)).client;
  planner = createRoundtableClient({ role: "planner", agentDir: agent.dir });
  brokerPid = (await planner.connect()).brokerPid;
});

afterAll(async () => {
  planner?.close();
  await claude?.close();
  if (agent !== undefined) {
    await endBroker(agent.dir, brokerPid);
    agent.remove();
  }
});

async function fetchText(args: Record<string, unknown>): Promise<string> {
  const result = (await claude.callTool({ name: "roundtable_fetch", arguments: args })) as {
    content: { type: string; text: string }[];
    isError?: boolean;
  };
  expect(result.isError ?? false).toBe(false);
  expect(result.content.map((part) => part.type)).toEqual(["text"]);
  return result.content[0]?.text ?? "";
}

interface Page {
  readonly messages: { seq: number; body: string }[];
  /** The afterSeq the text says reads on, when there is more. */
  readonly next: number | undefined;
}

const MESSAGE = /^\[#(\d+) planner\](?: (.*))?$/;
const READ_ON = /^\(more after #(\d+): fetch again with afterSeq=(\d+); pages hold up to \d+ characters\)$/;

/** Reads a fetch result back: message lines, notes, and where it says to read on (bodies here are one line). */
function parsePage(text: string): Page {
  const messages: Page["messages"] = [];
  let next: number | undefined;
  for (const line of text.split("\n")) {
    const message = MESSAGE.exec(line);
    const readOn = READ_ON.exec(line);
    if (message !== null) messages.push({ seq: Number(message[1]), body: message[2] ?? "" });
    else if (readOn !== null) next = Number(readOn[2]);
    else if (!line.startsWith("(#") && !line.startsWith("No messages to fetch")) {
      throw new Error(`unexpected line: ${line.slice(0, 120)}`);
    }
  }
  return { messages, next };
}

test("with defaults over ten 32 KB messages: at most the cap plus one whole message, and how to read on", async () => {
  await claude.callTool({ name: "roundtable_join", arguments: { room: "big" } });
  await planner.join("big");
  const bodies = Array.from({ length: 10 }, (_, i) => String.fromCharCode(97 + i).repeat(KB32));
  for (const body of bodies) await planner.post("big", body);

  const first = await fetchText({ room: "big" });
  // The whole result: one message of 32,768 characters (over the 8,000 cap, whole as the first of its page), a
  // line saying why, and the afterSeq to read on. Nothing else of the 327,680 characters posted.
  expect(first).toBe(
    `[#1 planner] ${bodies[0]}\n` +
      "(#1 is 32768 characters, over the page's 8000: the first message of a page always comes whole.)\n" +
      "(more after #1: fetch again with afterSeq=1; pages hold up to 8000 characters)",
  );
  const seen = [1];
  let next = parsePage(first).next;
  while (next !== undefined) {
    const page = parsePage(await fetchText({ room: "big", afterSeq: next }));
    expect(page.messages).toHaveLength(1);
    for (const message of page.messages) expect(message.body).toBe(bodies[message.seq - 1]);
    seen.push(...page.messages.map((m) => m.seq));
    next = page.next;
  }
  expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

  // A caller may ask for more: three 32 KB messages fit in 100,000 characters.
  const wide = parsePage(await fetchText({ room: "big", afterSeq: 0, maxChars: 100_000 }));
  expect(wide.messages.map((m) => m.seq)).toEqual([1, 2, 3]);
  expect(wide.next).toBe(3);
  // Past the protocol's ceiling the call is refused before it reaches the broker, naming the argument.
  const refused = (await claude.callTool({
    name: "roundtable_fetch",
    arguments: { room: "big", maxChars: 600_000 },
  })) as {
    content: { text: string }[];
    isError?: boolean;
  };
  expect(refused.isError).toBe(true);
  expect(refused.content[0]?.text).toMatch(/^Invalid roundtable call: fetch: maxChars: Too big/);
});

test("the tool's description states the default page and that a first message comes whole", async () => {
  const { tools } = await claude.listTools();
  const fetch = tools.find((tool) => tool.name === "roundtable_fetch");
  expect(fetch?.description).toContain("8000 characters");
  expect(fetch?.description).toContain("comes whole");
  expect(fetch?.inputSchema.properties).toHaveProperty("maxChars");
});

test("property: following the text to the end loses and repeats nothing, against the naive model", async () => {
  await claude.callTool({ name: "roundtable_join", arguments: { room: "paged" } });
  await planner.join("paged");
  const reader: PagingReader = {
    post: async (body) => (await planner.post("paged", body)).seq,
    readPage: async (afterSeq, caps) => parsePage(await fetchText({ room: "paged", afterSeq, ...caps })),
    // The shared tool asks for 10 messages a page when the call names no limit.
    defaultLimit: 10,
  };
  await fc.assert(pagingProperty(reader), { numRuns: 40 });
});
