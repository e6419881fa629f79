import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { CLI_EXIT, CLI_USAGE, parseCliArguments, runCli, type CliIo } from "../src/cli.js";
import { useAgentDir } from "./support/brokers.js";
import { cliIo, type RecordedCliIo } from "./support/cli-io.js";
import { until } from "./support/tmp.js";

const agent = useAgentDir();

function io(extra: Partial<CliIo> = {}): RecordedCliIo {
  return cliIo(agent, extra);
}

test("arguments are validated before anything connects", async () => {
  expect(parseCliArguments(["tail", "design"])).toEqual({
    agentDir: undefined,
    role: "human",
    action: { command: "tail", room: "design", lines: 10 },
  });
  expect(parseCliArguments(["post", "design", "ship", "it", "--as", "lead"])).toMatchObject({
    role: "lead",
    action: { command: "post", room: "design", text: "ship it" },
  });
  expect(parseCliArguments(["doctor", "--agent-dir", "/a"])).toEqual({ agentDir: "/a", action: { command: "doctor" } });
  const cases: [string[], string][] = [
    [[], "roundtable: no command given"],
    [["dance"], 'roundtable: unknown command "dance" (expected status, rooms, tail, fetch, post or doctor)'],
    [["tail"], "roundtable: <room>: Invalid input: expected string, received undefined"],
    [["post", "design"], "roundtable: <text>: Invalid input: expected string, received undefined"],
    [["status", "extra"], "roundtable: status takes no arguments"],
    [["tail", "design", "--lines", "lots"], "roundtable: --lines: Invalid input: expected number, received NaN"],
    [["rooms", "--as", "no spaces"], "roundtable: --as: a role name is 1 to 64 letters"],
    [["rooms", "--loud"], "roundtable: Unknown option '--loud'"],
    [["doctor", "now"], "roundtable: doctor takes no arguments"],
    [["doctor", "--as", "no spaces"], "roundtable: --as: a role name is 1 to 64 letters"],
  ];
  for (const [argv, message] of cases) {
    const cli = io();
    expect(await runCli(argv, cli)).toBe(CLI_EXIT.usage);
    expect(cli.err().startsWith(message)).toBe(true);
    expect(cli.err()).toContain(CLI_USAGE);
  }
  const help = io();
  expect(await runCli(["--help"], help)).toBe(0);
  expect(help.out()).toBe(CLI_USAGE);
  expect(agent.spawned).toEqual([]);
});

test("read-only commands never start a broker: with none running they say so and exit 3", async () => {
  for (const argv of [["status"], ["rooms"], ["tail", "design"]]) {
    const cli = io();
    expect(await runCli(argv, cli)).toBe(CLI_EXIT.noBroker);
    expect(cli.err()).toBe(
      `roundtable: No roundtable broker is running on ${join(agent.dir(), "roundtable", "broker.sock")}; ` +
        "the first session to use a room starts one\n",
    );
  }
  expect(agent.spawned).toEqual([]);
  expect(readdirSync(agent.dir())).toEqual([]);
});

test("post starts a broker; status, rooms and tail read it; tail follows until interrupted", async () => {
  // The default broker command (from source here), with an idle time long enough for the planner to arrive after
  // the CLI has gone.
  const { brokerCommand: _bundled, ...defaults } = io().clientOptions ?? {};
  const posting = io({ clientOptions: { ...defaults, brokerIdleMs: 5000 } });
  expect(await runCli(["post", "design", "first, from the terminal"], posting)).toBe(0);
  expect(posting.out()).toBe(
    'Posted #1 to "design" as human.\n' +
      "(The room is new and nobody else is in it; a broker keeps rooms only while sessions are connected.)\n",
  );
  expect(agent.spawned).toHaveLength(1);

  const planner = agent.client({ role: "planner" });
  await planner.join("design");
  const again = io();
  expect(await runCli(["post", "design", "a", "word", "from", "the", "terminal"], again)).toBe(0);
  expect(again.out()).toBe('Posted #2 to "design" as human.\n');

  const status = io();
  expect(await runCli(["status"], status)).toBe(0);
  expect(status.out()).toMatch(
    new RegExp(
      "^broker    running, pid \\d+, up \\d+s\\n" +
        "version   0\\.0\\.0 \\(orphus-roundtable v2\\)\\n" +
        `socket    ${join(agent.dir(), "roundtable", "broker.sock").replace(/[.]/g, "\\.")}\\n` +
        "store     memory \\(this broker's process\\)\\n" +
        "sessions  1 connection besides this one\\n" +
        "rooms     1\\n" +
        "  design  1 member  2 messages\\n$",
    ),
  );

  const rooms = io();
  expect(await runCli(["rooms"], rooms)).toBe(0);
  expect(rooms.out()).toBe("design  1 member  2 messages\n");

  const missing = io();
  expect(await runCli(["tail", "nowhere"], missing)).toBe(CLI_EXIT.failed);
  expect(missing.err()).toBe('roundtable: no room "nowhere" on this broker (rooms: design)\n');

  const stop = new AbortController();
  const tail = io({ signal: stop.signal });
  const tailing = runCli(["tail", "design", "--lines", "1", "--as", "watcher"], tail);
  await until(() => tail.out().includes("#2 human: a word from the terminal"));
  expect(tail.out()).not.toContain("first, from the terminal");
  await planner.post("design", "live line one\nlive line two \u001b[2J");
  await until(() => tail.out().includes("#3 planner"));
  stop.abort();
  expect(await tailing).toBe(0);
  expect(tail.out()).toMatch(/^\d\d:\d\d:\d\d #2 human: a word from the terminal\n\d\d:\d\d:\d\d #3 planner: live line one\n {4}live line two \ufffd\[2J\n$/);
  expect(tail.err()).toBe('following "design" as watcher; Ctrl-C to stop\n');
  expect(agent.spawned).toHaveLength(1);
});

test("an agent directory too deep for a socket path is refused before any spawn, naming what set it", async () => {
  const deep = join(agent.dir(), "d".repeat(100));
  const byFlag = io();
  expect(await runCli(["post", "design", "hi", "--agent-dir", deep], byFlag)).toBe(CLI_EXIT.failed);
  expect(byFlag.err()).toMatch(/^roundtable: Broker socket path is \d+ bytes; .*\. Pass a shorter --agent-dir\.\n$/);
  const byVariable = io({ env: { ORPHUS_CODING_AGENT_DIR: deep } });
  expect(await runCli(["post", "design", "hi"], byVariable)).toBe(CLI_EXIT.failed);
  expect(byVariable.err()).toMatch(/\. Set ORPHUS_CODING_AGENT_DIR to a shorter directory\.\n$/);
  expect(agent.spawned).toEqual([]);
});
