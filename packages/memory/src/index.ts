/**
 * @orphus/memory — the memory store every Orphus session of one user shares: notes, decisions and files of the repo
 * that a librarian ingests and any role queries, in SQLite with FTS5 (BM25 ranking) through node:sqlite (Node 24+)
 * or better-sqlite3. Answers are bounded like a digest, because a memory answer lands in a context window too.
 *
 * ```ts
 * import { openMemory } from "@orphus/memory";
 *
 * const librarian = openMemory({ role: "librarian" }); // $ORPHUS_MEMORY_DIR, else <agent dir>/memory/memory.db
 * librarian.ingestTexts([{ title: "Release policy", body: "Packages release with changesets.", tags: ["release"] }]);
 * librarian.ingestPaths(["docs"]); // chunked at headings and paragraphs; unchanged files are no-ops
 *
 * const answer = openMemory().query("how do we release", { budget: 2000 });
 * answer.status; // "hits" (or "missing", "empty", "no-match": never an empty success)
 * answer.text; // "[memory …/memory.db] hits 1–1 of 1 for …" then "[#1] Release policy · note:…" and an excerpt
 * ```
 *
 * WAL and a busy timeout let several processes read and write at once; each ingest batch is one transaction, so a
 * reader never sees half a file. Only the role `librarian` may ingest and forget: a coordination convention against
 * accidental concurrent writes, not a security boundary. A file at the store path that is not a memory store is
 * refused and never touched.
 */
export { MemoryStore, openMemory, memoryStoreExists, MEMORY_SCHEMA_VERSION } from "./store/store.js";
export {
  MEMORY_TOOL_NAME,
  MEMORY_ACTIONS,
  MEMORY_WRITE_ACTIONS,
  MEMORY_TOOL_DESCRIPTION,
  memoryActionSchemas,
  memoryToolInputSchema,
  memoryToolParameters,
  memoryToolJsonSchema,
  parseMemoryToolInput,
  parseMemoryActionArguments,
  runMemoryTool,
  describeMemoryToolError,
} from "./tool.js";
export { runMemoryCli, MEMORY_CLI_EXIT, MEMORY_CLI_USAGE } from "./cli.js";
export { chunkDocument } from "./ingest/chunk.js";
export { SQLITE_DRIVER_ENV } from "./store/driver/choose.js";
export { MEMORY_MARKER_PREFIX } from "./render/answers.js";
export {
  STORE_FILE_NAME,
  LIBRARIAN_ROLE,
  BUSY_TIMEOUT_MS,
  DEFAULT_QUERY_BUDGET,
  MAX_QUERY_BUDGET,
  DEFAULT_QUERY_LIMIT,
  MAX_QUERY_LIMIT,
  MAX_QUERY_CHARS,
  MAX_QUERY_TERMS,
  EXCERPT_MAX_CHARS,
  MAX_MARKER_CHARS,
  MAX_ENTRY_HEADER_CHARS,
  MAX_SHOWN_SKIPS,
  MAX_MEMORY_ERROR_CHARS,
  MAX_CHUNK_CHARS,
  MAX_TEXT_CHARS,
  MAX_FILE_BYTES,
  MAX_FILES_PER_INGEST,
  MAX_TEXTS_PER_INGEST,
  MAX_TITLE_CHARS,
  MAX_SOURCE_CHARS,
  MAX_TAGS,
  MAX_TAG_CHARS,
  DEFAULT_GET_PAGE_CHARS,
  MAX_GET_PAGE_CHARS,
  MAX_LISTED_SKIPS,
} from "./limits.js";
export { MEMORY_DIR_ENV, resolveMemoryDir } from "@orphus/agent-env";
export {
  MemoryError,
  StoreMissingError,
  StoreForeignError,
  StoreCorruptError,
  StoreVersionError,
  StorePathError,
  StoreBusyError,
  StoreFullError,
  StoreDriverError,
  NotLibrarianError,
  EntryNotFoundError,
  MemoryInputError,
  MemoryToolInputError,
  MemoryUsageError,
} from "./errors.js";
export type {
  MemoryOptions,
  MemoryLocation,
  MemoryText,
  IngestProgress,
  IngestPathsOptions,
  IngestReport,
  QueryOptions,
  MemoryHit,
  QueryStatus,
  QueryAnswer,
  GetOptions,
  GetAnswer,
  MemoryStats,
  ForgetTarget,
  ForgetReport,
} from "./store/store.js";
export type { SkippedPath, SkipKind } from "./ingest/files.js";
export type { EntryFacts } from "./render/answers.js";
export type { Chunk } from "./ingest/chunk.js";
export type { Migration } from "./store/schema.js";
export type { SqliteDriverName } from "./store/driver/connection.js";
export type {
  MemoryAction,
  MemoryToolInput,
  MemoryToolResult,
  MemoryToolStore,
  MemoryToolCallOptions,
} from "./tool.js";
export type { MemoryCliIo } from "./cli.js";
