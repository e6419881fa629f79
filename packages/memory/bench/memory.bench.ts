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
import Database from "better-sqlite3";
import { quantile, reportRatio, seededRandom } from "../../../bench-support/report.js";
import { openMemory, type MemoryText } from "../src/index.js";

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
  const db = new Database(path.join(dir, "memory.db"));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  const source = db.prepare("INSERT INTO sources (name, kind, hash, chunks, ingested_at) VALUES (?, 'text', ?, 1, ?)");
  const entry = db.prepare("INSERT INTO entries (source_id, part, title, tags, body, ingested_at) VALUES (?, 1, ?, '', ?, ?)");
  const start = performance.now();
  db.transaction(() => {
    const at = Date.now();
    for (const t of corpus) {
      const id = source.run(t.source, "h", at).lastInsertRowid;
      entry.run(id, t.title, t.body, at);
    }
  })();
  const ms = performance.now() - start;
  db.close();
  return ms;
}

const ingestRatios: number[] = [];
const ingestTimes = { subject: [] as number[], floor: [] as number[] };
for (let block = 0; block < 4; block++) {
  const floor = ingestFloor();
  const subject = ingestSubject();
  ingestTimes.floor.push(floor);
  ingestTimes.subject.push(subject);
  ingestRatios.push(floor / subject); // throughput ratio: subject's rate over the floor's
}

// ---- query ----
const queryDir = freshDir();
const store = openMemory({ dir: queryDir, role: "librarian", env: {} });
store.ingestTexts(corpus);
const bare = new Database(path.join(queryDir, "memory.db"), { readonly: true });
const bareQuery = bare.prepare("SELECT rowid FROM entries_fts WHERE entries_fts MATCH ? ORDER BY rank LIMIT 11");
// Words from common to rare, so the ranking has a few to thousands of matches to sort.
const queries = Array.from({ length: 40 }, (_, i) => vocabulary[Math.floor(((i + 1) / 41) ** 2 * 3000)] as string);
const queryRatios: number[] = [];
const perQuery = { subject: [] as number[], floor: [] as number[] };
const QUERY_BLOCKS = 16;
const timed = (run: () => unknown): number => {
  const start = performance.now();
  run();
  return performance.now() - start;
};
const floorQuery = (q: string) => (): unknown => bareQuery.all(`"${q}"`);
const subjectQuery = (q: string) => (): unknown => store.query(q);
for (let warm = 0; warm < 2; warm++) {
  for (const q of queries) {
    timed(subjectQuery(q));
    timed(floorQuery(q));
  }
}
// Each block times every word with both, back to back, RUNS times over (the order within a pair flipping from
// block to block), and keeps each one's best run for the word: on a shared CPU a run that was descheduled part-way
// measures the other tenants, and a longer operation is caught by that more often than a shorter one.
const RUNS = 5;
for (let block = 0; block < QUERY_BLOCKS; block++) {
  const floor: number[] = [];
  const subject: number[] = [];
  for (const q of queries) {
    let bestFloor = Number.POSITIVE_INFINITY;
    let bestSubject = Number.POSITIVE_INFINITY;
    for (let run = 0; run < RUNS; run++) {
      if (block % 2 === 0) {
        bestFloor = Math.min(bestFloor, timed(floorQuery(q)));
        bestSubject = Math.min(bestSubject, timed(subjectQuery(q)));
      } else {
        bestSubject = Math.min(bestSubject, timed(subjectQuery(q)));
        bestFloor = Math.min(bestFloor, timed(floorQuery(q)));
      }
    }
    floor.push(bestFloor);
    subject.push(bestSubject);
  }
  perQuery.floor.push(...floor);
  perQuery.subject.push(...subject);
  queryRatios.push(median(subject) / median(floor));
}
// Matches per word, counted bare (a store answer stops counting MAX_COUNTED_MATCHES past its page).
const countMatches = bare.prepare<[string], number>("SELECT count(*) FROM entries_fts WHERE entries_fts MATCH ?").pluck();
const totalMatches = queries.reduce((sum, q) => sum + (countMatches.get(`"${q}"`) ?? 0), 0);
store.close();
bare.close();
rmSync(work, { recursive: true, force: true });

const spread = (values: readonly number[]): string =>
  `spread ${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
reportRatio({
  name: "memory.query-p50-vs-bare-match",
  ratio: median(queryRatios),
  target: { kind: "at-most", value: 2 },
  detail:
    `p50 ${median(perQuery.subject).toFixed(3)} ms vs ${median(perQuery.floor).toFixed(3)} ms over ${queries.length} words ` +
    `(${Math.round(totalMatches / queries.length)} matches on average) (best of ${RUNS} each) × ${QUERY_BLOCKS} blocks, ${ENTRIES} entries of ${ENTRY_CHARS} chars; ` +
    `median of block ratios, ${spread(queryRatios)}`,
});
reportRatio({
  name: "memory.ingest-vs-bare-inserts",
  ratio: median(ingestRatios),
  target: { kind: "at-least", value: 0.5 },
  detail:
    `${ENTRIES} entries: ${median(ingestTimes.subject).toFixed(0)} ms vs ${median(ingestTimes.floor).toFixed(0)} ms bare ` +
    `(median of 4 alternating blocks), ${spread(ingestRatios)}`,
});
