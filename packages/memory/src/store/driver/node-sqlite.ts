// The node:sqlite driver: Node's built-in SQLite (DatabaseSync), the store's binding from Node 24 on.
// Loaded on first use (it does not exist on Node 20). Node 24.0 to 24.14 and every Node 22 print an ExperimentalWarning
// when the module is first loaded; that one warning, and only while this file loads the module, is kept from reaching
// the user's terminal: the store's users did not choose the binding and cannot act on it. Before Node 24.16 it
// returns a text only up to its first NUL character; the store stores none (store.ts, storedText).
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import type { Connection, Statement } from "./connection.js";

/** The part of node:sqlite's StatementSync the driver uses (@types/node 20 has no types for the module). */
interface StatementSync {
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  /** Node 22.13 on: every Node with setReturnArrays has it. */
  iterate(...params: unknown[]): IterableIterator<unknown>;
  setReturnArrays(enabled: boolean): void;
}

/** The part of node:sqlite's DatabaseSync the driver uses. */
interface DatabaseSync {
  exec(sql: string): void;
  prepare(sql: string): StatementSync;
  readonly isTransaction: boolean;
  readonly isOpen: boolean;
  close(): void;
}

interface NodeSqlite {
  DatabaseSync: new (location: URL, options: { readonly defensive: boolean }) => DatabaseSync;
  StatementSync: { prototype: object };
}

/** The warning node:sqlite emits on first load where it is still experimental. */
const EXPERIMENTAL_WARNING = /^SQLite is an experimental feature/;

let loaded: NodeSqlite | undefined;

/**
 * node:sqlite, loaded with exactly its own ExperimentalWarning held back (every other warning passes as it came);
 * throws, saying why, where this Node's node:sqlite is missing or cannot run the store.
 */
export function loadNodeSqlite(): NodeSqlite {
  if (loaded !== undefined) return loaded;
  const emitWarning = process.emitWarning;
  process.emitWarning = function filtered(this: unknown, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === "string" ? rest[0] : (rest[0] as { type?: unknown } | undefined)?.type;
    const message = typeof warning === "string" ? warning : warning.message;
    const name = typeof warning === "string" ? type : warning.name;
    if (name === "ExperimentalWarning" && EXPERIMENTAL_WARNING.test(message)) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    const sqlite = createRequire(import.meta.url)("node:sqlite") as NodeSqlite;
    // Node 22.13 to 22.15 lack isTransaction and setReturnArrays, which the driver needs.
    if (!("setReturnArrays" in sqlite.StatementSync.prototype)) {
      throw new Error(`node:sqlite of Node ${process.versions.node} has no StatementSync.setReturnArrays`);
    }
    loaded = sqlite;
    return sqlite;
  } finally {
    process.emitWarning = emitWarning;
  }
}

function statement<P extends unknown[], R>(prepared: StatementSync): Statement<P, R> {
  return prepared as unknown as Statement<P, R>;
}

/**
 * Opens an existing file through node:sqlite. The file is opened by URI with `mode=rw`, so a missing file is
 * SQLITE_CANTOPEN as with better-sqlite3's `fileMustExist`, never a new empty database; `defensive` is better-sqlite3's
 * default too (and node:sqlite's on Node 24).
 */
export function openNodeSqlite(file: string): Connection {
  const { DatabaseSync } = loadNodeSqlite();
  const location = pathToFileURL(file);
  location.searchParams.set("mode", "rw");
  const db = new DatabaseSync(location, { defensive: true });
  return {
    driver: "node:sqlite",
    exec: (sql) => db.exec(sql),
    prepare: <P extends unknown[], R>(sql: string) => statement<P, R>(db.prepare(sql)),
    preparePluck: <P extends unknown[], V>(sql: string): Statement<P, V> => {
      const prepared = db.prepare(sql);
      prepared.setReturnArrays(true);
      return {
        run: (...params) => prepared.run(...params) as { changes: number; lastInsertRowid: number | bigint },
        get: (...params) => (prepared.get(...params) as V[] | undefined)?.[0],
        all: (...params) => (prepared.all(...params) as V[][]).map((row) => row[0] as V),
        iterate: function* (...params) {
          for (const row of prepared.iterate(...params) as IterableIterator<V[]>) yield row[0] as V;
        },
      };
    },
    value: (sql) => {
      const prepared = db.prepare(sql);
      prepared.setReturnArrays(true);
      return (prepared.get() as unknown[] | undefined)?.[0];
    },
    get inTransaction() {
      return db.isTransaction;
    },
    close: () => {
      if (db.isOpen) db.close();
    },
  };
}
