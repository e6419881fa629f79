// Every SQL statement the store runs, prepared once per connection.
import { indexedText } from "./cjk.js";
import { RANK } from "./schema.js";
import type { Connection, Statement } from "./driver/connection.js";

/** What a hit's header shows besides its id. */
export interface HitFactsRow {
  readonly id: number;
  readonly title: string;
  readonly part: number;
  readonly source: string;
  /** The source's label, or its name when it has none. */
  readonly label: string;
  readonly chunks: number;
}

/** An entry's text as its index row holds it. */
export interface IndexedEntry {
  readonly id: number;
  readonly title: string;
  readonly tags: string;
  readonly body: string;
}

/** The rank function as an expression of the index's rows (`bm25(entries_fts, …)`). */
const RANKED_BY = RANK.replace("(", "(entries_fts, ");

/** The prepared statements of one connection. */
export function prepareStatements(db: Connection) {
  const prepare = <P extends unknown[], R = unknown>(sql: string): Statement<P, R> => db.prepare<P, R>(sql);
  // One statement per number of hits (at most MAX_QUERY_LIMIT of them), prepared on first use: a page of hits'
  // facts in one step rather than one step a hit.
  const factsByCount = new Map<number, Statement<number[], HitFactsRow>>();
  const hitFacts = (ids: readonly number[]): HitFactsRow[] => {
    if (ids.length === 0) return [];
    let statement = factsByCount.get(ids.length);
    if (statement === undefined) {
      statement = prepare<number[], HitFactsRow>(
        "SELECT e.id, e.title, e.part, s.name AS source, CASE s.label WHEN '' THEN s.name ELSE s.label END AS label, s.chunks " +
          "FROM entries e JOIN sources s ON s.id = e.source_id " +
          `WHERE e.id IN (${"?, ".repeat(ids.length - 1)}?)`,
      );
      factsByCount.set(ids.length, statement);
    }
    return statement.all(...ids);
  };
  // The full-text index is external content (it keeps no copy of the text) and is written here, in the same
  // transaction as the entries, by every path that adds or removes them; no trigger does it. Each index row is its
  // own single-row INSERT ... VALUES: FTS5 writes its pending terms out as a new segment at the end of any statement
  // that runs under a statement savepoint (a trigger's, an INSERT ... SELECT's), and an AFTER INSERT trigger cost
  // 2.7 times a direct insert for that. The index is given CJK characters one word each (cjk.ts), so its values are
  // not the row's when the row holds CJK text; removing an index row takes the values it was written with, made
  // again from the row the same way.
  const insertEntry = prepare<[number, number, string, string, string, number]>(
    "INSERT INTO entries (source_id, part, title, tags, body, ingested_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const indexEntry = prepare<[number, string, string, string]>(
    "INSERT INTO entries_fts (rowid, title, tags, body) VALUES (?, ?, ?, ?)",
  );
  const unindexEntry = prepare<[number, string, string, string]>(
    "INSERT INTO entries_fts (entries_fts, rowid, title, tags, body) VALUES ('delete', ?, ?, ?, ?)",
  );
  const sourceEntries = prepare<[number], IndexedEntry>(
    "SELECT id, title, tags, body FROM entries WHERE source_id = ?",
  );
  const indexedEntry = prepare<[number], IndexedEntry>("SELECT id, title, tags, body FROM entries WHERE id = ?");
  const deleteSourceEntries = prepare<[number]>("DELETE FROM entries WHERE source_id = ?");
  const deleteEntry = prepare<[number]>("DELETE FROM entries WHERE id = ?");
  const unindex = (entry: IndexedEntry): void =>
    void unindexEntry.run(entry.id, indexedText(entry.title), indexedText(entry.tags), indexedText(entry.body));
  return {
    /** Adds a source's entries, each with its index row. */
    addEntries(sourceId: number, entries: readonly Omit<IndexedEntry, "id">[], at: number): void {
      entries.forEach((entry, part) => {
        const id = Number(insertEntry.run(sourceId, part + 1, entry.title, entry.tags, entry.body, at).lastInsertRowid);
        indexEntry.run(id, indexedText(entry.title), indexedText(entry.tags), indexedText(entry.body));
      });
    },
    /** Removes every entry of a source and their index rows; returns how many. */
    removeSourceEntries(sourceId: number): number {
      for (const entry of sourceEntries.all(sourceId)) unindex(entry);
      return deleteSourceEntries.run(sourceId).changes;
    },
    /** Removes one entry and its index row. */
    removeEntry(id: number): void {
      const entry = indexedEntry.get(id);
      if (entry !== undefined) unindex(entry);
      deleteEntry.run(id);
    },
    hitFacts,
    sourceByName: prepare<[string], { id: number; hash: string; label: string }>(
      "SELECT id, hash, label FROM sources WHERE name = ?",
    ),
    insertSource: prepare<[string, string, string, string, number, number]>(
      "INSERT INTO sources (name, label, kind, hash, chunks, ingested_at) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    updateSource: prepare<[string, string, string, number, number, number]>(
      "UPDATE sources SET label = ?, kind = ?, hash = ?, chunks = ?, ingested_at = ? WHERE id = ?",
    ),
    relabelSource: prepare<[string, number]>("UPDATE sources SET label = ? WHERE id = ?"),
    deleteSource: prepare<[number]>("DELETE FROM sources WHERE id = ?"),
    entry: prepare<
      [number],
      {
        id: number;
        source_id: number;
        part: number;
        title: string;
        tags: string;
        body: string;
        ingested_at: number;
        source: string;
        chunks: number;
      }
    >(
      "SELECT e.id, e.source_id, e.part, e.title, e.tags, e.body, e.ingested_at, s.name AS source, s.chunks " +
        "FROM entries e JOIN sources s ON s.id = e.source_id WHERE e.id = ?",
    ),
    // A source missing an entry is no longer what its hash says: its next ingest replaces it whole.
    staleSource: prepare<[number]>("UPDATE sources SET hash = '' WHERE id = ?"),
    sourceEntryCount: prepare<[number], { n: number }>("SELECT count(*) AS n FROM entries WHERE source_id = ?"),
    // The ranking alone, ids only, as bare as a MATCH can be: excerpts are found afterwards, for the hits shown.
    // By the rank function in SQL's own sort rather than FTS5's `ORDER BY rank`: the same order, about a sixth faster.
    hits: db.preparePluck<[string, number, number], number>(
      `SELECT rowid FROM entries_fts WHERE entries_fts MATCH ? ORDER BY ${RANKED_BY} LIMIT ? OFFSET ?`,
    ),
    // The ranking of the newest matches (a given number of them): when there are too many to rank them all. The
    // newest are taken in rowid order first and ranked after; a rowid bound (`rowid >= ?`) makes FTS5 seek every
    // segment's list of each word, which cost 20 to 40 ms at 1,000,000 entries for the same 2,000 entries that the
    // newest-first scan reads in 1 to 7 ms.
    // With each hit, how many of the newest were ranked (all the matches when fewer than the limit), so one scan
    // says both what to show and whether more matched.
    hitsNewest: prepare<[string, number, number, number], { id: number; ranked: number }>(
      `SELECT rowid AS id, count(*) OVER () AS ranked FROM (SELECT rowid, ${RANKED_BY} AS score FROM entries_fts ` +
        "WHERE entries_fts MATCH ? ORDER BY rowid DESC LIMIT ?) ORDER BY score, rowid LIMIT ? OFFSET ?",
    ),
    // Every match with its score, newest first: read until the entries sought are passed.
    scoredNewestFirst: prepare<[string], { id: number; score: number }>(
      `SELECT rowid AS id, ${RANKED_BY} AS score FROM entries_fts WHERE entries_fts MATCH ? ORDER BY rowid DESC`,
    ),
    // The newest matches (at most that many), unranked.
    newestMatches: db.preparePluck<[string, number], number>(
      "SELECT rowid FROM entries_fts WHERE entries_fts MATCH ? ORDER BY rowid DESC LIMIT ?",
    ),
    // The rowid of the match that many places from the newest, in rowid order (no ranking): undefined when fewer match.
    newestMatch: db.preparePluck<[string, number], number>(
      "SELECT rowid FROM entries_fts WHERE entries_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?",
    ),
    body: prepare<[number], { body: string }>("SELECT body FROM entries WHERE id = ?"),
    // Counting stops at the cap it is given.
    matchCount: prepare<[string, number], { n: number }>(
      "SELECT count(*) AS n FROM (SELECT 1 FROM entries_fts WHERE entries_fts MATCH ? LIMIT ?)",
    ),
    newestId: db.preparePluck<[], number>("SELECT max(id) FROM entries"),
    anyEntry: prepare<[], { one: number }>("SELECT 1 AS one FROM entries LIMIT 1"),
    counts: prepare<[], { entries: number; sources: number; last: number | null }>(
      "SELECT (SELECT count(*) FROM entries) AS entries, (SELECT count(*) FROM sources) AS sources, " +
        "(SELECT max(ingested_at) FROM sources) AS last",
    ),
  };
}

/** The statements of a connection, by name. */
export type Statements = ReturnType<typeof prepareStatements>;
