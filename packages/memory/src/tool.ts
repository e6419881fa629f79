// The `memory` tool: one JSON schema and one runner that every host shares (the Orphus builtin beside the
// `roundtable` tool, the MCP server's memory_* tools), so a model reads the same text whichever host it runs in.
import { sanitizeText } from "@orphus/digest";
import {
  boundedText,
  checkActionArguments,
  checkToolCall,
  toolJsonSchema,
  type ArgumentCheck,
} from "@orphus/shared-tool";
import { z } from "zod";
import { MemoryError, MemoryToolInputError, QUERY_TOO_LONG, QUERY_WITHOUT_WORDS } from "./errors.js";
import {
  DEFAULT_GET_PAGE_CHARS,
  DEFAULT_QUERY_BUDGET,
  DEFAULT_QUERY_LIMIT,
  MAX_GET_PAGE_CHARS,
  MAX_MEMORY_ERROR_CHARS,
  MAX_QUERY_BUDGET,
  MAX_QUERY_CHARS,
  MAX_QUERY_LIMIT,
  MAX_SOURCE_CHARS,
  MAX_TAG_CHARS,
  MAX_TAGS,
  MAX_TEXT_CHARS,
  MAX_TITLE_CHARS,
} from "./limits.js";
import type { MemoryStore } from "./store/store.js";

/** The tool's name, as the builtin registers it. */
export const MEMORY_TOOL_NAME = "memory";

/** Every action of the tool. */
export const MEMORY_ACTIONS = ["query", "get", "stats", "ingest", "forget"] as const;

/** The actions only the librarian may run. */
export const MEMORY_WRITE_ACTIONS = ["ingest", "forget"] as const;

/** One action of the tool. */
export type MemoryAction = (typeof MEMORY_ACTIONS)[number];

/** What the model reads about the tool. */
export const MEMORY_TOOL_DESCRIPTION =
  "The memory shared by every session of this user: decisions, conventions, findings and files of the repo that a " +
  "librarian ingested. Actions: query (full-text search, best first; the answer fits a character budget, default " +
  `${DEFAULT_QUERY_BUDGET}, and its first line says how many more matched and how to get them), get (one entry in ` +
  `full, ${DEFAULT_GET_PAGE_CHARS} characters a page), stats (what the store holds), and for the librarian role only ` +
  "ingest (a text with a title, or files and folders) and forget (an entry by id, or a source). Query with a few " +
  "distinctive words; every word must match, or else any.";

// Each argument described for what it is; the flat schema below adds which actions take it.
// Each refusal of the query its own words: an error given to z.string() itself would answer every issue, the length too.
const query = z
  .string({ error: (issue) => (issue.code === "invalid_type" ? QUERY_WITHOUT_WORDS : undefined) })
  .min(1, { error: QUERY_WITHOUT_WORDS })
  .max(MAX_QUERY_CHARS, { error: QUERY_TOO_LONG })
  .describe(`Words to search for, at most ${MAX_QUERY_CHARS} characters.`);
const budget = z
  .number()
  .int()
  .min(0)
  .max(MAX_QUERY_BUDGET)
  .describe(`Characters the hits may take, plus one marker line; default ${DEFAULT_QUERY_BUDGET}.`);
const hitLimit = z.number().int().min(1).max(MAX_QUERY_LIMIT).describe(`Most hits; default ${DEFAULT_QUERY_LIMIT}.`);
const hitOffset = z
  .number()
  .int()
  .min(0)
  .describe("Hits of the ranking to pass over (the marker line names the next offset).");
const id = z.number().int().min(1).describe("An entry's id, as a hit shows it: [#id].");
const charOffset = z
  .number()
  .int()
  .min(0)
  .describe("Characters of the entry to pass over (the marker line names the next offset).");
const pageChars = z
  .number()
  .int()
  .min(1)
  .max(MAX_GET_PAGE_CHARS)
  .describe(`Characters in the page; default ${DEFAULT_GET_PAGE_CHARS}.`);
const title = z.string().min(1).max(MAX_TITLE_CHARS).describe("The text's title, shown in every hit.");
const body = z.string().max(MAX_TEXT_CHARS).describe(`The text, at most ${MAX_TEXT_CHARS} characters.`);
const tags = z.array(z.string().min(1).max(MAX_TAG_CHARS)).max(MAX_TAGS).describe("Tags, searchable.");
const source = z
  .string()
  .min(1)
  .max(MAX_SOURCE_CHARS)
  .describe("What the text is about or came from; a later ingest under the same source replaces it.");
const forgetSource = source.describe("The source whose entries to forget (a file's path, or a text's source).");
const paths = z
  .array(z.string().min(1).max(MAX_SOURCE_CHARS))
  .min(1)
  .max(1000)
  .describe("Files and folders to ingest.");

/** The input schema of each action, closed: what a call of that action must carry, and nothing else. */
export const memoryActionSchemas = {
  query: z.strictObject({
    action: z.literal("query"),
    query,
    budget: budget.optional(),
    limit: hitLimit.optional(),
    offset: hitOffset.optional(),
  }),
  get: z.strictObject({ action: z.literal("get"), id, offset: charOffset.optional(), limit: pageChars.optional() }),
  stats: z.strictObject({ action: z.literal("stats") }),
  ingest: z
    .strictObject({
      action: z.literal("ingest"),
      title: title.optional(),
      body: body.optional(),
      tags: tags.optional(),
      source: source.optional(),
      paths: paths.optional(),
    })
    .refine((input) => (input.paths === undefined) === (input.title !== undefined && input.body !== undefined), {
      error: "give either paths, or a title and a body",
    }),
  forget: z
    .strictObject({ action: z.literal("forget"), id: id.optional(), source: forgetSource.optional() })
    .refine((input) => (input.id === undefined) !== (input.source === undefined), {
      error: "give either id or source",
    }),
} as const;

/** Any valid tool input, discriminated by action. */
export const memoryToolInputSchema = z.discriminatedUnion("action", [
  memoryActionSchemas.query,
  memoryActionSchemas.get,
  memoryActionSchemas.stats,
  memoryActionSchemas.ingest,
  memoryActionSchemas.forget,
]);

/** A validated tool input. */
export type MemoryToolInput = z.infer<typeof memoryToolInputSchema>;

/**
 * The tool's parameters as one flat, closed object, for harnesses that want a single object schema; which members
 * an action needs is checked by the action's own schema ({@link memoryActionSchemas}).
 */
export const memoryToolParameters = z
  .strictObject({
    action: z.enum(MEMORY_ACTIONS).describe("What to do."),
    query: query.optional().describe("query: the words to search for."),
    budget: budget
      .optional()
      .describe(`query: characters the hits may take, plus one marker line; default ${DEFAULT_QUERY_BUDGET}.`),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_GET_PAGE_CHARS)
      .optional()
      .describe(
        `query: most hits (default ${DEFAULT_QUERY_LIMIT}, at most ${MAX_QUERY_LIMIT}); get: characters in the page (default ${DEFAULT_GET_PAGE_CHARS}).`,
      ),
    offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("query: hits to pass over; get: characters to pass over. The marker line names the next."),
    id: id.optional().describe("get, forget: the entry's id, as a hit shows it: [#id]."),
    title: title.optional().describe("ingest: the text's title, shown in every hit."),
    body: body.optional().describe(`ingest: the text, at most ${MAX_TEXT_CHARS} characters.`),
    tags: tags.optional().describe("ingest: tags, searchable."),
    source: source
      .optional()
      .describe(
        "ingest: what the text is about or came from (a later ingest under it replaces it); forget: the source to forget.",
      ),
    paths: paths.optional().describe("ingest: files and folders to ingest."),
  })
  .meta({ title: "memory" });

/** The tool's parameters as JSON Schema (draft 2020-12): a single closed object, as MCP's inputSchema requires. */
export function memoryToolJsonSchema(): Record<string, unknown> {
  return toolJsonSchema(memoryToolParameters);
}

/** What a call of the tool returns: text for the model, and whether it is an error. Never a stack trace. */
export interface MemoryToolResult {
  readonly text: string;
  readonly isError: boolean;
}

/** The part of a store the tool uses. */
export type MemoryToolStore = Pick<MemoryStore, "query" | "get" | "stats" | "ingestTexts" | "ingestPaths" | "forget">;

/** Options of a call of the tool. */
export interface MemoryToolCallOptions {
  /**
   * The action this call runs, for a harness that exposes one tool per action (the MCP server's memory_* tools): the
   * input is then that action's arguments alone, an `action` member among them is refused, and error texts name
   * only those arguments.
   */
  readonly action?: MemoryAction;
}

function checked(check: ArgumentCheck<MemoryToolInput>): MemoryToolInput {
  if (!check.ok)
    throw new MemoryToolInputError(
      check.problem,
      check.received,
      check.cause === undefined ? {} : { cause: check.cause },
    );
  return check.value;
}

/**
 * Validates tool input by the check every shared tool shares (@orphus/shared-tool): a null member counts as absent
 * (models often send one), an unknown argument is refused by name with the nearest known one, input that is not an
 * object is refused in one sentence. Throws MemoryToolInputError.
 */
export function parseMemoryToolInput(input: unknown): MemoryToolInput {
  return checked(checkToolCall(memoryActionSchemas, input));
}

/** Validates the arguments of one action given apart from it (no `action` member: one is refused), as MCP sends them. */
export function parseMemoryActionArguments(action: MemoryAction, args: unknown): MemoryToolInput {
  return checked(checkActionArguments(memoryActionSchemas, action, args));
}

/**
 * The text a failed call returns: the message only, never a stack, prefixed by the action unless it is the
 * refusal of the call's arguments (which names the action itself); sanitised, then cut to MAX_MEMORY_ERROR_CHARS
 * with a note of how many characters were left out.
 */
export function describeMemoryToolError(action: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const text =
    error instanceof MemoryToolInputError
      ? message
      : error instanceof MemoryError
        ? `memory ${action}: ${message}`
        : `memory ${action} failed: ${message}`;
  return boundedText(text, MAX_MEMORY_ERROR_CHARS, { oneLine: true });
}

function handle(store: MemoryToolStore, call: MemoryToolInput): MemoryToolResult {
  switch (call.action) {
    case "query": {
      const answer = store.query(call.query, {
        ...(call.budget === undefined ? {} : { budget: call.budget }),
        ...(call.limit === undefined ? {} : { limit: call.limit }),
        ...(call.offset === undefined ? {} : { offset: call.offset }),
      });
      // A missing or empty store is never an empty success: the host shows it as an error.
      return { text: answer.text, isError: answer.status === "missing" || answer.status === "empty" };
    }
    case "get":
      return {
        text: store.get(call.id, {
          ...(call.offset === undefined ? {} : { offset: call.offset }),
          ...(call.limit === undefined ? {} : { limit: call.limit }),
        }).text,
        isError: false,
      };
    case "stats":
      return { text: store.stats().text, isError: false };
    case "ingest": {
      const report =
        call.paths !== undefined
          ? store.ingestPaths(call.paths)
          : store.ingestTexts([
              {
                title: call.title ?? "",
                body: call.body ?? "",
                ...(call.tags === undefined ? {} : { tags: call.tags }),
                ...(call.source === undefined ? {} : { source: call.source }),
              },
            ]);
      return { text: report.text, isError: false };
    }
    case "forget":
      return {
        text: store.forget(call.id !== undefined ? { id: call.id } : { source: call.source ?? "" }).text,
        isError: false,
      };
  }
}

/**
 * Runs one call of the tool; every failure comes back as readable text with isError set, never as a throw. Every
 * text has passed the one sanitiser (names escaped, content sanitised) and is bounded: a query by its budget plus
 * one marker line, a page by its limit plus two lines, an error by MAX_MEMORY_ERROR_CHARS (the README's "What a
 * result can hold"). A missing or empty store answers a query with isError set: never an empty success.
 */
export function runMemoryTool(
  store: MemoryToolStore,
  input: unknown,
  options: MemoryToolCallOptions = {},
): MemoryToolResult {
  let action: string = options.action ?? "call";
  try {
    const call =
      options.action === undefined ? parseMemoryToolInput(input) : parseMemoryActionArguments(options.action, input);
    action = call.action;
    // The last pass of the one sanitiser: names were escaped where they were put in, so it drops nothing of them.
    const result = handle(store, call);
    return { text: sanitizeText(result.text), isError: result.isError };
  } catch (error) {
    return { text: describeMemoryToolError(action, error), isError: true };
  }
}
