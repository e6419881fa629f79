// Raw SQLite connections for tests (crafting foreign files, reading what the store wrote), through the store's own
// driver seam: a test must never load better-sqlite3 on a Node where the store would not, since that aborts it.
import { closeSync, openSync } from "node:fs";
import { connectionOpener, resolveSqliteDriver } from "../../src/store/driver/choose.js";
import type { Connection, SqliteDriverName } from "../../src/store/driver/connection.js";
import { loadNodeSqlite } from "../../src/store/driver/node-sqlite.js";

/** The drivers this process can run: node:sqlite where it can run the store, better-sqlite3 before Node 24. */
export function loadableDrivers(): SqliteDriverName[] {
  const drivers: SqliteDriverName[] = [];
  try {
    loadNodeSqlite();
    drivers.push("node:sqlite");
  } catch {
    // Node 20 has none; Node 22.13 to 22.15 lack what the driver needs.
  }
  // On Node 24 better-sqlite3 12 built against 24.19's headers or later aborts from a garbage collection.
  if (Number(process.versions.node.split(".")[0]) < 24) drivers.push("better-sqlite3");
  return drivers;
}

/** A connection to `file` (created empty when absent) through `driver`, default the one the store would use. */
export function rawConnection(file: string, driver: SqliteDriverName = resolveSqliteDriver(undefined)): Connection {
  closeSync(openSync(file, "a"));
  return connectionOpener(driver)(file);
}

/**
 * Whether the full-text index of the store at `file` holds exactly what its entries hold (FTS5's integrity check
 * against the content table): "ok", or SQLite's complaint. Meaningful for text the index takes as it is (no CJK).
 */
export function indexCheck(file: string): string {
  const db = rawConnection(file);
  try {
    db.exec("INSERT INTO entries_fts(entries_fts, rank) VALUES ('integrity-check', 1)");
    return "ok";
  } catch (error) {
    return (error as Error).message;
  } finally {
    db.close();
  }
}

/** The names of the triggers in the store at `file`. */
export function triggers(file: string): string[] {
  const db = rawConnection(file);
  try {
    return db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
      .all()
      .map((row) => row.name);
  } finally {
    db.close();
  }
}
