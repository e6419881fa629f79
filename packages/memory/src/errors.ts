/** Cuts a value for an error message: at most 80 characters of its JSON form. */
export function preview(value: unknown): string {
  let text: string;
  try {
    text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** Base class of every error of @orphus/memory; `code` is stable across releases. */
export abstract class MemoryError extends Error {
  abstract readonly code: string;
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
      `No memory store exists at ${storePath} (location from ${locationSource}): nothing has been ingested there yet`,
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
      `The file at ${storePath} is not a memory store (${what}); it was left untouched: move it away or point ` +
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
      `The memory store at ${storePath} is damaged (${what}); it was left untouched: keep a copy, then move it away ` +
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
      `The memory store at ${storePath} has schema version ${found}; this release reads versions up to ${supported}: ` +
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
    super(`Cannot use ${path} for the memory store: ${problem}`, path, options);
  }
}

/** Thrown when another process held the store's write lock for longer than the busy timeout. */
export class StoreBusyError extends MemoryError {
  override readonly name = "StoreBusyError";
  readonly code = "ERR_MEMORY_STORE_BUSY";

  constructor(storePath: string, timeoutMs: number, options?: ErrorOptions) {
    super(
      `The memory store at ${storePath} stayed locked by another writer for ${timeoutMs} ms; try again when its ` +
        "ingest has finished",
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
    const who = role === undefined ? `this session has no role (${roleSource})` : `this session's role is "${role.slice(0, 64)}" (from ${roleSource})`;
    super(
      `memory ${operation} is for the librarian role only; ${who}. To act as librarian, start the session with ` +
        "ORPHUS_ROUNDTABLE_ROLE=librarian (or --as librarian for orphus-memory and orphus-roundtable-mcp). The " +
        "librarian role keeps writers from colliding; it is a convention, not a security boundary",
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
      `No entry #${id} in the memory store at ${storePath}: it may have been forgotten, or replaced when its file ` +
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
    super(`${what}: expected ${expected}, received ${preview(received)}`, undefined, options);
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
