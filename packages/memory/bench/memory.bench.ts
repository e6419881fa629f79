// `pnpm bench memory`: the store against the same driver used bare, on the same data, in one run.
//   query: p50 of a store query (words quoted; the BM25 ranking, fetched as ids for the page and up to
//          MAX_COUNTED_MATCHES past it; titles and sources; excerpts for the hits the budget shows; the bounded
//          answer rendered and sanitised) against a bare FTS5 `MATCH … ORDER BY rank LIMIT 11` returning rowids, with
//          the same driver on the same data; target at most 2x.
//   ingest of texts: 10,000 texts of about 2 KB through ingestTexts (validation, hashing, the idempotency lookup)
//          against bare prepared inserts of the same rows into a bare schema (the store's tables, created by plain
//          SQL, no trigger: each entry and its index row inserted directly) in one transaction; target at least 0.5x.
//   ingest of files: a folder of Markdown files through ingestPaths (walking, reading, hashing, chunking, batches)
//          against two floors: the store's own chunks of those files (made beforehand) inserted into the bare schema
//          in one transaction, target at least 0.9x; and the whole files read and inserted into one FTS5 table of the
//          same tokenizer, target at least 0.5x (throughput).
//   a mixed corpus: 2,000 texts, half English words, half Chinese sentences written without spaces. Its ingest
//          through ingestTexts (CJK characters given to the index one word each) against bare inserts of the same
//          index text, target at least 0.5x, and, without a target, against the text indexed as written (what finding
//          CJK words costs); and 200 Chinese words that stand inside sentences, each queried alone:
//          the share whose hits hold every text the word is in, target 1 (all of them).
// Subject and floor alternate (ingest: in blocks; query: word by word, the order flipping every block); the figure
// is the median of per-block ratios, with their spread. Run it pinned: `pnpm bench memory --cpu 0`.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { compareInBlocks } from "../../../bench-support/harness.js";
import { benchNotes, reportRatio } from "../../../bench-support/report.js";
import { quantile, seededRandom } from "../../../bench-support/stats.js";
import { MAX_CHUNK_CHARS, chunkDocument, openMemory, type MemoryText } from "@orphus/memory";
import { createHash } from "node:crypto";
import { connectionOpener } from "../src/store/driver/choose.js";
import { transaction, type Connection, type SqliteDriverName } from "../src/store/driver/connection.js";
import { indexedText } from "../src/store/cjk.js";
import { RANK, TOKENIZER } from "../src/store/schema.js";

benchNotes([
  "Why best of 5 per word: single timings on a shared CPU overstate the ratio by a varying amount, since a longer " +
    "operation is descheduled part-way more often than a shorter one. Two runs timed once each under a load of about " +
    "15 on 2 cores gave 5.1x (blocks 1.5x to 11x) and 3.2x (2.2x to 7.8x).",
  "What the store adds to the bare match, per query of the median word (best of 300 runs, measured apart, " +
    "better-sqlite3 on Node 20): the page's titles and sources in one statement about 35 µs, the 100 ids past the page " +
    "about 20 µs, five entries read and their excerpts found about 35 µs, the sanitiser and the layout about 85 µs. " +
    "Before that work the query was 7.3x (timed once each): FTS5's snippet() for eleven hits, a count(*) of all " +
    "matches and a sanitiser call per field.",
  "The files floor writes into a bare schema with FTS5's own settings; the store's index holds 16 MiB of pending " +
    "data before it writes a segment (FTS5's hashsize, schema version 5; the default is 1 MiB), which alone made the " +
    "bare inserts of these files about 1.4 to 1.5 times as fast. Against a floor given the same setting (measured " +
    "apart, better-sqlite3 on Node 20) the store ran at 0.87x: what it adds is the walk, the reads, the hashes, the " +
    "chunking and the creation of the store.",
  "On Node 24 both sides run on node:sqlite, which the store uses there (better-sqlite3 12 aborts the process on " +
    'Node 24; the package README, "Two SQLite drivers"), so the Node 20 and Node 24 figures compare the store with ' +
    "its own driver on each line, not the two drivers with each other.",
]);

const ENTRIES = 10_000;
const ENTRY_CHARS = 2048;
const random = seededRandom(17);

// A vocabulary with a Zipf-like use: a few words everywhere, most rare, as in real notes.
const vocabulary = Array.from({ length: 20_000 }, (_, i) => {
  let word = "";
  let n = i + 1;
  while (n > 0) {
    word += "bcdfghjklmnprstvz".charAt(n % 17) + "aeiou".charAt((n >> 3) % 5);
    n = Math.floor(n / 23);
  }
  return word;
});
const pick = (): string => vocabulary[Math.floor(vocabulary.length * random() ** 3)] as string;

function text(i: number): MemoryText {
  let body = "";
  while (body.length < ENTRY_CHARS) body += `${pick()}${random() < 0.08 ? ".\n\n" : " "}`;
  return { title: `Note ${i} about ${pick()} and ${pick()}`, body: body.slice(0, ENTRY_CHARS), source: `bench:${i}` };
}
const corpus = Array.from({ length: ENTRIES }, (_, i) => text(i));

const work = mkdtempSync(path.join(tmpdir(), "memory-bench-"));
let dirs = 0;
const freshDir = (): string => path.join(work, `m${dirs++}`);

function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

// ---- ingest ----
/** A fresh file through the driver the store runs on (node:sqlite from Node 24 on, better-sqlite3 before), set up as the store sets its own. */
function bareConnection(driver: SqliteDriverName): Connection {
  const file = path.join(freshDir(), "bare.db");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, "");
  const db = connectionOpener(driver)(file);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA cache_size = -16000");
  return db;
}

/** The store's tables made by plain SQL, with nothing that writes for the caller: no trigger. */
function bareSchema(db: Connection): void {
  db.exec(`CREATE TABLE sources (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, hash TEXT NOT NULL,
    chunks INTEGER NOT NULL, ingested_at INTEGER NOT NULL) STRICT`);
  db.exec(`CREATE TABLE entries (id INTEGER PRIMARY KEY, source_id INTEGER NOT NULL REFERENCES sources(id), part INTEGER NOT NULL,
    title TEXT NOT NULL, tags TEXT NOT NULL, body TEXT NOT NULL, ingested_at INTEGER NOT NULL) STRICT`);
  db.exec("CREATE INDEX entries_by_source ON entries(source_id, part)");
  db.exec(
    `CREATE VIRTUAL TABLE entries_fts USING fts5(title, tags, body, content='entries', content_rowid='id', tokenize='${TOKENIZER}')`,
  );
  db.exec(`INSERT INTO entries_fts(entries_fts, rank) VALUES('rank', '${RANK}')`);
}

/** A source as the floors write it: its name, hash and entries (title, body), made before the clock starts. */
interface BareSource {
  readonly name: string;
  readonly hash: string;
  readonly entries: readonly { readonly title: string; readonly body: string }[];
}

/**
 * Milliseconds to write `sources` into a fresh bare schema in one transaction: each row, then its index row, of the
 * text as written or as `indexed` makes it.
 */
function bareInserts(
  driver: SqliteDriverName,
  sources: readonly BareSource[],
  indexed: (text: string) => string = (text) => text,
): number {
  const db = bareConnection(driver);
  const start = performance.now();
  bareSchema(db);
  const source = db.prepare("INSERT INTO sources (name, kind, hash, chunks, ingested_at) VALUES (?, 'file', ?, ?, ?)");
  const entry = db.prepare(
    "INSERT INTO entries (source_id, part, title, tags, body, ingested_at) VALUES (?, ?, ?, '', ?, ?)",
  );
  const index = db.prepare("INSERT INTO entries_fts (rowid, title, tags, body) VALUES (?, ?, '', ?)");
  transaction(db, "deferred", () => {
    const at = Date.now();
    for (const s of sources) {
      const id = source.run(s.name, s.hash, s.entries.length, at).lastInsertRowid;
      s.entries.forEach((e, part) => {
        const rowid = entry.run(id, part + 1, e.title, e.body, at).lastInsertRowid;
        index.run(rowid, indexed(e.title), indexed(e.body));
      });
    }
  });
  const ms = performance.now() - start;
  db.close();
  return ms;
}

const driver = openMemory({ dir: freshDir(), env: {} }).sqliteDriver;

/** Milliseconds to ingest `texts` into a fresh store. */
function ingestTextsOf(texts: readonly MemoryText[]): number {
  const store = openMemory({ dir: freshDir(), role: "librarian", env: {} });
  const start = performance.now();
  store.ingestTexts(texts);
  const ms = performance.now() - start;
  store.close();
  return ms;
}

/** Texts as the floors write them: one source of one entry each. */
const textSourcesOf = (texts: readonly MemoryText[]): BareSource[] =>
  texts.map((t) => ({ name: t.source ?? "", hash: "h", entries: [{ title: t.title, body: t.body }] }));
const textSources = textSourcesOf(corpus);

// Ingest first, with the block harness: store and bare inserts alternate block by block.
await compareInBlocks({
  name: "memory.ingest-vs-bare-inserts",
  about:
    "ingestTexts of 10,000 texts of about 2 KB into a fresh store, as a share of the speed of bare prepared inserts " +
    "into the same tables and their index rows in one transaction, through the same SQLite driver.",
  unit: "ms per 10,000 entries",
  ratio: "throughput",
  blocks: 5,
  warmupBlocks: 0,
  subject: () => ingestTextsOf(corpus),
  baseline: () => bareInserts(driver, textSources),
  target: { kind: "at-least", value: 0.5 },
  detail: ({ subject, baseline }) =>
    `${ENTRIES} entries: ${subject.toFixed(0)} ms vs ${baseline.toFixed(0)} ms bare (median blocks)`,
});

// A folder of Markdown files of a few sections each, from the same vocabulary: what a librarian ingests.
const FILES = 500;
const filesDir = path.join(work, "files");
mkdirSync(filesDir);
const paragraph = (): string => {
  let text = "";
  const length = 300 + Math.floor(random() * 900);
  while (text.length < length) text += `${pick()}${random() < 0.1 ? "." : ""} `;
  return text.trim();
};
for (let i = 0; i < FILES; i++) {
  const sections = Array.from({ length: 3 + (i % 4) }, (_, s) => {
    const paragraphs = Array.from({ length: 2 + ((i + s) % 3) }, paragraph);
    return `## ${pick()} ${pick()} ${s}\n\n${paragraphs.join("\n\n")}`;
  });
  writeFileSync(
    path.join(filesDir, `note-${String(i).padStart(4, "0")}.md`),
    `# Note ${i} on ${pick()}\n\n${paragraph()}\n\n${sections.join("\n\n")}\n`,
  );
}
const fileNames = Array.from({ length: FILES }, (_, i) => path.join(filesDir, `note-${String(i).padStart(4, "0")}.md`));
// The store's own chunks of those files, titled as the store titles them, made before any clock starts.
const chunkSources: BareSource[] = fileNames.map((file) => {
  const bytes = readFileSync(file);
  const name = path.basename(file);
  return {
    name: file,
    hash: createHash("sha256").update(bytes).digest("hex"),
    entries: chunkDocument(bytes.toString("utf8"), MAX_CHUNK_CHARS).map((chunk) => ({
      title: chunk.heading === "" ? name : `${name} › ${chunk.heading}`,
      body: chunk.text,
    })),
  };
});
const chunkCount = chunkSources.reduce((sum, s) => sum + s.entries.length, 0);
const filesBytes = fileNames.reduce((sum, file) => sum + readFileSync(file).length, 0);

function ingestFilesSubject(): number {
  const store = openMemory({ dir: freshDir(), role: "librarian", env: {} });
  const start = performance.now();
  store.ingestPaths([filesDir]);
  const ms = performance.now() - start;
  store.close();
  return ms;
}

/** Milliseconds to read every file whole and insert it into one FTS5 table of the store's tokenizer, in one transaction. */
function oneTable(): number {
  const db = bareConnection(driver);
  const start = performance.now();
  db.exec(`CREATE VIRTUAL TABLE files USING fts5(path, body, tokenize='${TOKENIZER}')`);
  const insert = db.prepare("INSERT INTO files (path, body) VALUES (?, ?)");
  transaction(db, "deferred", () => {
    for (const file of fileNames) insert.run(file, readFileSync(file, "utf8"));
  });
  const ms = performance.now() - start;
  db.close();
  return ms;
}

const filesDetail = ({ subject, baseline }: { subject: number; baseline: number }): string =>
  `${FILES} files (${(filesBytes / 1e6).toFixed(1)} MB, ${chunkCount} chunks): ${subject.toFixed(0)} ms vs ${baseline.toFixed(0)} ms (median blocks)`;
await compareInBlocks({
  name: "memory.ingest-files-vs-bare-chunks",
  about:
    "ingestPaths of a folder of 500 Markdown files (walk, read, hash, chunk, write) into a fresh store, as a share of " +
    "the speed of inserting the store's own chunks of those files, made beforehand, into a bare schema in one transaction.",
  unit: "ms per 500 files",
  ratio: "throughput",
  blocks: 9,
  warmupBlocks: 1,
  subject: ingestFilesSubject,
  baseline: () => bareInserts(driver, chunkSources),
  target: { kind: "at-least", value: 0.9 },
  detail: filesDetail,
});
await compareInBlocks({
  name: "memory.ingest-files-vs-one-fts5-table",
  about:
    "ingestPaths of the same 500 Markdown files into a fresh store, as a share of the speed of reading each file whole " +
    "and inserting it into one FTS5 table of the store's tokenizer in one transaction.",
  unit: "ms per 500 files",
  ratio: "throughput",
  blocks: 9,
  warmupBlocks: 1,
  subject: ingestFilesSubject,
  baseline: oneTable,
  target: { kind: "at-least", value: 0.5 },
  detail: filesDetail,
});

// ---- a mixed corpus: English words and Chinese sentences, written as Chinese is, without spaces ----
const MIXED_TEXTS = 2_000;
// Words of two or three Han characters, from a seeded pick of the common block.
const hanWords = Array.from({ length: 3_000 }, () =>
  Array.from({ length: 2 + Math.floor(random() * 2) }, () =>
    String.fromCodePoint(0x4e00 + Math.floor(random() * 0x5000)),
  ).join(""),
);
const pickHan = (): string => hanWords[Math.floor(hanWords.length * random() ** 3)] as string;
const mixed: MemoryText[] = Array.from({ length: MIXED_TEXTS }, (_, i) => {
  let body = "";
  while (body.length < ENTRY_CHARS / 2) {
    if (random() < 0.5) body += `${pick()} ${pick()} ${pick()}. `;
    else body += `${Array.from({ length: 4 + Math.floor(random() * 8) }, pickHan).join("")}。`;
  }
  return { title: `Mixed ${i}`, body, source: `mixed:${i}` };
});
const mixedSources = textSourcesOf(mixed);

// What the store adds to writing what the index must hold (CJK characters one word each), target 0.5x; and what
// finding CJK words costs, against the text indexed as written (a CJK run one word), no target.
const mixedFloors = [
  { name: "memory.ingest-mixed-vs-bare-inserts", floor: "the same index text", indexed: indexedText, target: 0.5 },
  {
    name: "memory.ingest-mixed-vs-cjk-as-written",
    floor: "CJK runs as single words",
    indexed: undefined,
    target: undefined,
  },
] as const;
const mixedAbout = (floor: string): string =>
  "ingestTexts of 2,000 texts of about 1 KB, half English words, half Chinese sentences without spaces, as a share of " +
  `the speed of bare inserts of the same rows with ${floor} in the index.`;
for (const { name, floor, indexed, target } of mixedFloors) {
  await compareInBlocks({
    name,
    about: mixedAbout(floor),
    unit: "ms per 2,000 texts",
    ratio: "throughput",
    blocks: 7,
    warmupBlocks: 1,
    subject: () => ingestTextsOf(mixed),
    baseline: () => bareInserts(driver, mixedSources, indexed),
    ...(target === undefined ? {} : { target: { kind: "at-least" as const, value: target } }),
    detail: ({ subject, baseline }) =>
      `${MIXED_TEXTS} texts of about 1 KB, half English, half Chinese: ${subject.toFixed(0)} ms vs ${baseline.toFixed(0)} ms bare, ${floor} (median blocks)`,
  });
}

// Words inside a sentence: 200 Chinese words that stand inside a sentence somewhere, each queried alone. Found when
// the hits hold every text the word stands in (up to the page and the count past it), by a naive substring scan.
{
  const mixedStore = openMemory({ dir: freshDir(), role: "librarian", env: {} });
  mixedStore.ingestTexts(mixed);
  const inside = hanWords.filter((word) =>
    mixed.some((t) => t.body.includes(word) && !t.body.includes(`。${word}`) && !t.body.startsWith(word)),
  );
  const sought = Array.from(
    new Set(Array.from({ length: 200 }, () => inside[Math.floor(random() * inside.length)] as string)),
  );
  let found = 0;
  for (const word of sought) {
    const holding = mixed.filter((t) => t.body.includes(word)).length;
    const answer = mixedStore.query(word, { limit: 50 });
    if (answer.status === "hits" && answer.total >= Math.min(holding, 50)) found++;
  }
  mixedStore.close();
  reportRatio({
    name: "memory.cjk-words-found",
    about:
      "The share of 200 Chinese words of 2 or 3 characters, each standing inside a sentence of a mixed corpus, whose " +
      "query hits hold every text the word is in (up to 50), by a naive substring scan.",
    ratio: found / sought.length,
    target: { kind: "at-least", value: 1 },
    detail: `${found} of ${sought.length} Chinese words of 2–3 characters found inside their sentences, among ${MIXED_TEXTS} mixed texts`,
  });
}

// ---- query ----
const queryDir = freshDir();
const store = openMemory({ dir: queryDir, role: "librarian", env: {} });
store.ingestTexts(corpus);
const bare = connectionOpener(store.sqliteDriver)(path.join(queryDir, "memory.db"));
const bareQuery = bare.prepare("SELECT rowid FROM entries_fts WHERE entries_fts MATCH ? ORDER BY rank LIMIT 11");
// Words from common to rare, so the ranking has a few to thousands of matches to sort.
const queries = Array.from({ length: 40 }, (_, i) => vocabulary[Math.floor(((i + 1) / 41) ** 2 * 3000)] as string);
const QUERY_BLOCKS = 15;
const timed = (run: () => unknown): number => {
  const start = performance.now();
  run();
  return performance.now() - start;
};
const floorQuery = (q: string) => (): unknown => bareQuery.all(`"${q}"`);
const subjectQuery = (q: string) => (): unknown => store.query(q);
// One block times every word RUNS times over and keeps each word's best run, then gives the median word: on a shared
// CPU a run that was descheduled part-way measures the other tenants, and a longer operation is caught by that more
// often than a shorter one. Subject and floor blocks alternate (bench-support/harness.ts).
const RUNS = 5;
const blockOf = (query: (q: string) => () => unknown) => (): number =>
  median(
    queries.map((q) => {
      let best = Number.POSITIVE_INFINITY;
      for (let run = 0; run < RUNS; run++) best = Math.min(best, timed(query(q)));
      return best;
    }),
  );
// Matches per word, counted bare (a store answer stops counting MAX_COUNTED_MATCHES past its page).
const countMatches = bare.preparePluck<[string], number>("SELECT count(*) FROM entries_fts WHERE entries_fts MATCH ?");
const totalMatches = queries.reduce((sum, q) => sum + (countMatches.get(`"${q}"`) ?? 0), 0);
await compareInBlocks({
  name: "memory.query-p50-vs-bare-match",
  about:
    "p50 of a store query (ranking, titles, counts, excerpts, the bounded answer) over 40 words from common to rare, " +
    "against a bare FTS5 MATCH ... ORDER BY rank LIMIT 11 of the same word through the same driver on the same data.",
  unit: "ms (median word, best of 5)",
  blocks: QUERY_BLOCKS,
  warmupBlocks: 2,
  subject: blockOf(subjectQuery),
  baseline: blockOf(floorQuery),
  target: { kind: "at-most", value: 2 },
  detail: ({ subject, baseline }) =>
    `p50 ${subject.toFixed(3)} ms vs ${baseline.toFixed(3)} ms bare MATCH over ${queries.length} words ` +
    `(${Math.round(totalMatches / queries.length)} matches on average; best of ${RUNS} each), ${ENTRIES} entries of ${ENTRY_CHARS} chars`,
});
store.close();
bare.close();
rmSync(work, { recursive: true, force: true });
