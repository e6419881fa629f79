// The `memory` tool: one JSON schema and one runner that every host shares (the Orphus builtin beside the
// `roundtable` tool, the MCP server's memory_* tools), so a model reads the same text whichever host it runs in.
import { z } from "zod";
import { MemoryError, MemoryInputError } from "./errors.js";
import {
  DEFAULT_GET_PAGE_CHARS,
  DEFAULT_QUERY_BUDGET,
  DEFAULT_QUERY_LIMIT,
  MAX_GET_PAGE_CHARS,
  MAX_QUERY_BUDGET,
  MAX_QUERY_CHARS,
  MAX_QUERY_LIMIT,
  MAX_SOURCE_CHARS,
  MAX_TAG_CHARS,
  MAX_TAGS,
  MAX_TEXT_CHARS,
  MAX_TITLE_CHARS,
} from "./limits.js";
import { safeLine } from "./render/safe-text.js";
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

const query = z.string().min(1, { error: "a query needs words" }).max(MAX_QUERY_CHARS).describe("Words to search for.");
const budget = z
  .number()
  .int()
  .min(0)
  .max(MAX_QUERY_BUDGET)
  .describe(`Characters the hits may take, plus one marker line; default ${DEFAULT_QUERY_BUDGET}.`);
const limit = z.number().int().min(1).max(MAX_QUERY_LIMIT).describe(`Most hits; default ${DEFAULT_QUERY_LIMIT}.`);
const offset = z.number().int().min(0).describe("Hits (query) or characters (get) to pass over; the marker line names it.");
const id = z.number().int().min(1).describe("An entry's id, as a hit shows it: [#id].");
const pageChars = z
  .number()
  .int()
  .min(1)
  .max(MAX_GET_PAGE_CHARS)
  .describe(`Characters in the page; default ${DEFAULT_GET_PAGE_CHARS}.`);
const title = z.string().min(1).max(MAX_TITLE_CHARS).describe("ingest: the text's title, shown in every hit.");
const body = z.string().max(MAX_TEXT_CHARS).describe(`ingest: the text, at most ${MAX_TEXT_CHARS} characters.`);
const tags = z.array(z.string().min(1).max(MAX_TAG_CHARS)).max(MAX_TAGS).describe("ingest: tags, searchable.");
const source = z
  .string()
  .min(1)
  .max(MAX_SOURCE_CHARS)
  .describe("ingest: what the text is about or came from; a later ingest under it replaces it. forget: the source to forget.");
const paths = z.array(z.string().min(1).max(MAX_SOURCE_CHARS)).min(1).max(1000).describe("ingest: files and folders to ingest.");

/** The input schema of each action, strictly: what a call of that action must carry. */
export const memoryActionSchemas = {
  query: z.strictObject({ action: z.literal("query"), query, budget: budget.optional(), limit: limit.optional(), offset: offset.optional() }),
  get: z.strictObject({ action: z.literal("get"), id, offset: offset.optional(), limit: pageChars.optional() }),
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
    .strictObject({ action: z.literal("forget"), id: id.optional(), source: source.optional() })
    .refine((input) => (input.id === undefined) !== (input.source === undefined), { error: "give either id or source" }),
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

/** The tool's parameters as one flat object, for harnesses that want a single object schema. */
export const memoryToolParameters = z
  .object({
    action: z.enum(MEMORY_ACTIONS).describe("What to do."),
    query: query.optional().describe("query: the words to search for."),
    budget: budget.optional(),
    limit: z.number().int().min(1).max(MAX_GET_PAGE_CHARS).optional().describe(`query: most hits (default ${DEFAULT_QUERY_LIMIT}); get: characters in the page (default ${DEFAULT_GET_PAGE_CHARS}).`),
    offset: offset.optional(),
    id: id.optional().describe("get, forget: the entry's id."),
    title: title.optional(),
    body: body.optional(),
    tags: tags.optional(),
    source: source.optional(),
    paths: paths.optional(),
  })
  .meta({ title: "memory" });

/** The tool's parameters as JSON Schema (draft 2020-12): a single object, as MCP's inputSchema requires. */
export function memoryToolJsonSchema(): Record<string, unknown> {
  const { $schema: _drop, ...schema } = z.toJSONSchema(memoryToolParameters, { target: "draft-2020-12" });
  return schema;
}

/** What a call of the tool returns: text for the model, and whether it is an error. Never a stack trace. */
export interface MemoryToolResult {
  readonly text: string;
  readonly isError: boolean;
}

/** The part of a store the tool uses. */
export type MemoryToolStore = Pick<MemoryStore, "query" | "get" | "stats" | "ingestTexts" | "ingestPaths" | "forget">;

function withoutNulls(input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null));
}

/** Validates tool input; a null member counts as absent (models often send one). */
export function parseMemoryToolInput(input: unknown): MemoryToolInput {
  const cleaned = withoutNulls(input);
  const action = typeof cleaned === "object" && cleaned !== null ? (cleaned as { action?: unknown }).action : undefined;
  if (typeof action !== "string" || !(MEMORY_ACTIONS as readonly string[]).includes(action)) {
    throw new MemoryInputError("action", `one of ${MEMORY_ACTIONS.join(", ")}`, action);
  }
  const parsed = memoryToolInputSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") ?? "";
    throw new MemoryInputError(`${action}${where === "" ? "" : ` ${where}`}`, issue?.message ?? "valid input", cleaned, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/** Longest error text a call returns. */
const MAX_ERROR_CHARS = 2000;

/** The text a failed call returns: the message only, prefixed by the action, sanitised, never a stack. */
export function describeMemoryToolError(action: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const text = error instanceof MemoryError ? `memory ${action}: ${message}` : `memory ${action} failed: ${message}`;
  return safeLine(text, MAX_ERROR_CHARS);
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
      return { text: store.forget(call.id !== undefined ? { id: call.id } : { source: call.source ?? "" }).text, isError: false };
  }
}

/** Runs one call of the tool; every failure comes back as readable text with isError set. */
export function runMemoryTool(store: MemoryToolStore, input: unknown): MemoryToolResult {
  let action = "call";
  try {
    const call = parseMemoryToolInput(input);
    action = call.action;
    return handle(store, call);
  } catch (error) {
    return { text: describeMemoryToolError(action, error), isError: true };
  }
}
