// `roundtable fetch` (issue 13): a page small in characters by default, a first message over the cap still whole,
// the way to read on printed, and paging to the end losing and repeating nothing, against a real broker.
import fc from "fast-check";
import { expect, test } from "vitest";
import { pagingProperty, type PagingReader } from "../../../test-support/fetch-pages-model.js";
import { CLI_EXIT, parseCliArguments, runCli } from "@orphus/roundtable-cli";
import { useAgentDir } from "../../../test-support/brokers.js";
import { cliIo } from "./support/cli-io.js";

const agent = useAgentDir();
const KB32 = 32 * 1024;

/** One CLI fetch: its exit code and stdout, which must be all it wrote. */
async function fetchCli(argv: readonly string[]): Promise<string> {
  const io = cliIo(agent);
  expect(await runCli(["fetch", ...argv], io)).toBe(CLI_EXIT.ok);
  expect(io.err()).toBe("");
  return io.out();
}

interface Printed {
  readonly messages: { seq: number; author: string; body: string }[];
  /** The `--after` of the printed way to read on, when there is more. */
  readonly next: string[] | undefined;
}

const MESSAGE = /^\d\d:\d\d:\d\d #(\d+) ([^:]+): (.*)$/;
const READ_ON = /^\(more after #(\d+): roundtable fetch (\S+) (.*); pages hold up to (\d+) characters\)$/;

/** Reads the CLI's page back: message lines, notes, and the command it says reads on (bodies here are one line). */
function parsePage(out: string): Printed {
  const messages: Printed["messages"] = [];
  let next: string[] | undefined;
  for (const line of out.replace(/\n$/, "").split("\n")) {
    const message = MESSAGE.exec(line);
    const readOn = READ_ON.exec(line);
    if (message !== null) messages.push({ seq: Number(message[1]), author: message[2] ?? "", body: message[3] ?? "" });
    else if (readOn !== null) next = [readOn[2] ?? "", ...(readOn[3] ?? "").split(" ")];
    else if (!line.startsWith("(#") && !line.startsWith("No messages to fetch")) {
      throw new Error(`unexpected line: ${line.slice(0, 120)}`);
    }
  }
  return { messages, next };
}

test("fetch takes a room and --after, --limit and --max-chars, checked before anything connects", async () => {
  expect(parseCliArguments(["fetch", "design"])).toEqual({
    agentDir: undefined,
    role: "human",
    action: { command: "fetch", room: "design" },
  });
  expect(parseCliArguments(["fetch", "design", "--after", "4", "--limit", "3", "--max-chars", "20000"])).toMatchObject({
    action: { command: "fetch", room: "design", afterSeq: 4, limit: 3, maxChars: 20_000 },
  });
  const cases: [string[], string][] = [
    [["fetch"], "roundtable: fetch needs a room: roundtable fetch <room>"],
    [["fetch", "a", "b"], 'roundtable: fetch takes one argument, the room; got 2: "a" "b"'],
    [["fetch", "a", "--max-chars", "0"], 'roundtable: --max-chars takes a whole number from 1 to 524288; got "0"'],
    [
      ["fetch", "a", "--max-chars", "524289"],
      'roundtable: --max-chars takes a whole number from 1 to 524288; got "524289"',
    ],
    [["fetch", "a", "--limit", "201"], 'roundtable: --limit takes a whole number from 1 to 200; got "201"'],
    [["fetch", "a", "--after=-1"], 'roundtable: --after takes a whole number from 0 up; got "-1"'],
    [["fetch", "a", "--after", "next"], 'roundtable: --after takes a whole number from 0 up; got "next"'],
  ];
  for (const [argv, message] of cases) {
    const io = cliIo(agent);
    expect(await runCli(argv, io)).toBe(CLI_EXIT.usage);
    expect(io.err()).toBe(`${message}\n(roundtable --help shows the usage)\n`);
  }
  // Like tail, fetch never starts a broker: with none running it says so.
  const none = cliIo(agent);
  expect(await runCli(["fetch", "design"], none)).toBe(CLI_EXIT.noBroker);
  expect(agent.spawned).toEqual([]);
});

test("with defaults over ten 32 KB messages: one whole message a page, and the command that reads on", async () => {
  const planner = agent.client({ role: "planner" });
  await planner.join("design");
  const bodies = Array.from({ length: 10 }, (_, i) => String.fromCharCode(97 + i).repeat(KB32));
  for (const body of bodies) await planner.post("design", body);

  const first = await fetchCli(["design"]);
  // At most the stated cap plus one whole message: here the one message, over the cap and whole.
  expect(first).toMatch(
    new RegExp(
      `^\\d\\d:\\d\\d:\\d\\d #1 planner: a{${KB32}}\\n` +
        "\\(#1 is 32768 characters, over the page's 8000: the first message of a page always comes whole\\.\\)\\n" +
        "\\(more after #1: roundtable fetch design --after 1; pages hold up to 8000 characters\\)\\n$",
    ),
  );
  const seen = [1];
  let next = parsePage(first).next;
  while (next !== undefined) {
    const page = parsePage(await fetchCli(next));
    expect(page.messages).toHaveLength(1);
    for (const message of page.messages) expect(message.body).toBe(bodies[message.seq - 1]);
    seen.push(...page.messages.map((m) => m.seq));
    next = page.next;
  }
  expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

  // A larger cap, up to the broker's reply limit: three of them fit in 100,000 characters.
  const wide = parsePage(await fetchCli(["design", "--after", "0", "--max-chars", "100000"]));
  expect(wide.messages.map((m) => m.seq)).toEqual([1, 2, 3]);
  expect(wide.next).toEqual(["design", "--after", "3", "--max-chars", "100000"]);

  const missing = cliIo(agent);
  expect(await runCli(["fetch", "nowhere"], missing)).toBe(CLI_EXIT.failed);
  expect(missing.err()).toBe('roundtable: no room "nowhere" on this broker (rooms: design)\n');
});

test("property: following the printed command to the end loses and repeats nothing, against the naive model", async () => {
  const planner = agent.client({ role: "planner" });
  await planner.join("paged");
  const reader: PagingReader = {
    post: async (body) => (await planner.post("paged", body)).seq,
    readPage: async (afterSeq, { limit, maxChars }) => {
      const options = [
        ...(limit === undefined ? [] : ["--limit", String(limit)]),
        ...(maxChars === undefined ? [] : ["--max-chars", String(maxChars)]),
      ];
      const page = parsePage(await fetchCli(["paged", "--after", String(afterSeq), ...options]));
      // The printed command carries the options it was given, and reads on from the page's last message.
      if (page.next !== undefined) {
        expect(page.next).toEqual(["paged", "--after", String(page.messages.at(-1)?.seq), ...options]);
      }
      return { messages: page.messages, next: page.next === undefined ? undefined : Number(page.next[2]) };
    },
    defaultLimit: 20,
  };
  await fc.assert(pagingProperty(reader), { numRuns: 40 });
});
