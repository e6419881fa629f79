import { z } from "zod";
import { maxDigestLength, sanitizeText } from "@orphus/digest";
import { hasErrorCode } from "@orphus/internal";
import {
  validRoomNameSchema,
  type FetchedMessage,
  type ResultFor,
  type RoomSummary,
  type WireRefusalError,
} from "@orphus/roundtable-protocol";
import type { BrokerRestart, JoinResult, RoundtableClient } from "./client.js";
import { checkActionArguments, checkToolCall, toolJsonSchema, type ArgumentCheck } from "@orphus/shared-tool";
import { NotJoinedError, RoundtableClientError, ToolInputError } from "./errors.js";
import {
  MAX_ERROR_TEXT_CHARS,
  MAX_LISTED_ROOMS,
  MAX_RESTART_ROOMS,
  TOOL_DEFAULT_DIGEST_BUDGET,
  TOOL_DEFAULT_FETCH_CHARS,
  TOOL_DEFAULT_FETCH_LIMIT,
  TOOL_DEFAULT_WAIT_MS,
  TOOL_MAX_DIGEST_BUDGET,
  TOOL_MAX_FETCH_CHARS,
  TOOL_MAX_FETCH_LIMIT,
  TOOL_MAX_POST_CHARS,
  TOOL_MAX_WAIT_MS,
  TOOL_WAIT_POLL_MS,
} from "./limits.js";
import { indentContinuation, renderFetchPage } from "./fetch-text.js";
import { boundedText, shownName, shownNames } from "./shown.js";
import { plural } from "@orphus/internal";
import { systemTimers, type TimerHandle, type Timers } from "./timers.js";

/** The tool's name, as the builtin and the MCP server register it. */
export const ROUNDTABLE_TOOL_NAME = "roundtable";

/** Every action of the tool. */
export const ROUNDTABLE_ACTIONS = ["join", "leave", "post", "digest", "fetch", "rooms", "members", "wait"] as const;

/** One action of the tool. */
export type RoundtableAction = (typeof ROUNDTABLE_ACTIONS)[number];

/** What the model reads about the tool. */
export const ROUNDTABLE_TOOL_DESCRIPTION =
  "Deliberate with other agents in shared rooms held by a local broker. Nothing of a discussion enters your context " +
  "unless you pull it. Actions: join (enter a room, creating it), post (say something; keep long text for when it " +
  "matters and give a headline), digest (your unread messages within a character budget, default " +
  `${TOOL_DEFAULT_DIGEST_BUDGET}, spent newest first: whole messages, then excerpts that end by saying how many ` +
  "characters follow and the afterSeq that fetches the rest, then one-line headlines; a first marker line counts " +
  "what did not fit and names the afterSeq that fetches it), fetch (messages in full after a sequence number, " +
  `a page at a time: by default up to ${TOOL_DEFAULT_FETCH_LIMIT} messages and ${TOOL_DEFAULT_FETCH_CHARS} ` +
  "characters, though a longer message still comes whole when it is first; the result says how to read on; use " +
  "it when a digest collapsed something you need), rooms, " +
  "members, leave, and wait (block until another role posts, for clients that get no activity pings). " +
  "Activity pings name rooms, counts and authors only: call digest to read.";

// The broker's own syntax (from the protocol), so a name the broker would refuse is refused here with its pattern.
const room = validRoomNameSchema;
const body = z
  .string()
  .min(1, { error: "a post needs a non-empty body" })
  .max(TOOL_MAX_POST_CHARS)
  .describe(`Message text, at most ${TOOL_MAX_POST_CHARS} characters.`);
const headline = z
  .string()
  .max(200)
  .describe("One-line summary a digest shows when the body no longer fits; default: the body's first line.");
const budget = z
  .number()
  .int()
  .min(100)
  .max(TOOL_MAX_DIGEST_BUDGET)
  .describe(`Characters the digest may spend, plus one marker line; default ${TOOL_DEFAULT_DIGEST_BUDGET}.`);
const afterSeq = z
  .number()
  .int()
  .min(0)
  .describe("Return messages numbered above this (a digest's marker line names it); default: your read position.");
const limit = z
  .number()
  .int()
  .min(1)
  .max(TOOL_MAX_FETCH_LIMIT)
  .describe(`Most messages to return; default ${TOOL_DEFAULT_FETCH_LIMIT}.`);
const maxChars = z
  .number()
  .int()
  .min(1)
  .max(TOOL_MAX_FETCH_CHARS)
  .describe(
    `Most characters of message text per page; default ${TOOL_DEFAULT_FETCH_CHARS}. A message longer than this still ` +
      "comes whole when it is the first of its page.",
  );
const timeoutSeconds = z
  .number()
  .int()
  .min(1)
  .max(TOOL_MAX_WAIT_MS / 1000)
  .describe(`How long to wait for a post; default ${TOOL_DEFAULT_WAIT_MS / 1000}.`);

/** Each schema closed: an argument an action does not take is refused by name, never dropped (`timeout` ≠ `timeoutSeconds`). */
function closed<T extends Record<string, z.ZodObject>>(
  schemas: T,
): { [K in keyof T]: z.ZodObject<T[K]["shape"], z.core.$strict> } {
  return Object.fromEntries(Object.entries(schemas).map(([action, schema]) => [action, schema.strict()])) as {
    [K in keyof T]: z.ZodObject<T[K]["shape"], z.core.$strict>;
  };
}

/** The input schema of each action, strictly: what a call of that action must carry, and nothing else. */
export const roundtableActionSchemas = closed({
  join: z.object({ action: z.literal("join"), room }),
  leave: z.object({ action: z.literal("leave"), room }),
  post: z.object({ action: z.literal("post"), room, body, headline: headline.optional() }),
  digest: z.object({ action: z.literal("digest"), room, budget: budget.optional() }),
  fetch: z.object({
    action: z.literal("fetch"),
    room,
    afterSeq: afterSeq.optional(),
    limit: limit.optional(),
    maxChars: maxChars.optional(),
  }),
  rooms: z.object({ action: z.literal("rooms") }),
  members: z.object({ action: z.literal("members"), room }),
  wait: z.object({
    action: z.literal("wait"),
    room: room.optional().describe("Wait for this room only; default: every room you joined."),
    timeoutSeconds: timeoutSeconds.optional(),
  }),
});

/** Any valid tool input, discriminated by action. */
export const roundtableToolInputSchema = z.discriminatedUnion("action", [
  roundtableActionSchemas.join,
  roundtableActionSchemas.leave,
  roundtableActionSchemas.post,
  roundtableActionSchemas.digest,
  roundtableActionSchemas.fetch,
  roundtableActionSchemas.rooms,
  roundtableActionSchemas.members,
  roundtableActionSchemas.wait,
]);

/** A validated tool input. */
export type RoundtableToolInput = z.infer<typeof roundtableToolInputSchema>;

/**
 * The tool's parameters as one flat object, for harnesses that want a single object schema (MCP's inputSchema,
 * function-calling APIs); which members an action needs is checked by {@link roundtableToolInputSchema}.
 */
export const roundtableToolParameters = z
  .object({
    action: z.enum(ROUNDTABLE_ACTIONS).describe("What to do."),
    room: room.optional().describe("The room; needed by every action except rooms (optional for wait)."),
    body: body.optional().describe("post: the message text."),
    headline: headline.optional().describe("post: a one-line summary."),
    budget: budget.optional().describe(`digest: characters to spend; default ${TOOL_DEFAULT_DIGEST_BUDGET}.`),
    afterSeq: afterSeq.optional().describe("fetch: return messages numbered above this; default your read position."),
    limit: limit.optional().describe(`fetch: most messages; default ${TOOL_DEFAULT_FETCH_LIMIT}.`),
    maxChars: maxChars
      .optional()
      .describe(
        `fetch: most characters per page; default ${TOOL_DEFAULT_FETCH_CHARS}; a longer first message still comes whole.`,
      ),
    timeoutSeconds: timeoutSeconds
      .optional()
      .describe(`wait: seconds to wait for a post; default ${TOOL_DEFAULT_WAIT_MS / 1000}.`),
  })
  .strict()
  .meta({ title: "roundtable" });

/** The tool's parameters as JSON Schema (draft 2020-12): a single object, as MCP's inputSchema requires. */
export function roundtableToolJsonSchema(): Record<string, unknown> {
  return toolJsonSchema(roundtableToolParameters);
}

/** What a call of the tool returns: text for the model, and whether it is an error. Never a stack trace. */
export interface RoundtableToolResult {
  readonly text: string;
  readonly isError: boolean;
}

/**
 * The part of a client the tool uses. `markReported` and `takeBrokerRestart` are optional: without the first a
 * wait's answer may be followed by a ping about the same posts, without the second no result tells of a restart.
 */
export type RoundtableToolClient = Pick<
  RoundtableClient,
  "role" | "join" | "leave" | "post" | "digest" | "fetch" | "rooms" | "members" | "waitForPost"
> &
  Partial<Pick<RoundtableClient, "markReported" | "takeBrokerRestart">>;

/** Options of a tool call. */
export interface RoundtableToolCallOptions {
  /** Cancels a wait. */
  readonly signal?: AbortSignal;
  /**
   * The action this call runs, for a harness that exposes one tool per action (the MCP server): the input is then
   * that action's arguments alone, without an `action` member, and error texts name only those arguments.
   */
  readonly action?: RoundtableAction;
  /** How often a wait looks at the unread counts besides listening for posts; default {@link TOOL_WAIT_POLL_MS}. */
  readonly waitPollMs?: number;
  /** Timers of a wait's polling; default the real ones. */
  readonly timers?: Timers;
  /**
   * False leaves a broker restart the client met untold, for the next call to tell: for a host's own text that the
   * model never reads (a status command). Default true.
   */
  readonly tellRestart?: boolean;
}

/** The checked input, or the refusal as the tool's own error. */
function checked(check: ArgumentCheck<RoundtableToolInput>): RoundtableToolInput {
  if (!check.ok)
    throw new ToolInputError(check.problem, check.received, check.cause === undefined ? {} : { cause: check.cause });
  return check.value;
}

/**
 * Validates tool input (the shared check of @orphus/shared-tool); models often send null for an absent optional
 * member, which counts as absent. A member the action does not take is refused, named with the nearest one it does
 * take; input that is not an object is refused in one sentence.
 */
export function parseRoundtableToolInput(input: unknown): RoundtableToolInput {
  return checked(checkToolCall(roundtableActionSchemas, input));
}

/**
 * Validates the arguments of one action given apart from it, as a harness with one tool per action receives them
 * (no `action` member, and one is refused); every message names only the arguments that action takes. Null counts
 * as absent.
 */
export function parseRoundtableActionArguments(action: RoundtableAction, args: unknown): RoundtableToolInput {
  return checked(checkActionArguments(roundtableActionSchemas, action, args));
}

/**
 * Runs one call of the tool; every failure comes back as readable text with isError set. Every text it returns has
 * passed `@orphus/digest`'s sanitizeText (names in it escaped first, by escapeIdentity) and is bounded: see the
 * README's "What a result can hold" for each action's bound.
 */
export async function runRoundtableTool(
  client: RoundtableToolClient,
  input: unknown,
  options: RoundtableToolCallOptions = {},
): Promise<RoundtableToolResult> {
  let action: string = options.action ?? "call";
  try {
    const call =
      options.action === undefined
        ? parseRoundtableToolInput(input)
        : parseRoundtableActionArguments(options.action, input);
    action = call.action;
    const text = await handle(client, call, options);
    // The last pass of the one sanitiser: names were escaped where they were put in, so it drops nothing of them.
    return { text: sanitizeText(`${restartNotice(client, options)}${text}`), isError: false };
  } catch (error) {
    return {
      text: `${sanitizeText(restartNotice(client, options))}${describeToolError(action, error)}`,
      isError: true,
    };
  }
}

/**
 * The line that tells the model of a broker restart the client met, on the first call after it (empty when there
 * is none): what was lost and what to do. At most MAX_RESTART_ROOMS rooms are named; the rest are counted.
 */
function restartNotice(client: RoundtableToolClient, options: RoundtableToolCallOptions): string {
  const restart = options.tellRestart === false ? undefined : client.takeBrokerRestart?.();
  return restart === undefined ? "" : `${restartText(restart)}\n`;
}

function restartText({ previous, current, rooms }: BrokerRestart): string {
  const pids =
    previous.brokerPid === current.brokerPid
      ? `pid ${current.brokerPid}, started again`
      : `pid ${previous.brokerPid} before, pid ${current.brokerPid} now`;
  const lost =
    previous.store === "memory"
      ? "kept its rooms in memory, so every room started empty: your memberships and the rooms' history are gone"
      : "keeps its rooms on a shared store, which kept them, but your memberships ended with it";
  const again =
    rooms.length === 0
      ? "Join the rooms you need again."
      : `Join your rooms again: ${shownNames(rooms, MAX_RESTART_ROOMS)}.`;
  return `The roundtable broker restarted (${pids}) and ${lost}. ${again}`;
}

/**
 * The text a failed call returns: the message only, prefixed by the action, never a stack; sanitised, then cut to
 * {@link MAX_ERROR_TEXT_CHARS} characters with a note of how many were left out.
 */
export function describeToolError(action: string, error: unknown): string {
  return boundedText(errorText(action, error), MAX_ERROR_TEXT_CHARS);
}

function errorText(action: string, error: unknown): string {
  if (error instanceof ToolInputError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  const ours = hasErrorCode<WireRefusalError>(error, "ERR_WIRE_REFUSED") || error instanceof RoundtableClientError;
  if (ours) return `roundtable ${action}: ${message}`;
  return `roundtable ${action} failed: ${message}`;
}

async function handle(
  client: RoundtableToolClient,
  call: RoundtableToolInput,
  options: RoundtableToolCallOptions,
): Promise<string> {
  switch (call.action) {
    case "join":
      return joinText(client.role, await client.join(call.room));
    case "leave": {
      const result = await client.leave(call.room);
      const room = shownName(result.room);
      return result.left ? `Left room "${room}".` : `Not in room "${room}"; nothing to leave.`;
    }
    case "post": {
      const result = await client.post(
        call.room,
        call.body,
        call.headline === undefined ? {} : { headline: call.headline },
      );
      return `Posted #${result.seq} to "${shownName(result.room)}".`;
    }
    case "digest": {
      const budget = call.budget ?? TOOL_DEFAULT_DIGEST_BUDGET;
      const result = await client.digest(call.room, { budget });
      if (result.text === "")
        return `Nothing unread in "${shownName(result.room)}" (read through #${result.throughSeq}).`;
      // The broker renders within the bound; a broker that did not is cut to it, never passed on whole.
      return boundedText(result.text, maxDigestLength(budget));
    }
    case "fetch":
      return fetchText(
        await client.fetch(call.room, {
          limit: call.limit ?? TOOL_DEFAULT_FETCH_LIMIT,
          ...(call.afterSeq === undefined ? {} : { afterSeq: call.afterSeq }),
          // No cap named: the broker's default (TOOL_DEFAULT_FETCH_CHARS), lowered by a broker that serves less.
          ...(call.maxChars === undefined ? {} : { maxChars: call.maxChars }),
        }),
      );
    case "rooms":
      return roomsText((await client.rooms()).rooms);
    case "members": {
      const result = await client.members(call.room);
      return `Members of "${shownName(result.room)}": ${shownNames(result.members)}.`;
    }
    case "wait":
      return waitText(client, call.room, (call.timeoutSeconds ?? TOOL_DEFAULT_WAIT_MS / 1000) * 1000, options);
  }
}

function joinText(role: string, result: JoinResult): string {
  const unread =
    result.unread === 0 ? "Nothing unread." : `${plural(result.unread, "unread message")}: digest to catch up.`;
  const created =
    result.recreated === true
      ? " (room recreated: the broker restarted, and its earlier history is gone)"
      : result.created
        ? " (new room)"
        : "";
  return (
    `Joined "${shownName(result.room)}" as ${shownName(role)}${created}. ` +
    `Members: ${shownNames(result.members)}. ${unread}`
  );
}

/**
 * One fetched message as the digest shows a whole one: `[#seq author] body`, the author escaped, the body sanitised
 * and every further line with text indented, so no line of a body can pass for another message's header.
 */
function messageText(message: FetchedMessage): string {
  const head = `[#${message.seq} ${shownName(message.author)}]`;
  const body = indentContinuation(sanitizeText(message.body), "  ");
  return body === "" || body.startsWith("\n") ? `${head}${body}` : `${head} ${body}`;
}

function fetchText(result: ResultFor<"fetch">): string {
  return renderFetchPage(result, { message: messageText, readOn: (seq) => `fetch again with afterSeq=${seq}` });
}

function roomLine(summary: RoomSummary): string {
  const joined = summary.joined ? `joined, ${summary.unread ?? 0} unread` : "not joined";
  return `${shownName(summary.room)}: ${plural(summary.members, "member")}, newest #${summary.newestSeq}, ${joined}`;
}

/**
 * At most MAX_LISTED_ROOMS of `rooms`, joined ones chosen first, in their given order; and how many were left out,
 * and how many of those are joined.
 */
function listedRooms(rooms: readonly RoomSummary[]): { listed: RoomSummary[]; rest: number; restJoined: number } {
  if (rooms.length <= MAX_LISTED_ROOMS) return { listed: [...rooms], rest: 0, restJoined: 0 };
  const chosen = new Set(
    [...rooms.filter((r) => r.joined), ...rooms.filter((r) => !r.joined)].slice(0, MAX_LISTED_ROOMS),
  );
  const listed = rooms.filter((r) => chosen.has(r));
  const left = rooms.filter((r) => !chosen.has(r));
  return { listed, rest: left.length, restJoined: left.filter((r) => r.joined).length };
}

function roomsText(rooms: readonly RoomSummary[]): string {
  if (rooms.length === 0) return "No rooms yet: join one to create it.";
  const { listed, rest, restJoined } = listedRooms(rooms);
  const lines = listed.map(roomLine);
  if (rest > 0) lines.push(`(${plural(rest, "more room")} not listed, ${restJoined} of them joined)`);
  return lines.join("\n");
}

function unreadRooms(rooms: readonly RoomSummary[], only: string | undefined): RoomSummary[] {
  return rooms.filter((r) => r.joined && (r.unread ?? 0) > 0 && (only === undefined || r.room === only));
}

/**
 * What a wait answers about rooms with unread posts; the posts it names are marked reported, so the pings do not
 * announce them again.
 */
function reportUnread(client: RoundtableToolClient, rooms: readonly RoomSummary[]): string {
  for (const room of rooms) client.markReported?.(room.room, room.newestSeq);
  return unreadText(rooms);
}

function unreadText(rooms: readonly RoomSummary[]): string {
  const { listed, rest } = listedRooms(rooms);
  const parts = listed.map((r) => `${shownName(r.room)}: ${r.unread ?? 0} unread`);
  if (rest > 0) parts.push(`${plural(rest, "more room")} with unread messages`);
  return `${parts.join(" · ")}. Digest to read.`;
}

/**
 * Blocks until another role posts in `only` (or any joined room), answering at once when something is already
 * unread. Besides listening for post events it looks at the unread counts every `waitPollMs`, so a missed event (the
 * broker drops pings for a slow reader) costs at most one poll interval, and a role taken out of the room by another
 * of its connections ends the wait rather than running out its timeout.
 */
async function waitText(
  client: RoundtableToolClient,
  only: string | undefined,
  timeoutMs: number,
  options: RoundtableToolCallOptions,
): Promise<string> {
  const { signal } = options;
  const timers = options.timers ?? systemTimers;
  const pollMs = options.waitPollMs ?? TOOL_WAIT_POLL_MS;
  // Listen before looking, so a post landing between the look and the wait is not missed.
  const stop = new AbortController();
  const relay = (): void => stop.abort();
  signal?.addEventListener("abort", relay, { once: true });
  let tick: TimerHandle | undefined;
  try {
    const waiting = client.waitForPost({
      timeoutMs,
      signal: stop.signal,
      ...(only === undefined ? {} : { room: only }),
    });
    waiting.catch(() => undefined);
    const look = async (): Promise<string | undefined> => {
      const rooms = (await client.rooms()).rooms;
      if (!rooms.some((r) => r.joined && (only === undefined || r.room === only))) throw new NotJoinedError(only);
      const unread = unreadRooms(rooms, only);
      return unread.length > 0 ? reportUnread(client, unread) : undefined;
    };
    const already = await look();
    if (already !== undefined) return already;
    for (;;) {
      const polled = new Promise<"poll">((resolve) => (tick = timers.setTimeout(() => resolve("poll"), pollMs)));
      const outcome = await Promise.race([waiting, polled]);
      timers.clearTimeout(tick);
      if (outcome === "poll") {
        const seen = await look();
        if (seen !== undefined) return seen;
        continue;
      }
      if (outcome === undefined) {
        return signal?.aborted === true ? "Wait cancelled." : `No new posts in ${Math.round(timeoutMs / 1000)} s.`;
      }
      const after = unreadRooms((await client.rooms()).rooms, only);
      if (after.length > 0) return reportUnread(client, after);
      client.markReported?.(outcome.room, outcome.seq);
      return `${shownName(outcome.room)}: new post by ${shownName(outcome.author)} (#${outcome.seq}). Digest to read.`;
    }
  } finally {
    if (tick !== undefined) timers.clearTimeout(tick);
    signal?.removeEventListener("abort", relay);
    stop.abort();
  }
}
