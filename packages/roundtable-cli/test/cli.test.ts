import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { expect, test } from "vitest";
import { startBroker } from "@orphus/roundtable-broker";
import { REGISTRY_DIR_ENV } from "@orphus/roundtable-locator";
import { CLI_EXIT, CLI_USAGE, parseCliArguments, runCli, type CliIo } from "@orphus/roundtable-cli";
import { useAgentDir } from "../../../test-support/brokers.js";
import { cliIo, type RecordedCliIo } from "./support/cli-io.js";
import { until } from "../../../test-support/poll.js";
import { binCommand } from "../../../test-support/target.js";

const agent = useAgentDir();

/** A frame as the wire carries it: a 4-byte big-endian length, then the JSON. */
function frame(value: unknown): Buffer {
  const payload = Buffer.from(JSON.stringify(value));
  const header = Buffer.alloc(4);
  header.writeUInt32BE(payload.length);
  return Buffer.concat([header, payload]);
}

/** Pids of running processes whose command line names `agentDir` (a broker is started with --agent-dir); [] without /proc. */
function brokerProcessesFor(agentDir: string): number[] {
  if (!existsSync("/proc/self/cmdline")) return [];
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(agentDir);
      } catch {
        return false;
      }
    })
    .map(Number);
}

function io(extra: Partial<CliIo> = {}): RecordedCliIo {
  return cliIo(agent, extra);
}

test("arguments are validated before anything connects", () => {
  expect(parseCliArguments(["tail", "design"])).toEqual({
    agentDir: undefined,
    role: "human",
    action: { command: "tail", room: "design", lines: 10 },
  });
  expect(parseCliArguments(["post", "design", "ship", "it", "--as", "lead"])).toMatchObject({
    role: "lead",
    action: { command: "post", room: "design", text: "ship it" },
  });
  expect(parseCliArguments(["doctor", "--agent-dir", "/a"])).toEqual({
    agentDir: "/a",
    role: undefined,
    action: { command: "doctor" },
  });
  expect(parseCliArguments(["rooms", "--help"])).toBe("help");
  expect(parseCliArguments(["--version"])).toBe("version");
});

/** Each usage error: the argv, and the one line that says what is wrong (after "roundtable: "). */
const USAGE_ERRORS: readonly (readonly [readonly string[], string])[] = [
  [[], "no command given (one of status, rooms, tail, fetch, post, view, doctor)"],
  [["dance"], 'unknown command "dance" (one of status, rooms, tail, fetch, post, view, doctor)'],
  [["tail"], "tail needs a room: roundtable tail <room>"],
  [["post"], "post needs a room: roundtable post <room> <text>"],
  [["post", "design"], "post needs a text after the room: roundtable post <room> <text>"],
  [["post", "design", ""], "the text to post is empty"],
  [["status", "extra"], 'status takes no arguments; got "extra"'],
  [["tail", "a", "b"], 'tail takes one argument, the room; got 2: "a" "b"'],
  [
    ["post", "Bad Room", "hi"],
    "\"Bad\\u{20}Room\" is not a room name: a room name is lower-case letters, digits, '.', '_' or '-', starting " +
      "with a letter or digit (^[a-z0-9][a-z0-9._-]{0,63}$)",
  ],
  [
    ["tail", "r".repeat(65)],
    `"${"r".repeat(63)}…" (65 characters) is not a room name: a room name is at most 64 characters`,
  ],
  [["tail", "design", "--lines", "lots"], '--lines takes a whole number from 0 to 200; got "lots"'],
  [["tail", "design", "--lines", "201"], '--lines takes a whole number from 0 to 200; got "201"'],
  [["tail", "design", "--lines", "2.5"], '--lines takes a whole number from 0 to 200; got "2.5"'],
  [
    ["rooms", "--as", "no spaces"],
    "--as \"no\\u{20}spaces\" is not a role name: a role name is 1 to 64 letters, digits, '.', '_' or '-', starting " +
      "with a letter or digit",
  ],
  [["rooms", "--loud"], "unknown option --loud"],
  [["rooms", "--as"], "--as needs a value"],
  [["rooms", "--help=yes"], "--help takes no value"],
  [["rooms", "--lines", "3"], "--lines does not apply to rooms (it is for tail)"],
  [["post", "design", "hi", "--limit", "3"], "--limit does not apply to post (it is for fetch)"],
  [["rooms", "--agent-dir", ""], "--agent-dir needs a directory"],
  [["doctor", "now"], 'doctor takes no arguments; got "now"'],
  [["view", "now"], 'view takes no arguments; got "now"'],
  [["view", "--port", "65536"], '--port takes a whole number from 0 to 65535; got "65536"'],
  [["view", "--port", "-1"], "--port needs a value"],
  [["view", "--open=yes"], "--open takes no value"],
  [["rooms", "--open"], "--open does not apply to rooms (it is for view)"],
  [
    ["view", "--as", "critic"],
    "--as does not apply to view (it is for status and rooms and tail and fetch and post and doctor)",
  ],
  [
    ["view", "--post-as", "no spaces"],
    "--post-as \"no\\u{20}spaces\" is not a role name: a role name is 1 to 64 letters, digits, '.', '_' or '-', " +
      "starting with a letter or digit",
  ],
  [
    ["doctor", "--as", "no spaces"],
    "--as \"no\\u{20}spaces\" is not a role name: a role name is 1 to 64 letters, digits, '.', '_' or '-', starting " +
      "with a letter or digit",
  ],
];

test("a usage error is one line in a person's words, then where the usage is; exit 2, nothing started", async () => {
  for (const [argv, message] of USAGE_ERRORS) {
    const cli = io();
    expect({ argv, code: await runCli(argv, cli) }).toEqual({ argv, code: CLI_EXIT.usage });
    expect({ argv, err: cli.err() }).toEqual({
      argv,
      err: `roundtable: ${message}\n(roundtable --help shows the usage)\n`,
    });
    expect(cli.out()).toBe("");
  }
  expect(agent.spawned).toEqual([]);
  expect(readdirSync(agent.dir())).toEqual([]);
});

test("--help prints the usage with the room and role rules; --version the package's version; both exit 0", async () => {
  const help = io();
  expect(await runCli(["--help"], help)).toBe(0);
  expect(help.out()).toBe(CLI_USAGE);
  expect(CLI_USAGE).toContain(
    "  <room>    1 to 64 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit\n" +
      "            (design, release-1.2); post creates the room, the other commands read only rooms that exist\n" +
      "  <role>    1 to 64 letters (either case), digits, '.', '_' or '-', starting with a letter or digit\n",
  );
  expect(CLI_USAGE).toContain("  <text>    at most 32768 bytes in UTF-8");
  const version = io();
  expect(await runCli(["--version"], version)).toBe(0);
  expect(version.out()).toBe(
    `${JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")).version}\n`,
  );
  expect(version.out()).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
  expect(agent.spawned).toEqual([]);
});

test("one limit, one exit code, one wording: 40,000 ASCII characters and 20,000 'é' are both 40,000 bytes", async () => {
  const outcomes = [];
  for (const text of ["a".repeat(40_000), "é".repeat(20_000)]) {
    const cli = io();
    outcomes.push({ code: await runCli(["post", "design", text], cli), err: cli.err() });
  }
  const expected = {
    code: CLI_EXIT.usage,
    err:
      'roundtable: Message body for room "design" is 40000 UTF-8 bytes; the maximum is 32768 bytes\n' +
      "(roundtable --help shows the usage)\n",
  };
  expect(outcomes).toEqual([expected, expected]);
  // At the limit exactly, both pass the check (16,384 'é' are 32,768 bytes).
  expect(parseCliArguments(["post", "design", "a".repeat(32_768)])).toMatchObject({ action: { command: "post" } });
  expect(parseCliArguments(["post", "design", "é".repeat(16_384)])).toMatchObject({ action: { command: "post" } });
  const headline = io();
  expect(await runCli(["post", "design", "hi", "--headline", "é".repeat(200)], headline)).toBe(CLI_EXIT.usage);
  expect(headline.err()).toBe(
    'roundtable: Message headline for room "design" is 400 UTF-8 bytes; the maximum is 256 bytes\n' +
      "(roundtable --help shows the usage)\n",
  );
  expect(agent.spawned).toEqual([]);
});

test("a broker with a smaller body limit refuses in the same words, and the CLI exits 2 for it too", async () => {
  const started = await startBroker({ agentDir: agent.dir(), maxBodyBytes: 1000, idleMs: 60_000 });
  if (started.status !== "listening") throw new Error("expected a listening broker");
  try {
    const cli = io();
    expect(await runCli(["post", "design", "é".repeat(1000)], cli)).toBe(CLI_EXIT.usage);
    expect(cli.err()).toBe(
      'roundtable: Message body for room "design" is 2000 UTF-8 bytes; the maximum is 1000 bytes\n' +
        "(roundtable --help shows the usage)\n",
    );
  } finally {
    await started.broker.close();
  }
});

test("the bin: a bad room exits 2 with one line and starts no broker", () => {
  const registry = join(agent.dir(), "registry");
  const env = { ...process.env, ORPHUS_CODING_AGENT_DIR: join(agent.dir(), "agent"), [REGISTRY_DIR_ENV]: registry };
  const run = (args: readonly string[]) =>
    spawnSync(process.execPath, binCommand("roundtable-cli", "roundtable", args).args, { env, encoding: "utf8" });
  const bad = run(["post", "Bad Room", "hi"]);
  expect({ status: bad.status, stdout: bad.stdout }).toEqual({ status: 2, stdout: "" });
  expect(bad.stderr.split("\n")).toEqual([
    expect.stringMatching(/^roundtable: "Bad\\u\{20\}Room" is not a room name: /),
    "(roundtable --help shows the usage)",
    "",
  ]);
  // No broker: nothing was made in the agent directory, nothing registered, and no process of this user serves it.
  expect(existsSync(join(agent.dir(), "agent"))).toBe(false);
  expect(existsSync(registry)).toBe(false);
  expect(brokerProcessesFor(join(agent.dir(), "agent"))).toEqual([]);
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
        "version   0\\.0\\.0 \\(orphus-roundtable v3\\)\\n" +
        `socket    ${join(agent.dir(), "roundtable", "broker.sock").replace(/[.]/g, "\\.")}\\n` +
        "store     memory \\(this broker's process\\)\\n" +
        "text      0\\.0 MiB held of a 128\\.0 MiB budget \\(ORPHUS_ROUNDTABLE_MAX_HELD_BYTES\\); " +
        "0 messages evicted to stay under it\\n" +
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
  // Two posts in one write reach tail's connection in one turn of the broker: one merged posts event, followed too.
  const critic = connect(join(agent.dir(), "roundtable", "broker.sock"));
  critic.on("error", () => undefined);
  critic.write(
    Buffer.concat(
      [
        { id: 1, op: "hello", protocol: "orphus-roundtable", version: 2, role: "critic", pid: process.pid },
        { id: 2, op: "join", room: "design" },
        { id: 3, op: "post", room: "design", body: "merged one" },
        { id: 4, op: "post", room: "design", body: "merged two" },
      ].map(frame),
    ),
  );
  await until(() => tail.out().includes("#5 critic"));
  critic.destroy();
  stop.abort();
  expect(await tailing).toBe(0);
  expect(tail.out()).toMatch(
    /^\d\d:\d\d:\d\d #2 human: a word from the terminal\n\d\d:\d\d:\d\d #3 planner: live line one\n {4}live line two \n/,
  );
  expect(tail.out()).toMatch(/\n\d\d:\d\d:\d\d #4 critic: merged one\n\d\d:\d\d:\d\d #5 critic: merged two\n$/);
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
