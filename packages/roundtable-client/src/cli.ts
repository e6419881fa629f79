import { parseArgs } from "node:util";
import { z } from "zod";
import {
  DEFAULT_FETCH_CHARS,
  DEFAULT_FETCH_LIMIT,
  MAX_FETCH_CHARS,
  MAX_FETCH_LIMIT,
  WireRefusalError,
  roleNameSchema,
  roomNameSchema,
  type FetchedMessage,
} from "@orphus/roundtable-protocol";
import type { RoundtableClient } from "./client.js";
import { createRoundtableClient, locateBroker, type CreateRoundtableClientOptions } from "./create.js";
import { doctorExitCode, renderDoctorReport, runDoctor, type DoctorOptions } from "./doctor/run.js";
import { BrokerNotRunningError, CliUsageError, ConnectionLostError, RoundtableClientError } from "./errors.js";
import { renderFetchPage } from "./fetch-text.js";
import { TOOL_MAX_POST_CHARS } from "./limits.js";
import { plural, safeLine, safeText } from "./text.js";

/** Exit codes of the `roundtable` CLI. */
export const CLI_EXIT = {
  /** Done. */
  ok: 0,
  /** The broker refused, the connection was lost, or the request failed. */
  failed: 1,
  /** The arguments are wrong; usage was printed. */
  usage: 2,
  /** No broker is running, and the command does not start one. */
  noBroker: 3,
} as const;

/** The role the CLI speaks as when `--as` is not given: the person at the terminal. */
export const CLI_DEFAULT_ROLE = "human";

/** Messages `tail` prints before following, when `--lines` is not given. */
export const CLI_DEFAULT_TAIL_LINES = 10;

/** Where the CLI writes, what it reads, and what stops `tail`; injected so tests run it in-process. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env?: NodeJS.ProcessEnv;
  /** Aborting ends `tail` with exit code 0 (the bin wires SIGINT and SIGTERM to it). */
  readonly signal?: AbortSignal;
  /** Passed to the client (tests use it to shorten timeouts or count spawns). */
  readonly clientOptions?: CreateRoundtableClientOptions;
  /** Passed to the doctor (tests use it to point at a registry or shorten timeouts). */
  readonly doctorOptions?: DoctorOptions;
}

export const CLI_USAGE = `Usage: roundtable <command> [options]

Watch and poke the roundtable broker of an agent directory.

Commands:
  status               the broker: socket, pid, uptime, version, rooms with members and messages
  rooms                the rooms, one per line
  tail <room>          print the last messages of a room, then follow new ones until Ctrl-C
  fetch <room>         print one page of a room's messages in full, and how to read on
  post <room> <text>   post a message (starts a broker when none is running)
  doctor               find what silently goes wrong (split fleet, stale socket, permissions, protocol version,
                       role names that do not survive a restart) and say what to do

Options:
  --agent-dir <dir>    agent directory (default: $ORPHUS_CODING_AGENT_DIR, else ~/.orphus/agent)
  --as <role>          role to speak as (default: ${CLI_DEFAULT_ROLE}); doctor: the role sessions here use
                       (default: $ORPHUS_ROUNDTABLE_ROLE)
  --lines <n>          tail: messages to show before following (default: ${CLI_DEFAULT_TAIL_LINES})
  --after <seq>        fetch: messages numbered above this (default: the role's read position)
  --limit <n>          fetch: most messages on the page (default: ${DEFAULT_FETCH_LIMIT}, at most ${MAX_FETCH_LIMIT})
  --max-chars <n>      fetch: most characters of message text on the page (default: ${DEFAULT_FETCH_CHARS}, at most
                       ${MAX_FETCH_CHARS}); a longer message still comes whole when it is the first of its page
  --headline <text>    post: one-line summary a digest falls back to
  -h, --help           this help

status, rooms, tail, fetch and doctor never start a broker. Exit codes: 0 done (doctor: all well), 1 failed (doctor: a
problem found), 2 bad arguments, 3 no broker running.
`;

const lines = z.coerce.number().int().min(0).max(200);
const count = (min: number, max: number) => z.coerce.number().int().min(min).max(max).optional();

const commandSchemas = {
  status: z.object({ command: z.literal("status") }),
  rooms: z.object({ command: z.literal("rooms") }),
  tail: z.object({ command: z.literal("tail"), room: roomNameSchema, lines }),
  fetch: z.object({
    command: z.literal("fetch"),
    room: roomNameSchema,
    afterSeq: count(0, Number.MAX_SAFE_INTEGER),
    limit: count(1, MAX_FETCH_LIMIT),
    maxChars: count(1, MAX_FETCH_CHARS),
  }),
  post: z.object({
    command: z.literal("post"),
    room: roomNameSchema,
    text: z.string().min(1, { error: "the text is empty" }).max(TOOL_MAX_POST_CHARS),
    headline: z.string().max(200).optional(),
  }),
};

const argumentsSchema = z.object({
  agentDir: z.string().min(1).optional(),
  role: roleNameSchema,
  action: z.discriminatedUnion("command", [
    commandSchemas.status,
    commandSchemas.rooms,
    commandSchemas.tail,
    commandSchemas.fetch,
    commandSchemas.post,
  ]),
});

const doctorSchema = z.object({
  agentDir: z.string().min(1).optional(),
  role: roleNameSchema.optional(),
  action: z.object({ command: z.literal("doctor") }),
});

/** Arguments of the commands that talk to the broker as a client. */
type ClientCommandArguments = z.infer<typeof argumentsSchema>;

/** Parsed and validated CLI arguments. */
export type CliArguments = ClientCommandArguments | z.infer<typeof doctorSchema>;

/** The command-line spelling of each validated field that comes from an option. */
const OPTION_NAMES: Readonly<Record<string, string>> = {
  role: "--as",
  lines: "--lines",
  afterSeq: "--after",
  limit: "--limit",
  maxChars: "--max-chars",
};

/** Parses argv (without node and the script); returns "help" for --help, throws CliUsageError for anything wrong. */
export function parseCliArguments(argv: readonly string[]): CliArguments | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: "boolean", short: "h" },
        "agent-dir": { type: "string" },
        as: { type: "string" },
        lines: { type: "string" },
        after: { type: "string" },
        limit: { type: "string" },
        "max-chars": { type: "string" },
        headline: { type: "string" },
      },
    });
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  const { values, positionals } = parsed;
  if (values.help === true) return "help";
  const [command, room, ...rest] = positionals;
  if (command === undefined) throw new CliUsageError("no command given");
  const expectsArgs: Record<string, number> = { status: 0, rooms: 0, tail: 1, fetch: 1, doctor: 0 };
  const expected = expectsArgs[command];
  if (expected !== undefined && positionals.length - 1 > expected) {
    throw new CliUsageError(`${command} takes ${expected === 0 ? "no arguments" : "one argument, the room"}`);
  }
  if (command === "doctor") {
    const doctor = doctorSchema.safeParse({ agentDir: values["agent-dir"], role: values.as, action: { command } });
    if (!doctor.success) throw new CliUsageError(`--as: ${doctor.error.issues[0]?.message ?? "invalid"}`);
    return doctor.data;
  }
  const input = {
    agentDir: values["agent-dir"],
    role: values.as ?? CLI_DEFAULT_ROLE,
    action: {
      command,
      room,
      lines: values.lines ?? String(CLI_DEFAULT_TAIL_LINES),
      afterSeq: values.after,
      limit: values.limit,
      maxChars: values["max-chars"],
      text: rest.length === 0 ? undefined : rest.join(" "),
      headline: values.headline,
    },
  };
  const result = argumentsSchema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.filter((p) => p !== "action").join(".") ?? "";
    const what =
      where === "command" || where === ""
        ? `unknown command ${JSON.stringify(command)} (expected status, rooms, tail, fetch, post or doctor)`
        : `${OPTION_NAMES[where] ?? `<${where}>`}: ${issue?.message ?? "invalid"}`;
    throw new CliUsageError(what, { cause: result.error });
  }
  return result.data;
}

function formatDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  const hours = Math.floor(minutes / 60);
  return `${hours}h ${minutes % 60}m`;
}

function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  ")).join("\n");
}

async function roomsTable(client: RoundtableClient): Promise<string> {
  const { rooms } = await client.rooms();
  if (rooms.length === 0) return "  (no rooms)";
  return table(rooms.map((r) => ["  " + safeLine(r.room), plural(r.members, "member"), plural(r.newestSeq, "message")]));
}

/** Where the broker keeps its rooms, as its status says (masked by the broker), and whether the store answers. */
function storeLine(store: string, available: boolean): string {
  const where = store === "memory" ? "memory (this broker's process)" : `${safeLine(store)} (shared by the brokers on it)`;
  return available ? where : `${where}; unavailable: requests fail until it answers`;
}

async function status(client: RoundtableClient, io: CliIo, socketPath: string): Promise<void> {
  const s = await client.status();
  const rows = [
    ["broker", `running, pid ${s.pid}, up ${formatDuration(s.uptimeMs)}`],
    ["version", `${s.version} (${s.protocol} v${s.protocolVersion})`],
    ["socket", socketPath],
    ["store", storeLine(s.store, s.storeAvailable)],
    ["sessions", `${plural(Math.max(0, s.connections - 1), "connection")} besides this one`],
    ["rooms", String(s.rooms)],
  ];
  io.stdout.write(`${table(rows)}\n${s.rooms > 0 ? `${await roomsTable(client)}\n` : ""}`);
}

function timeOf(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}

function messageLine(message: FetchedMessage): string {
  const body = safeText(message.body).replace(/\n/g, "\n    ");
  return `${timeOf(message.postedAt)} #${message.seq} ${safeLine(message.author)}: ${body}`;
}

/** One message as tail and fetch print it: time, seq and author, then the body, continuation lines indented. */
export function formatTailMessage(message: FetchedMessage): string {
  return `${messageLine(message)}\n`;
}

/** True when the broker has `room`; else says which rooms it has. Reading commands never create a room. */
async function roomExists(client: RoundtableClient, io: CliIo, room: string): Promise<boolean> {
  const { rooms } = await client.rooms();
  if (rooms.some((r) => r.room === room)) return true;
  const known = rooms.map((r) => r.room).join(", ");
  io.stderr.write(`roundtable: no room "${room}" on this broker${known === "" ? "" : ` (rooms: ${known})`}\n`);
  return false;
}

async function fetchPage(
  client: RoundtableClient,
  io: CliIo,
  action: { room: string; afterSeq?: number | undefined; limit?: number | undefined; maxChars?: number | undefined },
): Promise<number> {
  if (!(await roomExists(client, io, action.room))) return CLI_EXIT.failed;
  await client.join(action.room);
  const { afterSeq, limit, maxChars } = action;
  const page = await client.fetch(action.room, {
    ...(afterSeq === undefined ? {} : { afterSeq }),
    ...(limit === undefined ? {} : { limit }),
    ...(maxChars === undefined ? {} : { maxChars }),
  });
  const readOn = (seq: number): string =>
    `roundtable fetch ${action.room} --after ${seq}` +
    (limit === undefined ? "" : ` --limit ${limit}`) +
    (maxChars === undefined ? "" : ` --max-chars ${maxChars}`);
  io.stdout.write(`${renderFetchPage(page, { message: messageLine, readOn })}\n`);
  return CLI_EXIT.ok;
}

async function tail(client: RoundtableClient, io: CliIo, room: string, back: number): Promise<number> {
  if (!(await roomExists(client, io, room))) return CLI_EXIT.failed;
  const joined = await client.join(room);
  let lastSeq = Math.max(0, joined.newestSeq - back);
  let draining = Promise.resolve();
  const drain = async (): Promise<void> => {
    for (;;) {
      const page = await client.fetch(room, { afterSeq: lastSeq, limit: 200 });
      for (const message of page.messages) io.stdout.write(formatTailMessage(message));
      const last = page.messages[page.messages.length - 1];
      if (last !== undefined) lastSeq = last.seq;
      if (!page.more || last === undefined) return;
    }
  };
  return new Promise<number>((resolve) => {
    let done = false;
    const stop = (code: number): void => {
      done = true;
      unsubscribe();
      unwatch();
      io.signal?.removeEventListener("abort", onAbort);
      resolve(code);
    };
    const onAbort = (): void => stop(CLI_EXIT.ok);
    const fail = (error: unknown): void => {
      if (done) return;
      const lost = error instanceof ConnectionLostError;
      io.stderr.write(
        lost
          ? "roundtable: the broker went away (it exits when idle, or was stopped); tail ends\n"
          : `roundtable: ${describe(error)}\n`,
      );
      stop(CLI_EXIT.failed);
    };
    // One fetch pass queued at most: a burst of pings becomes one pass, not one per message.
    let queued = false;
    const follow = (): void => {
      if (queued) return;
      queued = true;
      draining = draining
        .then(() => {
          queued = false;
          return drain();
        })
        .catch(fail);
    };
    const unsubscribe = client.onEvent((event) => {
      if (event.event === "post" && event.room === room) follow();
    });
    const unwatch = client.onConnectionLost((reason) => fail(new ConnectionLostError("tail", reason)));
    io.signal?.addEventListener("abort", onAbort, { once: true });
    io.stderr.write(`following "${room}" as ${client.role}; Ctrl-C to stop\n`);
    follow();
    if (io.signal?.aborted === true) onAbort();
  });
}

async function post(
  client: RoundtableClient,
  io: CliIo,
  action: { room: string; text: string; headline?: string | undefined },
): Promise<void> {
  const joined = await client.join(action.room);
  const result = await client.post(action.room, action.text, action.headline === undefined ? {} : { headline: action.headline });
  io.stdout.write(`Posted #${result.seq} to "${result.room}" as ${client.role}.\n`);
  if (joined.created && joined.members.length <= 1) {
    io.stdout.write("(The room is new and nobody else is in it; a broker keeps rooms only while sessions are connected.)\n");
  }
}

function describe(error: unknown): string {
  if (error instanceof WireRefusalError || error instanceof RoundtableClientError || error instanceof Error) return error.message;
  return String(error);
}

async function execute(
  client: RoundtableClient,
  io: CliIo,
  action: ClientCommandArguments["action"],
  socketPath: string,
): Promise<number> {
  switch (action.command) {
    case "status":
      await status(client, io, socketPath);
      return CLI_EXIT.ok;
    case "rooms":
      io.stdout.write(`${(await roomsTable(client)).replace(/^ {2}/gm, "")}\n`);
      return CLI_EXIT.ok;
    case "tail":
      return tail(client, io, action.room, action.lines);
    case "fetch":
      return fetchPage(client, io, action);
    case "post":
      await post(client, io, action);
      return CLI_EXIT.ok;
  }
}

async function doctor(args: CliArguments, io: CliIo): Promise<number> {
  try {
    const report = await runDoctor({
      ...io.doctorOptions,
      ...(io.env === undefined ? {} : { env: io.env }),
      ...(args.agentDir === undefined ? {} : { agentDir: args.agentDir }),
      ...(args.role === undefined ? {} : { role: args.role }),
    });
    io.stdout.write(renderDoctorReport(report));
    return doctorExitCode(report);
  } catch (error) {
    io.stderr.write(`roundtable doctor: ${describe(error)}\n`);
    return CLI_EXIT.failed;
  }
}

/** Runs the CLI; resolves with the exit code. Never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let args: CliArguments | "help";
  try {
    args = parseCliArguments(argv);
  } catch (error) {
    io.stderr.write(`roundtable: ${describe(error)}\n\n${CLI_USAGE}`);
    return CLI_EXIT.usage;
  }
  if (args === "help") {
    io.stdout.write(CLI_USAGE);
    return CLI_EXIT.ok;
  }
  if (args.action.command === "doctor") return doctor(args, io);
  const { action } = args as ClientCommandArguments;
  let client: RoundtableClient | undefined;
  try {
    const options: CreateRoundtableClientOptions = {
      ...io.clientOptions,
      role: args.role,
      ...(io.env === undefined ? {} : { env: io.env }),
      ...(args.agentDir === undefined ? {} : { agentDir: args.agentDir, agentDirSetting: "--agent-dir" }),
      spawnBroker: action.command === "post",
      onWarning: () => undefined,
    };
    const { socketPath } = locateBroker({ ...options, spawnBroker: false });
    client = createRoundtableClient(options);
    return await execute(client, io, action, socketPath);
  } catch (error) {
    io.stderr.write(`roundtable: ${describe(error)}\n`);
    return error instanceof BrokerNotRunningError ? CLI_EXIT.noBroker : CLI_EXIT.failed;
  } finally {
    client?.close();
  }
}
