import { brandErrorClass } from "@orphus/internal";
import { escapeIdentity } from "@orphus/digest";
import { boundedText, shownValue } from "@orphus/shared-tool";
import { MAX_QUERY_CHARS } from "./limits.js";

/** How the tool and the CLI refuse a query longer than MAX_QUERY_CHARS, in the same words. */
export const QUERY_TOO_LONG = `the query is longer than ${MAX_QUERY_CHARS} characters`;

/** How the tool refuses a query that is missing or empty. */
export const QUERY_WITHOUT_WORDS = "a query needs words";

/** Longest path an error message quotes, escaped. */
const MESSAGE_PATH_CHARS = 512;

/**
 * A path as a message quotes it: escaped as a name is (escapeIdentity), so an invisible character in a directory
 * shows (two stores that differ by one must not look alike), at most MESSAGE_PATH_CHARS characters.
 */
function shown(path: string): string {
  return escapeIdentity(path, { maxLength: MESSAGE_PATH_CHARS });
}

/** Base class of every error of @orphus/memory; `code` is stable across releases. */
export abstract class MemoryError extends Error {
  abstract readonly code: string;
  static {
    brandErrorClass(this);
  }
  /** The store file the failure concerns, when there is one. */
  readonly storePath: string | undefined;

  constructor(message: string, storePath: string | undefined, options?: ErrorOptions) {
    super(message, options);
    this.storePath = storePath;
  }
}

/** Thrown by a read (query, get, stats) when no store exists at the resolved path; reads never create one. */
export class StoreMissingError extends MemoryError {
  override readonly name = "StoreMissingError";
  readonly code = "ERR_MEMORY_STORE_MISSING";
  /** Where the location came from: ORPHUS_MEMORY_DIR, ORPHUS_CODING_AGENT_DIR, default or an option. */
  readonly locationSource: string;

  constructor(storePath: string, locationSource: string) {
    super(
      `No memory store exists at ${shown(storePath)} (location from ${locationSource}): nothing has been ingested there yet`,
      storePath,
    );
    this.locationSource = locationSource;
  }
}

/** Thrown when the file at the store path is not a memory store (another file, another application's SQLite database). It is left untouched. */
export class StoreForeignError extends MemoryError {
  override readonly name = "StoreForeignError";
  readonly code = "ERR_MEMORY_STORE_FOREIGN";

  constructor(storePath: string, what: string, options?: ErrorOptions) {
    super(
      `The file at ${shown(storePath)} is not a memory store (${what}); it was left untouched: move it away or point ` +
        "ORPHUS_MEMORY_DIR elsewhere",
      storePath,
      options,
    );
  }
}

/** Thrown when SQLite finds the store damaged (malformed pages, a truncated header). It is never deleted or rewritten. */
export class StoreCorruptError extends MemoryError {
  override readonly name = "StoreCorruptError";
  readonly code = "ERR_MEMORY_STORE_CORRUPT";

  constructor(storePath: string, what: string, options?: ErrorOptions) {
    super(
      `The memory store at ${shown(storePath)} is damaged (${what}); it was left untouched: keep a copy, then move it away ` +
        "and ingest again",
      storePath,
      options,
    );
  }
}

/** Thrown when the store was written by a newer release (a schema version this one does not know). */
export class StoreVersionError extends MemoryError {
  override readonly name = "StoreVersionError";
  readonly code = "ERR_MEMORY_STORE_VERSION";
  readonly found: number;
  readonly supported: number;

  constructor(storePath: string, found: number, supported: number) {
    super(
      `The memory store at ${shown(storePath)} has schema version ${found}; this release reads versions up to ${supported}: ` +
        "upgrade @orphus/memory in every session that shares the store",
      storePath,
    );
    this.found = found;
    this.supported = supported;
  }
}

/** Thrown when the memory directory or the store path cannot be used: not a directory, another user's, not a regular file. */
export class StorePathError extends MemoryError {
  override readonly name = "StorePathError";
  readonly code = "ERR_MEMORY_STORE_PATH";

  constructor(path: string, problem: string, options?: ErrorOptions) {
    super(`Cannot use ${shown(path)} for the memory store: ${problem}`, path, options);
  }
}

/** Most characters of the driver's own words a StoreDriverError or StoreFullError quotes. */
const DRIVER_FAILURE_CHARS = 400;

/**
 * Thrown when better-sqlite3's native module cannot be loaded (built for another Node, or never built): no store can
 * be opened, and the store file was not touched.
 */
export class StoreDriverError extends MemoryError {
  override readonly name = "StoreDriverError";
  readonly code = "ERR_MEMORY_DRIVER";

  constructor(storePath: string, nodeVersion: string, failure: string, options?: ErrorOptions) {
    super(
      `The memory store at ${shown(storePath)} cannot be opened: the SQLite driver (better-sqlite3) failed to load its ` +
        `native module under Node ${nodeVersion} (${boundedText(failure, DRIVER_FAILURE_CHARS, { oneLine: true })}); ` +
        "the store was not touched: rebuild the driver for this Node (npm rebuild better-sqlite3) or run the Node it " +
        "was built for",
      storePath,
      options,
    );
  }
}

/** Thrown when another process held the store's write lock for longer than the busy timeout. */
export class StoreBusyError extends MemoryError {
  override readonly name = "StoreBusyError";
  readonly code = "ERR_MEMORY_STORE_BUSY";

  constructor(storePath: string, timeoutMs: number, options?: ErrorOptions) {
    super(
      `The memory store at ${shown(storePath)} stayed locked by another writer for ${timeoutMs} ms; try again when its ` +
        "ingest has finished",
      storePath,
      options,
    );
  }
}

/** Thrown when a write to the store failed because its disk (or the file's size limit) is full: nothing of it was kept. */
export class StoreFullError extends MemoryError {
  override readonly name = "StoreFullError";
  readonly code = "ERR_MEMORY_STORE_FULL";

  constructor(storePath: string, failure: string, options?: ErrorOptions) {
    super(
      `The memory store at ${shown(storePath)} could not be written: the disk is full (${boundedText(failure, DRIVER_FAILURE_CHARS, { oneLine: true })}); nothing of ` +
        "this write was kept: free space and try again",
      storePath,
      options,
    );
  }
}

/** Thrown by ingest and forget when the caller's role is not `librarian`. */
export class NotLibrarianError extends MemoryError {
  override readonly name = "NotLibrarianError";
  readonly code = "ERR_MEMORY_NOT_LIBRARIAN";
  /** The role the caller has, or undefined when none is configured. */
  readonly role: string | undefined;

  constructor(operation: string, role: string | undefined, roleSource: string, storePath: string) {
    const who =
      role === undefined
        ? `this session has no role (${roleSource})`
        : `this session's role is "${escapeIdentity(role, { also: '"', maxLength: 64 })}" (from ${roleSource})`;
    super(
      `memory ${operation} on the store at ${shown(storePath)} is for the librarian role only; ${who}. To act as ` +
        "librarian, start the session with ORPHUS_ROUNDTABLE_ROLE=librarian (or --as librarian for orphus-memory and " +
        "orphus-roundtable-mcp, --roundtable-role librarian for pi). The librarian role keeps writers from colliding; " +
        "it is a convention, not a security boundary",
      storePath,
    );
    this.role = role;
  }
}

/** Thrown when `get` or `forget` names an entry the store does not hold. */
export class EntryNotFoundError extends MemoryError {
  override readonly name = "EntryNotFoundError";
  readonly code = "ERR_MEMORY_ENTRY_NOT_FOUND";
  readonly id: number;

  constructor(id: number, storePath: string) {
    super(
      `No entry #${id} in the memory store at ${shown(storePath)}: it may have been forgotten, or replaced when its file ` +
        "was ingested again (query to find its current id)",
      storePath,
    );
    this.id = id;
  }
}

/** Thrown when an argument is outside its stated form or limit (a budget, an id, a text without a title). */
export class MemoryInputError extends MemoryError {
  override readonly name = "MemoryInputError";
  readonly code = "ERR_MEMORY_INPUT";

  constructor(what: string, expected: string, received: unknown, options?: ErrorOptions) {
    super(`${what}: expected ${expected}, received ${shownValue(received)}`, undefined, options);
  }
}

/**
 * Thrown (and returned as the memory tool's error text) when a call's arguments do not fit the action's schema: an
 * unknown argument (named with the nearest known one), a missing or malformed one, or arguments that are not an object.
 */
export class MemoryToolInputError extends MemoryError {
  override readonly name = "MemoryToolInputError";
  readonly code = "ERR_MEMORY_TOOL_INPUT";

  constructor(problem: string, received: unknown, options?: ErrorOptions) {
    super(`Invalid memory call: ${problem}; got ${shownValue(received)}`, undefined, options);
  }
}

/** Thrown by the orphus-memory CLI for arguments it cannot run (exit code 2). */
export class MemoryUsageError extends MemoryError {
  override readonly name = "MemoryUsageError";
  readonly code = "ERR_MEMORY_USAGE";

  constructor(message: string, options?: ErrorOptions) {
    super(message, undefined, options);
  }
}
