import { z } from "zod";
import {
  WireRefusalError,
  describeIssues,
  roomNameSchema,
  type FetchedMessage,
  type ResultFor,
  type RoomSummary,
} from "@orphus/roundtable-protocol";
import type { RoundtableClient } from "./client.js";
import { NotJoinedError, RoundtableClientError, ToolInputError } from "./errors.js";
import {
  TOOL_DEFAULT_DIGEST_BUDGET,
  TOOL_DEFAULT_FETCH_CHARS,
  TOOL_DEFAULT_FETCH_LIMIT,
  TOOL_DEFAULT_WAIT_MS,
  TOOL_MAX_DIGEST_BUDGET,
  TOOL_MAX_FETCH_CHARS,
  TOOL_MAX_FETCH_LIMIT,
  TOOL_MAX_POST_CHARS,
  TOOL_MAX_WAIT_MS,
} from "./limits.js";
import { renderFetchPage } from "./fetch-text.js";
import { nameList, plural, safeLine, safeText } from "./text.js";

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
  "matters and give a headline), digest (your unread messages, newest in full and older ones as headlines, within " +
  `a character budget; default ${TOOL_DEFAULT_DIGEST_BUDGET}), fetch (messages in full after a sequence number, ` +
  `a page at a time: by default up to ${TOOL_DEFAULT_FETCH_LIMIT} messages and ${TOOL_DEFAULT_FETCH_CHARS} ` +
  "characters, though a longer message still comes whole when it is first; the result says how to read on; use " +
  "it when a digest collapsed something you need), rooms, " +
  "members, leave, and wait (block until another role posts, for clients that get no activity pings). " +
  "Activity pings name rooms, counts and authors only: call digest to read.";

const room = roomNameSchema.describe("Room name: lower-case letters, digits, '.', '_', '-' (e.g. design-review).");
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

/** The input schema of each action, strictly: what a call of that action must carry. */
export const roundtableActionSchemas = {
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
} as const;

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
  .meta({ title: "roundtable" });

/** The tool's parameters as JSON Schema (draft 2020-12): a single object, as MCP's inputSchema requires. */
export function roundtableToolJsonSchema(): Record<string, unknown> {
  const { $schema: _drop, ...schema } = z.toJSONSchema(roundtableToolParameters, { target: "draft-2020-12" });
  return schema;
}

/** What a call of the tool returns: text for the model, and whether it is an error. Never a stack trace. */
export interface RoundtableToolResult {
  readonly text: string;
  readonly isError: boolean;
}

/** The part of a client the tool uses. */
export type RoundtableToolClient = Pick<
  RoundtableClient,
  "role" | "join" | "leave" | "post" | "digest" | "fetch" | "rooms" | "members" | "waitForPost"
>;

/** Options of a tool call. */
export interface RoundtableToolCallOptions {
  /** Cancels a wait. */
  readonly signal?: AbortSignal;
}

function withoutNulls(input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null));
}

/** Validates tool input; models often send null for an absent optional member, which counts as absent. */
export function parseRoundtableToolInput(input: unknown): RoundtableToolInput {
  const cleaned = withoutNulls(input);
  const action = typeof cleaned === "object" && cleaned !== null ? (cleaned as { action?: unknown }).action : undefined;
  if (typeof action !== "string" || !(ROUNDTABLE_ACTIONS as readonly string[]).includes(action)) {
    throw new ToolInputError(`action must be one of ${ROUNDTABLE_ACTIONS.join(", ")}`, action);
  }
  const parsed = roundtableToolInputSchema.safeParse(cleaned);
  if (!parsed.success) throw new ToolInputError(`${action}: ${describeIssues(parsed.error.issues)}`, cleaned, { cause: parsed.error });
  return parsed.data;
}

/** Runs one call of the tool; every failure comes back as readable text with isError set. */
export async function runRoundtableTool(
  client: RoundtableToolClient,
  input: unknown,
  options: RoundtableToolCallOptions = {},
): Promise<RoundtableToolResult> {
  let action = "call";
  try {
    const call = parseRoundtableToolInput(input);
    action = call.action;
    return { text: await handle(client, call, options), isError: false };
  } catch (error) {
    return { text: describeToolError(action, error), isError: true };
  }
}

/** The text a failed call returns: the message only, prefixed by the action, never a stack. */
export function describeToolError(action: string, error: unknown): string {
  if (error instanceof ToolInputError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof WireRefusalError || error instanceof RoundtableClientError) return `roundtable ${action}: ${message}`;
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
      return result.left ? `Left room "${result.room}".` : `Not in room "${result.room}"; nothing to leave.`;
    }
    case "post": {
      const result = await client.post(call.room, call.body, call.headline === undefined ? {} : { headline: call.headline });
      return `Posted #${result.seq} to "${result.room}".`;
    }
    case "digest": {
      const result = await client.digest(call.room, { budget: call.budget ?? TOOL_DEFAULT_DIGEST_BUDGET });
      return result.text === "" ? `Nothing unread in "${result.room}" (read through #${result.throughSeq}).` : result.text;
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
      return `Members of "${result.room}": ${nameList(result.members)}.`;
    }
    case "wait":
      return waitText(client, call.room, (call.timeoutSeconds ?? TOOL_DEFAULT_WAIT_MS / 1000) * 1000, options.signal);
  }
}

function joinText(role: string, result: ResultFor<"join">): string {
  const unread =
    result.unread === 0 ? "Nothing unread." : `${plural(result.unread, "unread message")}: digest to catch up.`;
  return (
    `Joined "${result.room}" as ${role}${result.created ? " (new room)" : ""}. ` +
    `Members: ${nameList(result.members)}. ${unread}`
  );
}

function messageText(message: FetchedMessage): string {
  return `[#${message.seq} ${safeLine(message.author)}] ${safeText(message.body)}`;
}

function fetchText(result: ResultFor<"fetch">): string {
  return renderFetchPage(result, { message: messageText, readOn: (seq) => `fetch again with afterSeq=${seq}` });
}

function roomLine(summary: RoomSummary): string {
  const joined = summary.joined ? `joined, ${summary.unread ?? 0} unread` : "not joined";
  return `${summary.room}: ${plural(summary.members, "member")}, newest #${summary.newestSeq}, ${joined}`;
}

function roomsText(rooms: readonly RoomSummary[]): string {
  if (rooms.length === 0) return "No rooms yet: join one to create it.";
  return rooms.map(roomLine).join("\n");
}

function unreadRooms(rooms: readonly RoomSummary[], only: string | undefined): RoomSummary[] {
  return rooms.filter((r) => r.joined && (r.unread ?? 0) > 0 && (only === undefined || r.room === only));
}

function unreadText(rooms: readonly RoomSummary[]): string {
  return `${rooms.map((r) => `${r.room}: ${r.unread ?? 0} unread`).join(" · ")}. Digest to read.`;
}

async function waitText(
  client: RoundtableToolClient,
  only: string | undefined,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<string> {
  // Listen before looking, so a post landing between the look and the wait is not missed.
  const stop = new AbortController();
  const relay = (): void => stop.abort();
  signal?.addEventListener("abort", relay, { once: true });
  try {
    const waiting = client.waitForPost({
      timeoutMs,
      signal: stop.signal,
      ...(only === undefined ? {} : { room: only }),
    });
    waiting.catch(() => undefined);
    const before = (await client.rooms()).rooms;
    const joined = before.filter((r) => r.joined && (only === undefined || r.room === only));
    if (joined.length === 0) throw new NotJoinedError(only);
    const already = unreadRooms(before, only);
    if (already.length > 0) {
      stop.abort();
      return unreadText(already);
    }
    const event = await waiting;
    if (event === undefined) {
      return signal?.aborted === true ? "Wait cancelled." : `No new posts in ${Math.round(timeoutMs / 1000)} s.`;
    }
    const after = unreadRooms((await client.rooms()).rooms, only);
    return after.length > 0 ? unreadText(after) : `${event.room}: new post by ${event.author} (#${event.seq}). Digest to read.`;
  } finally {
    signal?.removeEventListener("abort", relay);
    stop.abort();
  }
}
