// Every SQL statement the store runs, prepared once per connection.
import type { Connection } from "./open.js";

/** The part of a better-sqlite3 prepared statement the store uses, with its parameters and row type. */
export interface Statement<P extends unknown[], R> {
  run(...params: P): { changes: number; lastInsertRowid: number | bigint };
  get(...params: P): R | undefined;
  all(...params: P): R[];
}

/** The prepared statements of one connection. */
export function prepareStatements(db: Connection) {
  const prepare = <P extends unknown[], R = unknown>(sql: string): Statement<P, R> => db.prepare<P, R>(sql);
  return {
    sourceByName: prepare<[string], { id: number; hash: string }>("SELECT id, hash FROM sources WHERE name = ?"),
    insertSource: prepare<[string, string, string, number, number]>(
      "INSERT INTO sources (name, kind, hash, chunks, ingested_at) VALUES (?, ?, ?, ?, ?)",
    ),
    updateSource: prepare<[string, string, number, number, number]>(
      "UPDATE sources SET kind = ?, hash = ?, chunks = ?, ingested_at = ? WHERE id = ?",
    ),
    deleteSourceEntries: prepare<[number]>("DELETE FROM entries WHERE source_id = ?"),
    deleteSource: prepare<[number]>("DELETE FROM sources WHERE id = ?"),
    insertEntry: prepare<[number, number, string, string, string, number]>(
      "INSERT INTO entries (source_id, part, title, tags, body, ingested_at) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    entry: prepare<
      [number],
      { id: number; source_id: number; part: number; title: string; tags: string; body: string; ingested_at: number; source: string; chunks: number }
    >(
      "SELECT e.id, e.source_id, e.part, e.title, e.tags, e.body, e.ingested_at, s.name AS source, s.chunks " +
        "FROM entries e JOIN sources s ON s.id = e.source_id WHERE e.id = ?",
    ),
    deleteEntry: prepare<[number]>("DELETE FROM entries WHERE id = ?"),
    // A source missing an entry is no longer what its hash says: its next ingest replaces it whole.
    staleSource: prepare<[number]>("UPDATE sources SET hash = '' WHERE id = ?"),
    sourceEntryCount: prepare<[number], { n: number }>("SELECT count(*) AS n FROM entries WHERE source_id = ?"),
    // FTS5 sorts by rank itself, so LIMIT stops after the top hits and snippet() runs for those only.
    hits: prepare<[string, number, number], { id: number; excerpt: string }>(
      "SELECT rowid AS id, snippet(entries_fts, 2, '', '', '…', 40) AS excerpt FROM entries_fts " +
        "WHERE entries_fts MATCH ? ORDER BY rank LIMIT ? OFFSET ?",
    ),
    hitFacts: prepare<[number], { title: string; part: number; source: string; chunks: number }>(
      "SELECT e.title, e.part, s.name AS source, s.chunks FROM entries e JOIN sources s ON s.id = e.source_id WHERE e.id = ?",
    ),
    matchCount: prepare<[string], { n: number }>("SELECT count(*) AS n FROM entries_fts WHERE entries_fts MATCH ?"),
    anyEntry: prepare<[], { one: number }>("SELECT 1 AS one FROM entries LIMIT 1"),
    counts: prepare<[], { entries: number; sources: number; last: number | null }>(
      "SELECT (SELECT count(*) FROM entries) AS entries, (SELECT count(*) FROM sources) AS sources, " +
        "(SELECT max(ingested_at) FROM sources) AS last",
    ),
  };
}

/** The statements of a connection, by name. */
export type Statements = ReturnType<typeof prepareStatements>;
