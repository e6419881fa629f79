// What the store needs of an SQLite binding, so that it runs on either: Node's built-in node:sqlite or better-sqlite3.
// Everything the store does goes through these few calls, and every setting that changes behaviour or the file
// (WAL, synchronous, the busy timeout, application_id, user_version) is made by the store itself in SQL, the same on
// both. Transactions are one function over `exec`, so both drivers begin, commit and roll back alike.

/** The SQLite bindings the store can run on. */
export type SqliteDriverName = "node:sqlite" | "better-sqlite3";

/** A prepared statement with its parameters and row type. */
export interface Statement<P extends unknown[], R> {
  run(...params: P): { changes: number; lastInsertRowid: number | bigint };
  get(...params: P): R | undefined;
  all(...params: P): R[];
  /** The rows one at a time: a caller that stops early leaves the rest unread (the statement is reset). */
  iterate(...params: P): IterableIterator<R>;
}

/** An open connection to one database file. */
export interface Connection {
  /** Which binding this connection runs on. */
  readonly driver: SqliteDriverName;
  /** Runs one or more statements that return nothing the caller reads. */
  exec(sql: string): void;
  /** A statement whose rows are objects keyed by column name. */
  prepare<P extends unknown[], R = unknown>(sql: string): Statement<P, R>;
  /** A statement whose rows are its first column's values. */
  preparePluck<P extends unknown[], V = unknown>(sql: string): Statement<P, V>;
  /** The first column of the first row `sql` returns (a pragma's value), or undefined when it returns none. */
  value(sql: string): unknown;
  /** Whether a transaction is open (SQLite's autocommit mode is off). */
  readonly inTransaction: boolean;
  /** Closes the connection; closing it again does nothing. */
  close(): void;
}

/** How a driver opens a file: it must exist (a driver never creates one), and may be any path. */
export type OpenConnection = (file: string) => Connection;

/**
 * Runs `fn` in one transaction and commits it, or rolls back when `fn` throws (or the commit fails), as
 * better-sqlite3's `db.transaction(fn)[mode]()` does; `immediate` takes the write lock at the start, so a writer
 * that must wait waits (up to the busy timeout) before reading anything it bases its writes on.
 */
export function transaction<T>(db: Connection, mode: "deferred" | "immediate", fn: () => T): T {
  db.exec(mode === "immediate" ? "BEGIN IMMEDIATE" : "BEGIN");
  try {
    const result = fn();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    // SQLite may have rolled back already (some errors end the transaction themselves).
    if (db.inTransaction) db.exec("ROLLBACK");
    throw error;
  }
}
