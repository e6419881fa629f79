// Which SQLite driver a store opens with. The choice is the process's, not the store's: it decides which native
// code this process loads, and better-sqlite3 must never be loaded on a Node where it aborts the process.
import { MemoryInputError } from "../../errors.js";
import { openBetterSqlite3 } from "./better-sqlite3.js";
import type { OpenConnection, SqliteDriverName } from "./connection.js";
import { loadNodeSqlite, openNodeSqlite } from "./node-sqlite.js";

/** The environment variable that forces a driver for this process (tests, diagnosis): `node:sqlite` or `better-sqlite3`. */
export const SQLITE_DRIVER_ENV = "ORPHUS_MEMORY_SQLITE_DRIVER";

/** Every driver the store can run on. */
export const SQLITE_DRIVERS: readonly SqliteDriverName[] = ["node:sqlite", "better-sqlite3"];

const OPENERS: Readonly<Record<SqliteDriverName, OpenConnection>> = {
  "node:sqlite": openNodeSqlite,
  "better-sqlite3": openBetterSqlite3,
};

/**
 * The driver a Node release uses unless told otherwise: node:sqlite from Node 24 on (better-sqlite3 12 aborts the
 * process on every Node 24 once its addon is built against 24.19's headers or later), better-sqlite3 before (Node 20
 * has no node:sqlite; Node 22's is experimental and warns).
 */
export function defaultSqliteDriver(nodeVersion: string = process.versions.node): SqliteDriverName {
  return Number(nodeVersion.split(".")[0]) >= 24 ? "node:sqlite" : "better-sqlite3";
}

/** The driver to use: the option, else {@link SQLITE_DRIVER_ENV} of process.env, else the Node release's default. */
export function resolveSqliteDriver(
  option: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): SqliteDriverName {
  const [what, requested] =
    option !== undefined ? ["sqliteDriver", option] : [SQLITE_DRIVER_ENV, env[SQLITE_DRIVER_ENV]];
  if (requested === undefined || requested === "") return defaultSqliteDriver();
  if (!(SQLITE_DRIVERS as readonly string[]).includes(requested)) {
    throw new MemoryInputError(what, SQLITE_DRIVERS.map((name) => JSON.stringify(name)).join(" or "), requested);
  }
  if (requested === "node:sqlite") {
    try {
      loadNodeSqlite();
    } catch (error) {
      const expected = `"better-sqlite3" (node:sqlite runs the store from Node 22.16 on; ${(error as Error).message})`;
      throw new MemoryInputError(what, expected, requested, { cause: error });
    }
  }
  return requested as SqliteDriverName;
}

/** The function that opens a connection through `driver`. */
export function connectionOpener(driver: SqliteDriverName): OpenConnection {
  return OPENERS[driver];
}
