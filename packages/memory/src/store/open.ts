// Opening the store file: refuse what is not ours before SQLite may write a byte to it, create a new store
// atomically (built under a private name, then linked into place), and bring an older schema up to date.
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, linkSync, openSync, readSync, statSync, unlinkSync, type Stats } from "node:fs";
import * as path from "node:path";
import Database from "better-sqlite3";
import { ensurePrivateDir } from "@orphus/agent-env";
import { StoreBusyError, StoreCorruptError, StoreForeignError, StorePathError, StoreVersionError } from "../errors.js";
import { STORE_APPLICATION_ID } from "../limits.js";
import { MIGRATIONS, type Migration } from "./schema.js";

/** A connection to the store, as better-sqlite3 gives it. */
export type Connection = Database.Database;

const SQLITE_MAGIC = "SQLite format 3\u0000";
const HEADER_BYTES = 100;

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new StorePathError(file, (error as Error).message, { cause: error });
  }
}

/** Whether a regular file is at `file`; throws StorePathError when something else is there. */
export function storeExists(file: string): boolean {
  const stats = statOrUndefined(file);
  if (stats === undefined) return false;
  if (!stats.isFile()) throw new StorePathError(file, "it is not a regular file");
  return true;
}

/** Refuses a file that is not a memory store, reading its header only: SQLite never opens it. */
function checkHeader(file: string): void {
  const header = Buffer.alloc(HEADER_BYTES);
  let read: number;
  const fd = openSync(file, "r");
  try {
    read = readSync(fd, header, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  if (read === 0) throw new StoreForeignError(file, "it is an empty file");
  if (header.subarray(0, Math.min(read, 16)).toString("latin1") !== SQLITE_MAGIC.slice(0, Math.min(read, 16))) {
    throw new StoreForeignError(file, "it is not an SQLite database");
  }
  if (read < HEADER_BYTES) throw new StoreCorruptError(file, `its header is cut short at ${read} bytes`);
  const applicationId = header.readUInt32BE(68);
  if (applicationId !== STORE_APPLICATION_ID) {
    throw new StoreForeignError(
      file,
      `an SQLite database of another application: application_id 0x${applicationId.toString(16).padStart(8, "0")}`,
    );
  }
}

/** Tightens the store file and its WAL companions to 0600 when they are open to others. */
function tightenFiles(file: string): void {
  for (const name of [file, `${file}-wal`, `${file}-shm`]) {
    const stats = statOrUndefined(name);
    if (stats !== undefined && (stats.mode & 0o077) !== 0) chmodSync(name, 0o600);
  }
}

/** Maps SQLite's failures to this package's errors; anything else passes unchanged. */
export function storeFailure(file: string, error: unknown, busyTimeoutMs: number): unknown {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return new StoreBusyError(file, busyTimeoutMs, { cause: error });
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB") {
    return new StoreCorruptError(file, (error as Error).message, { cause: error });
  }
  return error;
}

/** Brings the schema to the newest version, once, under the write lock; refuses a newer one. */
export function migrate(db: Connection, file: string, migrations: readonly Migration[] = MIGRATIONS): number {
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  const version = (): number => db.pragma("user_version", { simple: true }) as number;
  const found = version();
  if (found > latest) throw new StoreVersionError(file, found, latest);
  if (found === latest) return found;
  db.transaction(() => {
    const current = version();
    if (current > latest) throw new StoreVersionError(file, current, latest);
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      for (const statement of migration.statements) db.exec(statement);
      db.pragma(`user_version = ${migration.version}`);
    }
  }).immediate();
  return latest;
}

function configure(db: Connection): void {
  db.pragma("journal_mode = WAL");
  // WAL with NORMAL loses at most the last commits on power loss, never the file's consistency.
  db.pragma("synchronous = NORMAL");
  db.pragma("trusted_schema = OFF");
}

/** Options of {@link openStoreFile}. */
export interface OpenStoreOptions {
  readonly busyTimeoutMs: number;
  /** Create the store (and its directory, 0700) when none exists. */
  readonly create: boolean;
  /** Migrations to apply; default the package's own. Tests pass more. */
  readonly migrations?: readonly Migration[];
}

/** A new store built under a private name in `dir` and linked to `file`; another process winning the race is fine. */
function createStore(file: string, options: OpenStoreOptions): void {
  const dir = path.dirname(file);
  ensurePrivateDir(dir, (problem, cause) => new StorePathError(dir, problem, { cause }));
  const building = path.join(dir, `.${path.basename(file)}.${process.pid}-${randomBytes(4).toString("hex")}.creating`);
  closeSync(openSync(building, "wx", 0o600));
  try {
    const db = new Database(building, { fileMustExist: true, timeout: options.busyTimeoutMs });
    try {
      configure(db);
      db.pragma(`application_id = ${STORE_APPLICATION_ID}`);
      migrate(db, file, options.migrations);
    } finally {
      db.close();
    }
    try {
      linkSync(building, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw new StorePathError(file, (error as Error).message, { cause: error });
    }
  } finally {
    for (const leftover of [building, `${building}-wal`, `${building}-shm`]) {
      try {
        unlinkSync(leftover);
      } catch {
        // Already gone.
      }
    }
  }
}

/**
 * Opens the store at `file` (creating it first when asked and absent) after checking that it is a memory store,
 * sets WAL and the busy timeout, and migrates an older schema. Returns undefined when there is no store and
 * `create` is false. Never deletes, truncates or rewrites a file that is not a memory store.
 */
export function openStoreFile(file: string, options: OpenStoreOptions): Connection | undefined {
  if (!storeExists(file)) {
    if (!options.create) return undefined;
    createStore(file, options);
  }
  checkHeader(file);
  tightenFiles(file);
  let db: Connection | undefined;
  try {
    db = new Database(file, { fileMustExist: true, timeout: options.busyTimeoutMs });
    configure(db);
    migrate(db, file, options.migrations);
    return db;
  } catch (error) {
    db?.close();
    throw storeFailure(file, error, options.busyTimeoutMs);
  }
}
