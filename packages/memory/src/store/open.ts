// Opening the store file: refuse what is not ours before SQLite may write a byte to it, create a new store
// atomically (built under a private name, then linked into place), and bring an older schema up to date.
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  fsyncSync,
  linkSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
  unlinkSync,
  type Stats,
} from "node:fs";
import * as path from "node:path";
import { ensurePrivateDir } from "@orphus/agent-env";
import {
  StoreBusyError,
  StoreCorruptError,
  StoreDriverError,
  StoreForeignError,
  StoreFullError,
  StorePathError,
  StoreVersionError,
} from "../errors.js";
import { STORE_APPLICATION_ID } from "../limits.js";
import { connectionOpener } from "./driver/choose.js";
import { transaction, type Connection, type SqliteDriverName } from "./driver/connection.js";
import { LATEST_SCHEMA, MIGRATIONS, type Migration, type StoreMigration } from "./schema.js";

export type { Connection } from "./driver/connection.js";

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

/**
 * Whether `error` is the driver failing to load its native module: Node's dlopen refusing it (built for another
 * Node's ABI) or the bindings loader finding no build at all. better-sqlite3 loads it on the first `new Database`.
 */
function isDriverLoadFailure(error: unknown): boolean {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
  return (
    code === "ERR_DLOPEN_FAILED" ||
    (error instanceof Error && error.message.startsWith("Could not locate the bindings file"))
  );
}

/** SQLite's primary result codes this package maps to its own errors, by number (node:sqlite gives numbers). */
const PRIMARY_CODES: Readonly<Record<number, string>> = {
  5: "SQLITE_BUSY",
  6: "SQLITE_LOCKED",
  11: "SQLITE_CORRUPT",
  13: "SQLITE_FULL",
  26: "SQLITE_NOTADB",
};

/**
 * An SQLite failure's result code by name, whichever driver threw it: better-sqlite3 names it in `code`
 * (`SQLITE_BUSY_SNAPSHOT`), node:sqlite gives `code` ERR_SQLITE_ERROR and the extended number in `errcode`.
 */
function sqliteCode(error: unknown): string {
  if (typeof error !== "object" || error === null) return "";
  if ("code" in error && typeof error.code === "string" && error.code.startsWith("SQLITE_")) return error.code;
  if ("errcode" in error && typeof error.errcode === "number")
    return PRIMARY_CODES[error.errcode & 0xff] ?? `SQLITE_${error.errcode}`;
  return "";
}

/** Maps SQLite's failures (and the driver's failure to load) to this package's errors; anything else passes unchanged. */
export function storeFailure(file: string, error: unknown, busyTimeoutMs: number): unknown {
  if (isDriverLoadFailure(error))
    return new StoreDriverError(file, process.version, (error as Error).message, { cause: error });
  const code = sqliteCode(error);
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))
    return new StoreBusyError(file, busyTimeoutMs, { cause: error });
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB") {
    return new StoreCorruptError(file, (error as Error).message, { cause: error });
  }
  // SQLITE_FULL from SQLite (the disk, or the file's page limit), ENOSPC from the file system while a store is created.
  if (
    code === "SQLITE_FULL" ||
    (typeof error === "object" && error !== null && "code" in error && error.code === "ENOSPC")
  ) {
    return new StoreFullError(file, (error as Error).message, { cause: error });
  }
  return error;
}

/** Brings the schema to the newest version, once, under the write lock; refuses a newer one. */
export function migrate(db: Connection, file: string, migrations: readonly StoreMigration[] = MIGRATIONS): number {
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  const found = schemaVersion(db);
  if (found > latest) throw new StoreVersionError(file, found, latest);
  if (found === latest) return found;
  transaction(db, "immediate", () => {
    const current = schemaVersion(db);
    if (current > latest) throw new StoreVersionError(file, current, latest);
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      for (const statement of migration.statements) db.exec(statement);
      migration.run?.(db);
      db.exec(`PRAGMA user_version = ${migration.version}`);
    }
  });
  return latest;
}

/** The schema version recorded in the file (SQLite's `user_version`). */
export function schemaVersion(db: Connection): number {
  return Number(db.value("PRAGMA user_version"));
}

/**
 * Opens `file` (which must exist) through `driver` and makes every setting the store depends on, in SQL, so that
 * both drivers behave alike whatever their own defaults: the busy timeout first, before anything may wait for a lock.
 */
function connect(file: string, options: OpenStoreOptions, synchronous: "NORMAL" | "OFF" = "NORMAL"): Connection {
  const db = connectionOpener(options.driver)(file);
  try {
    db.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs}`);
    // WAL with NORMAL loses at most the last commits on power loss, never the file's consistency. Set before WAL: on
    // a new, empty file the switch to WAL is its first write, made in the rollback journal at that setting.
    db.exec(`PRAGMA synchronous = ${synchronous}`);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA trusted_schema = OFF");
    db.exec("PRAGMA foreign_keys = ON");
    // better-sqlite3's compiled-in page cache (16 MB); node:sqlite's default is 2 MB.
    db.exec("PRAGMA cache_size = -16000");
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Options of {@link openStoreFile}. */
export interface OpenStoreOptions {
  readonly busyTimeoutMs: number;
  /** The SQLite driver to open it with. */
  readonly driver: SqliteDriverName;
  /** Create the store (and its directory, 0700) when none exists. */
  readonly create: boolean;
  /** Migrations to apply; default the package's own. Tests pass more. */
  readonly migrations?: readonly Migration[];
  /** The clock the age of a dead creation's leftovers is read by (file times are the system's); default Date.now. */
  readonly now?: () => number;
}

/**
 * How long the creating file of a process that is gone must have been left untouched before an open removes it. A
 * creation takes milliseconds; the wait is for a creator this process cannot see (another PID namespace sharing the
 * folder, a container), which would look gone.
 */
const LEFTOVER_AGE_MS = 10 * 60_000;

/** A store's creating file, `.<store>.<pid>-<hex>.creating`, or one of its companions (`-wal`, `-shm`, `-journal`). */
const CREATING_FILE = /^\.(.+)\.(\d+)-[0-9a-f]+\.creating(?:-wal|-shm|-journal)?$/;

/** The creating files this process is building now. */
const inFlight = new Set<string>();

/** Whether a process with this pid is running (one of another user counts: EPERM). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/**
 * Removes what creations of the store at `file` left behind when their process died (a kill while the store was
 * built): a creating file and its companions whose pid runs no process, or is this process's own but no creation of
 * it, untouched for LEFTOVER_AGE_MS. A file whose pid runs a process stays, even old: the pid may have been reused by
 * another process since its creator died, and then the file waits for that process to end too; a live creation's
 * file is never removed. Failures are ignored: the files are garbage, never the store.
 */
function removeLeftovers(file: string, now: number): void {
  const dir = path.dirname(file);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const groups = new Map<string, { pid: number; names: string[] }>();
  for (const name of names) {
    const match = CREATING_FILE.exec(name);
    if (match === null || match[1] !== path.basename(file)) continue;
    const base = name.replace(/-(?:wal|shm|journal)$/, "");
    const group = groups.get(base) ?? { pid: Number(match[2]), names: [] };
    group.names.push(name);
    groups.set(base, group);
  }
  for (const [base, group] of groups) {
    if (inFlight.has(path.join(dir, base)) || (group.pid !== process.pid && isRunning(group.pid))) continue;
    let newest = 0;
    try {
      for (const name of group.names) newest = Math.max(newest, lstatSync(path.join(dir, name)).mtimeMs);
    } catch {
      continue;
    }
    if (now - newest < LEFTOVER_AGE_MS) continue;
    for (const name of group.names) {
      try {
        unlinkSync(path.join(dir, name));
      } catch {
        // Gone already, or not ours to remove.
      }
    }
  }
}

/** A new store built under a private name in `dir` and linked to `file`; another process winning the race is fine. */
function createStore(file: string, options: OpenStoreOptions): void {
  const dir = path.dirname(file);
  ensurePrivateDir(dir, (problem, cause) => new StorePathError(dir, problem, { cause }));
  const building = path.join(dir, `.${path.basename(file)}.${process.pid}-${randomBytes(4).toString("hex")}.creating`);
  inFlight.add(building);
  closeSync(openSync(building, "wx", 0o600));
  try {
    // A private file nobody reads until it is linked into place: synced once, below, rather than at every step.
    const db = connect(building, options, "OFF");
    try {
      db.exec(`PRAGMA application_id = ${STORE_APPLICATION_ID}`);
      // A new store of the package's own schema is made at its newest version at once; steps given by the caller
      // (tests) are applied one by one.
      migrate(db, file, options.migrations ?? [LATEST_SCHEMA]);
    } finally {
      db.close();
    }
    const fd = openSync(building, "r+");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(building, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST")
        throw new StorePathError(file, (error as Error).message, { cause: error });
    }
  } finally {
    for (const leftover of [building, `${building}-wal`, `${building}-shm`]) {
      try {
        unlinkSync(leftover);
      } catch {
        // Already gone.
      }
    }
    inFlight.delete(building);
  }
}

/**
 * Opens the store at `file` (creating it first when asked and absent) after checking that it is a memory store,
 * sets WAL and the busy timeout, and migrates an older schema; first removes what killed creations left beside it.
 * Returns undefined when there is no store and `create` is false. Never deletes, truncates or rewrites a file that is
 * not a memory store.
 */
export function openStoreFile(file: string, options: OpenStoreOptions): Connection | undefined {
  const exists = storeExists(file);
  if (!exists && !options.create) return undefined;
  removeLeftovers(file, (options.now ?? Date.now)());
  if (!exists) createStore(file, options);
  checkHeader(file);
  tightenFiles(file);
  let db: Connection | undefined;
  try {
    db = connect(file, options);
    migrate(db, file, options.migrations);
    return db;
  } catch (error) {
    db?.close();
    throw storeFailure(file, error, options.busyTimeoutMs);
  }
}
