// The commands that talk to the broker as a client: status, rooms, tail, fetch and post. Each writes what it shows
// to the io it is given (the CLI passes one whose every write goes through the one sanitiser) and returns its exit
// code; names and paths are escaped where they are put in.
import { sanitizeText } from "@orphus/digest";
import { hasErrorCode } from "@orphus/internal";
import { announcedPosts, type FetchedMessage } from "@orphus/roundtable-protocol";
import {
  ConnectionLostError,
  MAX_LISTED_ROOMS,
  indentContinuation,
  renderFetchPage,
  shownName,
  shownNames,
  shownPath,
  type RoundtableClient,
} from "@orphus/roundtable-client";
import { plural } from "@orphus/internal";
import { heldTextLine } from "../doctor/store.js";
import type { ClientCommand, FetchCommand, PostCommand } from "./arguments.js";
import { CLI_EXIT } from "./usage.js";

/** Where a command writes, and what stops `tail`. */
export interface CommandIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly signal?: AbortSignal | undefined;
  /** An error as the CLI prints it (sanitised and cut). */
  readonly describe: (error: unknown) => string;
}

/** Messages `tail` asks for per fetch while it catches up. */
const TAIL_PAGE_LIMIT = 200;

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
  return rows
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  "))
    .join("\n");
}

async function roomsTable(client: RoundtableClient): Promise<string> {
  const { rooms } = await client.rooms();
  if (rooms.length === 0) return "  (no rooms)";
  return table(
    rooms.map((r) => ["  " + shownName(r.room), plural(r.members, "member"), plural(r.newestSeq, "message")]),
  );
}

/**
 * Where the broker keeps its rooms, as its status says (masked by the broker: a Redis URL never shows its password),
 * and whether the store answers. Escaped like a path, so two stores never look alike.
 */
function storeLine(store: string, available: boolean): string {
  const where =
    store === "memory" ? "memory (this broker's process)" : `${shownPath(store)} (shared by the brokers on it)`;
  return available ? where : `${where}; unavailable: requests fail until it answers`;
}

/**
 * The rows of `roundtable status`, label and value, in order. A new line (a room store, say) is one more row here;
 * the table lines the values up whatever the labels.
 */
async function statusRows(client: RoundtableClient, socketPath: string): Promise<{ rows: string[][]; rooms: number }> {
  const s = await client.status();
  const rows = [
    ["broker", `running, pid ${s.pid}, up ${formatDuration(s.uptimeMs)}`],
    ["version", `${shownName(s.version)} (${shownName(s.protocol)} v${s.protocolVersion})`],
    ["socket", shownPath(socketPath)],
    ["store", storeLine(s.store, s.storeAvailable)],
    ...(s.heldText === undefined ? [] : [["text", heldTextLine(s.heldText)]]),
    ["sessions", `${plural(Math.max(0, s.connections - 1), "connection")} besides this one`],
    ["rooms", String(s.rooms)],
  ];
  return { rows, rooms: s.rooms };
}

async function status(client: RoundtableClient, io: CommandIo, socketPath: string): Promise<number> {
  const { rows, rooms } = await statusRows(client, socketPath);
  io.stdout.write(`${table(rows)}\n${rooms > 0 ? `${await roomsTable(client)}\n` : ""}`);
  return CLI_EXIT.ok;
}

function timeOf(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}

function messageLine(message: FetchedMessage): string {
  const body = indentContinuation(sanitizeText(message.body), "    ");
  return `${timeOf(message.postedAt)} #${message.seq} ${shownName(message.author)}: ${body}`;
}

/** One message as tail and fetch print it: time, seq and author, then the body, continuation lines indented. */
export function formatTailMessage(message: FetchedMessage): string {
  return `${messageLine(message)}\n`;
}

/** True when the broker has `room`; else says which rooms it has. Reading commands never create a room. */
async function roomExists(client: RoundtableClient, io: CommandIo, room: string): Promise<boolean> {
  const { rooms } = await client.rooms();
  if (rooms.some((r) => r.room === room)) return true;
  const known =
    rooms.length === 0
      ? ""
      : ` (rooms: ${shownNames(
          rooms.map((r) => r.room),
          MAX_LISTED_ROOMS,
        )})`;
  io.stderr.write(`roundtable: no room "${shownName(room)}" on this broker${known}\n`);
  return false;
}

async function fetchPage(client: RoundtableClient, io: CommandIo, action: FetchCommand): Promise<number> {
  if (!(await roomExists(client, io, action.room))) return CLI_EXIT.failed;
  await client.join(action.room);
  const { afterSeq, limit, maxChars } = action;
  const page = await client.fetch(action.room, {
    ...(afterSeq === undefined ? {} : { afterSeq }),
    ...(limit === undefined ? {} : { limit }),
    ...(maxChars === undefined ? {} : { maxChars }),
  });
  const readOn = (seq: number): string =>
    `roundtable fetch ${shownName(action.room)} --after ${seq}` +
    (limit === undefined ? "" : ` --limit ${limit}`) +
    (maxChars === undefined ? "" : ` --max-chars ${maxChars}`);
  io.stdout.write(`${renderFetchPage(page, { message: messageLine, readOn })}\n`);
  return CLI_EXIT.ok;
}

async function tail(client: RoundtableClient, io: CommandIo, room: string, back: number): Promise<number> {
  if (!(await roomExists(client, io, room))) return CLI_EXIT.failed;
  const joined = await client.join(room);
  let lastSeq = Math.max(0, joined.newestSeq - back);
  let draining = Promise.resolve();
  const drain = async (): Promise<void> => {
    for (;;) {
      const page = await client.fetch(room, { afterSeq: lastSeq, limit: TAIL_PAGE_LIMIT });
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
      const lost = hasErrorCode<ConnectionLostError>(error, "ERR_CONNECTION_LOST");
      io.stderr.write(
        lost
          ? "roundtable: the broker went away (it exits when idle, or was stopped); tail ends\n"
          : `roundtable: ${io.describe(error)}\n`,
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
      if (event.event !== "reset" && event.room === room && announcedPosts(event).length > 0) follow();
    });
    const unwatch = client.onConnectionLost((reason) => fail(new ConnectionLostError("tail", reason)));
    io.signal?.addEventListener("abort", onAbort, { once: true });
    io.stderr.write(`following "${shownName(room)}" as ${shownName(client.role)}; Ctrl-C to stop\n`);
    follow();
    if (io.signal?.aborted === true) onAbort();
  });
}

async function post(client: RoundtableClient, io: CommandIo, action: PostCommand): Promise<number> {
  const joined = await client.join(action.room);
  const result = await client.post(
    action.room,
    action.text,
    action.headline === undefined ? {} : { headline: action.headline },
  );
  io.stdout.write(`Posted #${result.seq} to "${shownName(result.room)}" as ${shownName(client.role)}.\n`);
  if (joined.created && joined.members.length <= 1) {
    io.stdout.write(
      "(The room is new and nobody else is in it; a broker keeps rooms only while sessions are connected.)\n",
    );
  }
  return CLI_EXIT.ok;
}

/** Runs one client command against `client`; resolves with its exit code, or rejects with what failed. */
export async function runClientCommand(
  client: RoundtableClient,
  io: CommandIo,
  action: ClientCommand,
  socketPath: string,
): Promise<number> {
  switch (action.command) {
    case "status":
      return status(client, io, socketPath);
    case "rooms":
      io.stdout.write(`${(await roomsTable(client)).replace(/^ {2}/gm, "")}\n`);
      return CLI_EXIT.ok;
    case "tail":
      return tail(client, io, action.room, action.lines);
    case "fetch":
      return fetchPage(client, io, action);
    case "post":
      return post(client, io, action);
  }
}
