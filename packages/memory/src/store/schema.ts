// The store's schema, as migrations from the first release on. A migration is applied once, in order, inside one
// write transaction that re-reads the version first, so two processes opening an old store at once migrate it once.

import { hasCjk, indexedText } from "./cjk.js";
import type { Connection } from "./driver/connection.js";

/** One step of the schema: what to run to go from `version - 1` to `version`. */
export interface Migration {
  readonly version: number;
  readonly statements: readonly string[];
}

/** A step of the package's own schema, which may also run what SQL alone cannot do (after its statements, in the same transaction). */
export interface StoreMigration extends Migration {
  readonly run?: (db: Connection) => void;
}

/** An entry's text, as the index holds it. */
interface EntryText {
  readonly id: number;
  readonly title: string;
  readonly tags: string;
  readonly body: string;
}

/** Gives the index the entries holding CJK text again, with CJK characters one word each (cjk.ts). */
function reindexCjk(db: Connection): void {
  const remove = db.prepare<[number, string, string, string]>(
    "INSERT INTO entries_fts (entries_fts, rowid, title, tags, body) VALUES ('delete', ?, ?, ?, ?)",
  );
  const add = db.prepare<[number, string, string, string]>(
    "INSERT INTO entries_fts (rowid, title, tags, body) VALUES (?, ?, ?, ?)",
  );
  // A page of entries at a time, so a large store is never read into memory whole.
  const page = db.prepare<[number], EntryText>(
    "SELECT id, title, tags, body FROM entries WHERE id > ? ORDER BY id LIMIT 500",
  );
  for (
    let entries = page.all(0);
    entries.length > 0;
    entries = page.all((entries[entries.length - 1] as EntryText).id)
  ) {
    for (const entry of entries) {
      if (!hasCjk(entry.title) && !hasCjk(entry.tags) && !hasCjk(entry.body)) continue;
      remove.run(entry.id, entry.title, entry.tags, entry.body);
      add.run(entry.id, indexedText(entry.title), indexedText(entry.tags), indexedText(entry.body));
    }
  }
}

/**
 * The tokenizer of the full-text index. A word is a run of letters, digits (Unicode categories L and N) and
 * private-use characters; everything else separates words. Case and diacritics are ignored, and English endings are
 * stemmed (Porter), so "Ingesting" finds "ingest". A query word matches an indexed word when both reduce to the same
 * stem.
 */
export const TOKENIZER = "porter unicode61 remove_diacritics 2";

/** BM25 column weights: a word in the title counts 4 times, in the tags twice, in the body once. */
export const RANK = "bm25(4.0, 2.0, 1.0)";

/**
 * Bytes of pending index data FTS5 holds in memory before it writes them out as a segment (its `hashsize`; SQLite's
 * default is 1 MiB). A segment written every megabyte makes a large transaction write many small segments, which its
 * automatic merges then read and write again; 16 MiB lets a batch of an ingest of paths (about 4 MB of text) reach its
 * commit as one segment, and bounds what a writing connection holds for the index.
 */
export const INDEX_PENDING_BYTES = 16 * 1024 * 1024;

/** The sources table as version 1 made it; version 3 adds `label` (its last column). */
const SOURCES_COLUMNS = `id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('file', 'text')),
        hash TEXT NOT NULL,
        chunks INTEGER NOT NULL,
        ingested_at INTEGER NOT NULL`;

/** Version 3's column of the sources table. */
const LABEL_COLUMN = "label TEXT NOT NULL DEFAULT ''";

/** The entries, their lookup by source and their full-text index, as every version has them. */
const ENTRY_TABLES = [
  `CREATE TABLE entries (
        id INTEGER PRIMARY KEY,
        source_id INTEGER NOT NULL REFERENCES sources(id),
        part INTEGER NOT NULL,
        title TEXT NOT NULL,
        tags TEXT NOT NULL,
        body TEXT NOT NULL,
        ingested_at INTEGER NOT NULL
      ) STRICT`,
  "CREATE INDEX entries_by_source ON entries(source_id, part)",
  `CREATE VIRTUAL TABLE entries_fts USING fts5(title, tags, body, content='entries', content_rowid='id', tokenize='${TOKENIZER}')`,
  `INSERT INTO entries_fts(entries_fts, rank) VALUES('rank', '${RANK}')`,
];

/** Sets INDEX_PENDING_BYTES in the index's configuration. */
const INDEX_PENDING_SETTING = `INSERT INTO entries_fts(entries_fts, rank) VALUES('hashsize', ${INDEX_PENDING_BYTES})`;

/** Every migration, oldest first; the last one's version is SCHEMA_VERSION. */
export const MIGRATIONS: readonly StoreMigration[] = [
  {
    version: 1,
    statements: [
      `CREATE TABLE sources (
        ${SOURCES_COLUMNS}
      ) STRICT`,
      ...ENTRY_TABLES,
      `CREATE TRIGGER entries_ai AFTER INSERT ON entries BEGIN
        INSERT INTO entries_fts(rowid, title, tags, body) VALUES (new.id, new.title, new.tags, new.body);
      END`,
      `CREATE TRIGGER entries_ad AFTER DELETE ON entries BEGIN
        INSERT INTO entries_fts(entries_fts, rowid, title, tags, body) VALUES ('delete', old.id, old.title, old.tags, old.body);
      END`,
    ],
  },
  {
    // The store writes the index itself, beside each entry it adds or removes (statements.ts): the insert trigger
    // cost 2.7 times a direct insert. The index the triggers kept is what the store keeps, so it stays as it is.
    version: 2,
    statements: ["DROP TRIGGER entries_ai", "DROP TRIGGER entries_ad"],
  },
  {
    // What a hit shows for its source: a file's path from the folder above the one an ingest was given, shorter than
    // the absolute name that identifies it; empty shows the name (texts, and files ingested before this version).
    version: 3,
    statements: [`ALTER TABLE sources ADD COLUMN ${LABEL_COLUMN}`],
  },
  {
    // CJK characters are one word each in the index (cjk.ts), so words inside a CJK sentence can be found: the
    // entries written before, whose CJK runs the index holds as single words, are given to it again.
    version: 4,
    statements: [],
    run: reindexCjk,
  },
  {
    // Fewer, larger index segments from a large ingest (INDEX_PENDING_BYTES): the setting lives in the index's own
    // configuration table, so one row gives it to every connection.
    version: 5,
    statements: [INDEX_PENDING_SETTING],
  },
];

/**
 * The newest schema made at once, for a new store: what MIGRATIONS leave on an empty file (the same tables, columns
 * in the same order, no trigger), without creating and dropping triggers, altering a table and reindexing nothing.
 */
export const LATEST_SCHEMA: Migration = {
  version: MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0,
  statements: [
    `CREATE TABLE sources (\n        ${SOURCES_COLUMNS},\n        ${LABEL_COLUMN}\n      ) STRICT`,
    ...ENTRY_TABLES,
    INDEX_PENDING_SETTING,
  ],
};
