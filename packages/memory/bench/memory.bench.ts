// `pnpm bench memory`: the store against the same driver used bare, on the same data, in one run.
//   query: p50 of a store query (words quoted; the BM25 ranking, fetched as ids for the page and up to
//          MAX_COUNTED_MATCHES past it; titles and sources; excerpts for the hits the budget shows; the bounded
//          answer rendered and sanitised) against a bare FTS5 `MATCH … ORDER BY rank LIMIT 11` returning rowids, with
//          the same driver on the same data; target at most 2x.
//   ingest: 10,000 texts of about 2 KB through ingestTexts (validation, hashing, the idempotency lookup) against bare
//          prepared inserts into the same tables in one transaction; target at least 0.5x (throughput).
// Subject and floor alternate (ingest: in blocks; query: word by word, the order flipping every block); the figure
// is the median of per-block ratios, with their spread. Run it pinned: `taskset -c 0 pnpm bench memory`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { compareInBlocks } from "../../../bench-support/harness.js";
import { benchNotes } from "../../../bench-support/report.js";
import { quantile, seededRandom } from "../../../bench-support/stats.js";
import { openMemory, type MemoryText } from "@orphus/memory";
import { connectionOpener } from "../src/store/driver/choose.js";
import { transaction } from "../src/store/driver/connection.js";

benchNotes([
  "Why best of 5 per word: single timings on a shared CPU overstate the ratio by a varying amount, since a longer " +
    "operation is descheduled part-way more often than a shorter one. Two runs timed once each under a load of about " +
    "15 on 2 cores gave 5.1x (blocks 1.5x to 11x) and 3.2x (2.2x to 7.8x).",
  "What the store adds to the bare match, per query of the median word (best of 300 runs, measured apart, " +
    "better-sqlite3 on Node 20): the page's titles and sources in one statement about 35 µs, the 100 ids past the page " +
    "about 20 µs, five entries read and their excerpts found about 35 µs, the sanitiser and the layout about 85 µs. " +
    "Before that work the query was 7.3x (timed once each): FTS5's snippet() for eleven hits, a count(*) of all " +
    "matches and a sanitiser call per field.",
  "On Node 24 both sides run on node:sqlite, which the store uses there (better-sqlite3 12 aborts the process on " +
    "Node 24; the package README, \"Two SQLite drivers\"), so the Node 20 and Node 24 figures compare the store with " +
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
function ingestSubject(): number {
  const store = openMemory({ dir: freshDir(), role: "librarian", env: {} });
  const start = performance.now();
  store.ingestTexts(corpus);
  const ms = performance.now() - start;
  store.close();
  return ms;
}

function ingestFloor(): number {
  // The same tables, made by the store, then filled bare: one transaction of prepared inserts.
  const dir = freshDir();
  const store = openMemory({ dir, role: "librarian", env: {} });
  store.ingestTexts([{ title: "x", body: "x", source: "x" }]);
  store.forget({ source: "x" });
  store.close();
  // The driver the store runs on (node:sqlite from Node 24 on, better-sqlite3 before).
  const db = connectionOpener(store.sqliteDriver)(path.join(dir, "memory.db"));
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  const source = db.prepare("INSERT INTO sources (name, kind, hash, chunks, ingested_at) VALUES (?, 'text', ?, 1, ?)");
  const entry = db.prepare("INSERT INTO entries (source_id, part, title, tags, body, ingested_at) VALUES (?, 1, ?, '', ?, ?)");
  const start = performance.now();
  transaction(db, "deferred", () => {
    const at = Date.now();
    for (const t of corpus) {
      const id = source.run(t.source, "h", at).lastInsertRowid;
      entry.run(id, t.title, t.body, at);
    }
  });
  const ms = performance.now() - start;
  db.close();
  return ms;
}

// Ingest first, with the block harness: store and bare inserts alternate block by block.
await compareInBlocks({
  name: "memory.ingest-vs-bare-inserts",
  about:
    "ingestTexts of 10,000 texts of about 2 KB into a fresh store, as a share of the speed of bare prepared inserts " +
    "into the same tables in one transaction, through the same SQLite driver.",
  unit: "ms per 10,000 entries",
  ratio: "throughput",
  blocks: 5,
  warmupBlocks: 0,
  subject: ingestSubject,
  baseline: ingestFloor,
  target: { kind: "at-least", value: 0.5 },
  detail: ({ subject, baseline }) => `${ENTRIES} entries: ${subject.toFixed(0)} ms vs ${baseline.toFixed(0)} ms bare (median blocks)`,
});

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
