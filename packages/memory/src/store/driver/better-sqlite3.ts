// The better-sqlite3 driver: the store's binding on Node 20 and 22, where node:sqlite is missing or experimental.
// Loaded on first use only, never at import: on Node 24 its addon (built against 24.19's headers or later) aborts the
// process from a garbage collection (see the package README, "Two SQLite drivers"), so a process that picks
// node:sqlite must never load it.
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import type { Connection, Statement } from "./connection.js";

let constructor: typeof BetterSqlite3 | undefined;

function load(): typeof BetterSqlite3 {
  constructor ??= createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
  return constructor;
}

/** Opens an existing file through better-sqlite3 (`fileMustExist`: a missing file is SQLITE_CANTOPEN). */
export function openBetterSqlite3(file: string): Connection {
  const Database = load();
  const db = new Database(file, { fileMustExist: true });
  return {
    driver: "better-sqlite3",
    exec: (sql) => void db.exec(sql),
    prepare: <P extends unknown[], R>(sql: string) => db.prepare<P, R>(sql) as Statement<P, R>,
    preparePluck: <P extends unknown[], V>(sql: string) => db.prepare<P, V>(sql).pluck() as Statement<P, V>,
    value: (sql) => db.prepare(sql).pluck().get(),
    get inTransaction() {
      return db.inTransaction;
    },
    close: () => void db.close(),
  };
}
