// The README's tool count and tool tables against the tools the server registers (tools/list), so the number a host
// shows and the tables a reader trusts cannot drift from the server.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createRoundtableMcpServer } from "@orphus/roundtable-mcp";
import { tableNames } from "../../../test-support/readme-tables.js";
import { FakeToolClient } from "./support/fake-client.js";

const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");

/** The names the server lists in tools/list, in its order. */
async function listedTools(): Promise<string[]> {
  const fake = new FakeToolClient("gemini");
  const server = createRoundtableMcpServer({ role: fake.role, client: fake });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "readme", version: "0.0.0" });
  await client.connect(clientSide);
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

/** The first-column tool names of the README's table that follows `heading`. */
const tableTools = (heading: string): string[] => tableNames(readme, heading);

/** A count as the README may write it: digits, or a word up to twenty. */
function countOf(text: string | undefined): number {
  const words = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
  ];
  words.push("thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty");
  if (text === undefined) throw new Error("README names no tool count for /mcp");
  return /^\d+$/.test(text) ? Number(text) : words.indexOf(text.toLowerCase());
}

test("the README's count of the tools a host shows is the number the server registers", async () => {
  const count = /Run `\/mcp` in Gemini CLI to see the server and its (\w+) tools/.exec(readme)?.[1];
  expect(countOf(count)).toBe((await listedTools()).length);
});

test("the README's two tool tables name every tool the server registers, in its order, and nothing else", async () => {
  expect([...tableTools("## Tools"), ...tableTools("## Memory tools")]).toEqual(await listedTools());
});
