import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import * as path from "node:path";
import { AGENT_DIR_ENV, resolveMemoryDir, roleFromEnv, ROLE_ENV, type EnvLike } from "@orphus/agent-env";
import { EntryNotFoundError, MemoryInputError, NotLibrarianError, StoreMissingError } from "../errors.js";
import { chunkDocument } from "../ingest/chunk.js";
import { findFiles, readTextFile, skippedPath, type SkipKind, type SkippedPath } from "../ingest/files.js";
import {
  BUSY_TIMEOUT_MS,
  DEFAULT_GET_PAGE_CHARS,
  DEFAULT_QUERY_BUDGET,
  DEFAULT_QUERY_LIMIT,
  EXCERPT_MAX_CHARS,
  LIBRARIAN_ROLE,
  MAX_CHUNK_CHARS,
  MAX_COUNTED_MATCHES,
  MAX_GET_PAGE_CHARS,
  MAX_LISTED_SKIPS,
  MAX_QUERY_BUDGET,
  MAX_QUERY_CHARS,
  MAX_QUERY_LIMIT,
  MAX_RANKED_MATCHES,
  RANKING_WORD_SHARE,
  MAX_SOURCE_CHARS,
  MAX_TAG_CHARS,
  MAX_TAGS,
  MAX_TEXT_CHARS,
  MAX_TEXTS_PER_INGEST,
  MAX_TITLE_CHARS,
  SCHEMA_VERSION,
  STORE_FILE_NAME,
} from "../limits.js";
import {
  emptyStoreText,
  markerLine,
  missingStoreText,
  noMatchText,
  noWordsText,
  plural,
  quotedSource,
  renderEntryPage,
  renderQuery,
  skipCountsLine,
  skippedLines,
  type EntryFacts,
  type HitRow,
} from "../render/answers.js";
import { ExcerptFinder } from "./excerpt.js";
import { resolveSqliteDriver } from "./driver/choose.js";
import { transaction, type SqliteDriverName } from "./driver/connection.js";
import { openStoreFile, schemaVersion, storeExists, storeFailure, type Connection } from "./open.js";
import { queryWords } from "./query-text.js";
import type { Migration } from "./schema.js";
import { prepareStatements, type Statements } from "./statements.js";

/** Options of {@link openMemory}. */
export interface MemoryOptions {
  /** The memory directory; default `ORPHUS_MEMORY_DIR`, else `<agent dir>/memory` (see @orphus/agent-env). */
  readonly dir?: string;
  /** The role this caller acts as; default `ORPHUS_ROUNDTABLE_ROLE`. Only `librarian` may ingest and forget. */
  readonly role?: string;
  /**
   * Where `role` came from, as a refusal names it (`this session's role is "critic" (from the session name)`); default
   * `option`. A host that resolves the role its own way (a pi session's flag or name) says which, and, without a
   * role, why it has none.
   */
  readonly roleSource?: string;
  /** Where the directory and the role are resolved from; default process.env. */
  readonly env?: EnvLike;
  /**
   * The agent directory, when the host was given it otherwise than by `ORPHUS_CODING_AGENT_DIR` (a flag, an option):
   * it takes the variable's place (the store is `<agentDir>/memory/memory.db` unless `ORPHUS_MEMORY_DIR` is set), and
   * answers credit the location to `agentDirSource`.
   */
  readonly agentDir?: string;
  /** What gave `agentDir`, as answers name it (`--agent-dir`); default `the agentDir option`. */
  readonly agentDirSource?: string;
  /** How long a statement waits for another writer; default {@link BUSY_TIMEOUT_MS}. */
  readonly busyTimeoutMs?: number;
  /** The clock stamping ingests, in ms since the epoch; default Date.now. */
  readonly now?: () => number;
  /** Schema migrations; default the package's own (tests add later versions). */
  readonly migrations?: readonly Migration[];
  /**
   * The SQLite driver; default `ORPHUS_MEMORY_SQLITE_DRIVER` of process.env, else node:sqlite from Node 24 on and
   * better-sqlite3 before (see the README, "Two SQLite drivers"). Both read and write the same file format.
   */
  readonly sqliteDriver?: SqliteDriverName;
}

/** Where a store lives and where that came from. */
export interface MemoryLocation {
  readonly dir: string;
  /** The store file: `<dir>/memory.db`. */
  readonly path: string;
  /** `option`, `ORPHUS_MEMORY_DIR`, `ORPHUS_CODING_AGENT_DIR`, what gave the `agentDir` option (`--agent-dir`) or `default`. */
  readonly source: string;
}

/** Where the options put the memory directory, and where that came from, by the one resolution of @orphus/agent-env. */
function memoryDirOf(options: MemoryOptions, env: EnvLike): { readonly dir: string; readonly source: string } {
  if (options.dir !== undefined) return { dir: path.resolve(options.dir), source: "option" };
  if (options.agentDir === undefined) return resolveMemoryDir(env);
  const resolved = resolveMemoryDir({ ...env, [AGENT_DIR_ENV]: options.agentDir });
  return resolved.source === AGENT_DIR_ENV
    ? { dir: resolved.dir, source: options.agentDirSource ?? "the agentDir option" }
    : resolved;
}

/** A text to ingest: one entry. */
export interface MemoryText {
  /** Shown in every hit; 1 to MAX_TITLE_CHARS characters. */
  readonly title: string;
  /** The entry's text; at most MAX_TEXT_CHARS characters, else it is skipped. */
  readonly body: string;
  readonly tags?: readonly string[];
  /**
   * What the text is about or came from (an ADR name, a URL). A later ingest under the same source replaces it;
   * without one the source is `note:<hash>`, so the same text ingested twice is stored once.
   */
  readonly source?: string;
}

/** Progress of an ingest of paths, reported after each file. */
export interface IngestProgress {
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly entriesAdded: number;
  /** Files skipped so far, those inside skipped folders included. */
  readonly skipped: number;
}

/** Options of {@link MemoryStore.ingestPaths}. */
export interface IngestPathsOptions {
  readonly onProgress?: (progress: IngestProgress) => void;
}

/** What an ingest did. */
export interface IngestReport {
  readonly store: string;
  /** Sources new to the store, sources whose content changed (entries replaced), sources unchanged (no-op). */
  readonly added: number;
  readonly replaced: number;
  readonly unchanged: number;
  readonly entriesAdded: number;
  readonly entriesRemoved: number;
  /** Files (or texts) skipped, those inside skipped folders included (counted, not read). */
  readonly skippedCount: number;
  /** Skipped files by why: how many of `skippedCount` each kind of skip stands for. */
  readonly skippedByKind: Readonly<Partial<Record<SkipKind, number>>>;
  /** False when counting the files inside skipped folders stopped at its bound: the counts are then lower bounds. */
  readonly skippedCountExact: boolean;
  /** The first MAX_LISTED_SKIPS skips (a skipped folder as one, with its count), each with its reason and kind. */
  readonly skipped: readonly SkippedPath[];
  /** A summary for a person or a model. */
  readonly text: string;
}

/** Options of {@link MemoryStore.query}. */
export interface QueryOptions {
  /** Characters the hits may take (the marker line is extra); default DEFAULT_QUERY_BUDGET. */
  readonly budget?: number;
  /** Most hits to show; default DEFAULT_QUERY_LIMIT. */
  readonly limit?: number;
  /** Hits of the ranking to pass over (the marker of a previous answer names it); default 0. */
  readonly offset?: number;
}

/** One hit of a query. */
export interface MemoryHit {
  readonly id: number;
  readonly title: string;
  /** The source's name: what identifies it (a file's absolute path), and what `forget` takes. */
  readonly source: string;
  /** What the answer shows for the source: a file's path from the folder above the one its ingest was given; else the name. */
  readonly label: string;
  readonly part: number;
  readonly parts: number;
  /**
   * The passage around the words the query matched, raw (the answer text shows it sanitised and cut to fit); only
   * for the hits whose excerpt the answer shows, since finding one reads the entry.
   */
  readonly excerpt?: string;
}

/** What a query found: `missing` (no store), `empty` (a store with nothing in it), `no-match`, `no-words`, or `hits`. */
export type QueryStatus = "missing" | "empty" | "no-match" | "no-words" | "hits";

/** A query's answer. */
export interface QueryAnswer {
  readonly store: string;
  readonly status: QueryStatus;
  /** At most `budget` characters of hits plus one marker line (the first), naming the store. */
  readonly text: string;
  /** The hits shown in `text`, best first. */
  readonly hits: readonly MemoryHit[];
  /** Entries matching, in all; when not `totalExact`, a lower bound (counting stops 100 past the page). */
  readonly total: number;
  /** False when more than `total` entries matched. */
  readonly totalExact: boolean;
  readonly offset: number;
  /** "any" when no entry had every word. */
  readonly mode: "all" | "any";
}

/** Options of {@link MemoryStore.get}. */
export interface GetOptions {
  /** First character of the page; default 0. */
  readonly offset?: number;
  /** Characters in the page; default DEFAULT_GET_PAGE_CHARS, at most MAX_GET_PAGE_CHARS. */
  readonly limit?: number;
}

/** One entry's page. */
export interface GetAnswer extends EntryFacts {
  readonly store: string;
  /** Characters of the whole entry. */
  readonly length: number;
  readonly offset: number;
  /** Where the page ends; the next page's offset when `more`. */
  readonly end: number;
  readonly more: boolean;
  /** The page, raw. */
  readonly body: string;
  /** The marker line, a header line and the page, sanitised. */
  readonly text: string;
}

/** What a store holds. */
export interface MemoryStats {
  readonly store: string;
  readonly locationSource: string;
  /** `missing`: no file; `empty`: no entries; `ready`: entries to query. */
  readonly status: "missing" | "empty" | "ready";
  readonly schemaVersion: number | null;
  readonly entries: number;
  readonly sources: number;
  /** Bytes of the store file and its write-ahead log. */
  readonly bytes: number;
  /** Latest ingest, ms since the epoch; null when none. */
  readonly lastIngestAt: number | null;
  readonly text: string;
}

/** What to forget: one entry, or everything from one source. */
export type ForgetTarget = { readonly id: number } | { readonly source: string };

/** What forget removed. */
export interface ForgetReport {
  readonly store: string;
  readonly entriesRemoved: number;
  readonly sourcesRemoved: number;
  readonly text: string;
}

/**
 * Characters of text an ingest of paths writes in one transaction, about: each commit makes FTS5 flush a segment and
 * may checkpoint the log, so fewer, larger batches cost less, while one batch holds the write lock for a few hundred
 * milliseconds at most (4 MB of text) and its files wait in memory.
 */
const BATCH_CHARS = 4_000_000;

/** SQLite's default: the log is copied into the store file once it holds this many pages. */
const CHECKPOINT_PAGES = 1000;

/**
 * The same while an ingest of paths writes its batches (about 64 MB of log): each copy syncs the file, and one copy
 * at the end of the ingest costs less than one after every batch.
 */
const INGEST_CHECKPOINT_PAGES = 16_384;

/** A source ready to write: its name, kind, content hash and entries. */
interface PreparedSource {
  readonly name: string;
  /** What a hit shows for it ('' shows the name). */
  readonly label: string;
  readonly kind: "file" | "text";
  readonly hash: string;
  readonly entries: readonly { readonly title: string; readonly tags: string; readonly body: string }[];
}

function sha256(...parts: readonly (string | Buffer)[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(typeof part === "string" ? Buffer.from(part, "utf8") : part).update("\u0000");
  return hash.digest("hex");
}

function checkInteger(what: string, value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new MemoryInputError(what, `an integer from ${min} to ${max}`, value);
  }
  return value;
}

/**
 * Text as it is stored: without U+0000. SQLite hands text to its bindings as C strings, and node:sqlite before Node
 * 24.16 returns a text only up to its first NUL, so the store keeps none, on every driver alike; no answer ever
 * showed one (the sanitiser drops it).
 */
function storedText(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", "") : text;
}

function checkTags(tags: unknown): string[] {
  if (tags === undefined) return [];
  if (!Array.isArray(tags) || tags.length > MAX_TAGS) {
    throw new MemoryInputError("tags", `an array of at most ${MAX_TAGS} strings`, tags);
  }
  const out = new Set<string>();
  for (const tag of tags) {
    if (typeof tag !== "string" || tag.trim() === "" || tag.trim().length > MAX_TAG_CHARS) {
      throw new MemoryInputError("tag", `1 to ${MAX_TAG_CHARS} characters of text`, tag);
    }
    out.add(storedText(tag.trim()));
  }
  return [...out];
}

/** The tags column: the tags one per line (a line break cannot be inside a tag's words). */
function tagsColumn(tags: readonly string[]): string {
  return tags.join("\n");
}

function tagsOf(column: string): string[] {
  return column === "" ? [] : column.split("\n");
}

/** A page's end: `limit` characters on, pulled back to a line break in the last quarter, never inside a pair. */
function pageEnd(body: string, offset: number, limit: number): number {
  let end = Math.min(body.length, offset + limit);
  if (end < body.length) {
    const newline = body.lastIndexOf("\n", end - 1);
    if (newline >= offset + Math.floor((limit * 3) / 4)) end = newline + 1;
    const code = body.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff && end - 1 > offset) end--;
  }
  return end;
}

/**
 * A memory store: opened lazily, on the first call that needs it. Reads (query, get, stats) never create a store;
 * the librarian's first ingest does. One connection per instance; close() releases it.
 */
export class MemoryStore {
  /** Where the store lives. */
  readonly location: MemoryLocation;
  /** The role this caller acts as, or undefined when none is configured. */
  readonly role: string | undefined;
  /** Where the role came from: `option` (or the `roleSource` option), `ORPHUS_ROUNDTABLE_ROLE` or `none`. */
  readonly roleSource: string;
  private readonly busyTimeoutMs: number;
  private readonly now: () => number;
  private readonly migrations: readonly Migration[] | undefined;
  /** The SQLite driver this store opens its file with. */
  readonly sqliteDriver: SqliteDriverName;
  private db: Connection | undefined;
  private sql: Statements | undefined;

  constructor(options: MemoryOptions = {}) {
    const env = options.env ?? process.env;
    const resolved = memoryDirOf(options, env);
    this.location = { dir: resolved.dir, path: path.join(resolved.dir, STORE_FILE_NAME), source: resolved.source };
    const role = options.role?.trim() === "" ? undefined : options.role?.trim();
    this.role = role ?? roleFromEnv(env);
    this.roleSource =
      role !== undefined
        ? (options.roleSource ?? "option")
        : this.role !== undefined
          ? ROLE_ENV
          : (options.roleSource ?? "none");
    this.busyTimeoutMs = checkInteger("busyTimeoutMs", options.busyTimeoutMs ?? BUSY_TIMEOUT_MS, 0, 600_000);
    this.now = options.now ?? Date.now;
    this.migrations = options.migrations;
    this.sqliteDriver = resolveSqliteDriver(options.sqliteDriver);
  }

  /** The store file's path. */
  get path(): string {
    return this.location.path;
  }

  /** Whether the caller may ingest and forget. */
  get isLibrarian(): boolean {
    return this.role === LIBRARIAN_ROLE;
  }

  /** Releases the connection; a later call opens it again. */
  close(): void {
    this.db?.close();
    this.db = undefined;
    this.sql = undefined;
  }

  private open(create: boolean): Statements | undefined {
    if (this.sql !== undefined) return this.sql;
    const db = openStoreFile(this.path, {
      create,
      busyTimeoutMs: this.busyTimeoutMs,
      driver: this.sqliteDriver,
      ...(this.migrations === undefined ? {} : { migrations: this.migrations }),
    });
    if (db === undefined) return undefined;
    this.db = db;
    this.sql = prepareStatements(db);
    return this.sql;
  }

  /** Runs `fn` with the store's statements, mapping SQLite's failures to this package's errors. */
  private run<T>(create: boolean, fn: (sql: Statements, db: Connection) => T): T | undefined {
    try {
      const sql = this.open(create);
      if (sql === undefined || this.db === undefined) return undefined;
      return fn(sql, this.db);
    } catch (error) {
      throw storeFailure(this.path, error, this.busyTimeoutMs);
    }
  }

  /**
   * Runs a read in one read transaction, so everything it reads is one snapshot of the store: a query's ranking, its
   * hits' titles and sources and their texts all come from the same state, whatever a librarian commits meanwhile.
   * Undefined when there is no store.
   */
  private read<T>(fn: (sql: Statements, db: Connection) => T): T | undefined {
    return this.run(false, (sql, db) => transaction(db, "deferred", () => fn(sql, db)));
  }

  /** Runs `fn` on the existing store (a read in one read transaction); StoreMissingError when there is none. */
  private onExisting<T>(kind: "read" | "write", fn: (sql: Statements, db: Connection) => T): T {
    const result = kind === "read" ? this.read(fn) : this.run(false, fn);
    if (result === undefined) throw new StoreMissingError(this.path, this.location.source);
    return result;
  }

  private checkLibrarian(operation: string): void {
    if (!this.isLibrarian)
      throw new NotLibrarianError(
        operation,
        this.role,
        this.roleSource === "none" ? `no --as, no ${ROLE_ENV}` : this.roleSource,
        this.path,
      );
  }

  /** Writes prepared sources in one write transaction: unchanged ones are left alone, changed ones replaced whole. */
  private write(sql: Statements, db: Connection, sources: readonly PreparedSource[]) {
    const tally = { added: 0, replaced: 0, unchanged: 0, entriesAdded: 0, entriesRemoved: 0 };
    const at = this.now();
    transaction(db, "immediate", () => {
      for (const source of sources) {
        const existing = sql.sourceByName.get(source.name);
        let id: number;
        if (existing !== undefined && existing.hash === source.hash) {
          // The same file ingested from another folder is shown as that ingest labels it.
          if (existing.label !== source.label) sql.relabelSource.run(source.label, existing.id);
          tally.unchanged++;
          continue;
        }
        if (existing !== undefined) {
          tally.entriesRemoved += sql.removeSourceEntries(existing.id);
          sql.updateSource.run(source.label, source.kind, source.hash, source.entries.length, at, existing.id);
          id = existing.id;
          tally.replaced++;
        } else {
          id = Number(
            sql.insertSource.run(source.name, source.label, source.kind, source.hash, source.entries.length, at)
              .lastInsertRowid,
          );
          tally.added++;
        }
        sql.addEntries(id, source.entries, at);
        tally.entriesAdded += source.entries.length;
      }
    });
    return tally;
  }

  private report(
    tally: ReturnType<MemoryStore["write"]>,
    skipped: readonly SkippedPath[],
    unit: "file" | "text",
    countsExact = true,
  ): IngestReport {
    const byKind: Partial<Record<SkipKind, number>> = {};
    let skippedCount = 0;
    for (const skip of skipped) {
      byKind[skip.kind] = (byKind[skip.kind] ?? 0) + skip.files;
      skippedCount += skip.files;
    }
    const parts = [
      `ingested: ${plural(tally.added, "new source")}, ${plural(tally.replaced, "changed source")} replaced, ` +
        `${plural(tally.unchanged, "unchanged source")} left as they were; ${plural(tally.entriesAdded, "entry", "entries")} added` +
        (tally.entriesRemoved > 0 ? `, ${plural(tally.entriesRemoved, "entry", "entries")} replaced` : ""),
    ];
    if (skippedCount > 0) parts.push(`skipped ${countsExact ? "" : "at least "}${plural(skippedCount, unit)}`);
    const lines = [markerLine(this.path, parts.join("; "))];
    if (skippedCount > 0) lines.push(skipCountsLine(byKind, countsExact), ...skippedLines(skipped));
    return {
      store: this.path,
      ...tally,
      skippedCount,
      skippedByKind: byKind,
      skippedCountExact: countsExact,
      skipped: skipped.slice(0, MAX_LISTED_SKIPS),
      text: lines.join("\n"),
    };
  }

  /**
   * Ingests texts, one entry each, in one transaction (librarian only; creates the store when there is none).
   * A text under a source already stored with the same content is a no-op; with other content it replaces it.
   * A text longer than MAX_TEXT_CHARS, or with no visible text, is skipped and counted.
   */
  ingestTexts(texts: readonly MemoryText[]): IngestReport {
    this.checkLibrarian("ingest");
    if (!Array.isArray(texts) || texts.length > MAX_TEXTS_PER_INGEST) {
      throw new MemoryInputError("texts", `an array of at most ${MAX_TEXTS_PER_INGEST} texts`, texts);
    }
    const skipped: SkippedPath[] = [];
    const sources: PreparedSource[] = [];
    texts.forEach((text, index) => {
      const requestedTitle = typeof text?.title === "string" ? text.title.trim() : "";
      if (requestedTitle === "" || requestedTitle.length > MAX_TITLE_CHARS) {
        throw new MemoryInputError(`texts[${index}].title`, `1 to ${MAX_TITLE_CHARS} characters`, text?.title);
      }
      const title = storedText(requestedTitle);
      if (typeof text.body !== "string") throw new MemoryInputError(`texts[${index}].body`, "a string", text.body);
      const tags = checkTags(text.tags);
      const trimmedSource = text.source?.trim();
      if (
        text.source !== undefined &&
        (typeof text.source !== "string" || trimmedSource === "" || (trimmedSource?.length ?? 0) > MAX_SOURCE_CHARS)
      ) {
        throw new MemoryInputError(`texts[${index}].source`, `1 to ${MAX_SOURCE_CHARS} characters`, text.source);
      }
      // A source of NUL characters only is no source: the text gets a note:<hash> one.
      const given = trimmedSource === undefined ? undefined : storedText(trimmedSource) || undefined;
      const label = given ?? title;
      if (text.body.length > MAX_TEXT_CHARS) {
        skipped.push(skippedPath(label, "too-long", `longer than ${MAX_TEXT_CHARS} characters (${text.body.length})`));
        return;
      }
      const body = storedText(text.body.replace(/\r\n?/g, "\n")).trim();
      if (body === "") {
        skipped.push(skippedPath(label, "no-text", "no text"));
        return;
      }
      const hash = sha256("text", title, tagsColumn(tags), body);
      sources.push({
        name: given ?? `note:${hash.slice(0, 16)}`,
        label: "",
        kind: "text",
        hash,
        entries: [{ title, tags: tagsColumn(tags), body }],
      });
    });
    const tally = this.run(true, (sql, db) => this.write(sql, db, sources)) ?? {
      added: 0,
      replaced: 0,
      unchanged: 0,
      entriesAdded: 0,
      entriesRemoved: 0,
    };
    return this.report(tally, skipped, "text");
  }

  /**
   * Ingests files and folders (librarian only): each file is a source named by its absolute path, split into
   * chunks of at most MAX_CHUNK_CHARS at headings, then paragraphs. An unchanged file (same bytes) is a no-op; a
   * changed one has its chunks replaced. Oversized, binary and unreadable paths are skipped and counted. Files are
   * written in batches, each in one transaction, so a reader never sees half a file.
   */
  ingestPaths(paths: readonly string[], options: IngestPathsOptions = {}): IngestReport {
    this.checkLibrarian("ingest");
    if (!Array.isArray(paths) || paths.some((p) => typeof p !== "string" || p === "")) {
      throw new MemoryInputError("paths", "an array of file or folder paths", paths);
    }
    const found = findFiles(paths, this.location.dir);
    const skipped = [...found.skipped];
    let skippedFiles = skipped.reduce((sum, skip) => sum + skip.files, 0);
    const skipFile = (skip: SkippedPath): void => {
      skipped.push(skip);
      skippedFiles += skip.files;
    };
    const tally = { added: 0, replaced: 0, unchanged: 0, entriesAdded: 0, entriesRemoved: 0 };
    let batch: PreparedSource[] = [];
    let batchEntries = 0;
    let batchChars = 0;
    let deferred = false;
    const flush = (): void => {
      if (batch.length === 0) return;
      const done = this.run(true, (sql, db) => {
        if (!deferred) {
          // The log is copied into the file (and synced) once, at the end, not after every batch.
          db.exec(`PRAGMA wal_autocheckpoint = ${INGEST_CHECKPOINT_PAGES}`);
          deferred = true;
        }
        return this.write(sql, db, batch);
      });
      if (done !== undefined) for (const key of Object.keys(tally) as (keyof typeof tally)[]) tally[key] += done[key];
      batch = [];
      batchEntries = 0;
      batchChars = 0;
    };
    try {
      found.files.forEach((entry, index) => {
        const file = entry.path;
        const read = readTextFile(entry);
        if ("skip" in read) skipFile(read.skip);
        else {
          const hash = sha256("file", read.bytes);
          const chunks = chunkDocument(read.text, MAX_CHUNK_CHARS);
          if (chunks.length === 0) skipFile(skippedPath(file, "no-text", "no text"));
          else {
            const name = path.basename(file);
            batch.push({
              name: file,
              label: entry.label ?? "",
              kind: "file",
              hash,
              entries: chunks.map((chunk) => ({
                title: chunk.heading === "" ? name : `${name} › ${chunk.heading}`,
                tags: "",
                body: chunk.text,
              })),
            });
            batchEntries += chunks.length;
            batchChars += read.text.length;
            if (batchChars >= BATCH_CHARS) flush();
          }
        }
        options.onProgress?.({
          filesDone: index + 1,
          filesTotal: found.files.length,
          entriesAdded: tally.entriesAdded + batchEntries,
          skipped: skippedFiles,
        });
      });
      flush();
    } finally {
      if (deferred) {
        this.run(false, (_sql, db) => {
          db.exec(`PRAGMA wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
          db.exec("PRAGMA wal_checkpoint(PASSIVE)");
        });
      }
    }
    return this.report(tally, skipped, "file", found.countsExact);
  }

  /**
   * Full-text query, ranked by BM25 (title 4×, tags 2×, body 1×). Every word must match; when no entry has them
   * all, entries with any are ranked instead and the answer says so. The text is at most `budget` characters of
   * hits plus one marker line that names the store and says how many more matched and how to get them. A missing
   * store, an empty one and no match are answers of their own (`status`), never an empty success.
   */
  query(text: string, options: QueryOptions = {}): QueryAnswer {
    if (typeof text !== "string" || text.length > MAX_QUERY_CHARS) {
      throw new MemoryInputError("query", `text of at most ${MAX_QUERY_CHARS} characters`, text);
    }
    const budget = checkInteger("budget", options.budget ?? DEFAULT_QUERY_BUDGET, 0, MAX_QUERY_BUDGET);
    const limit = checkInteger("limit", options.limit ?? DEFAULT_QUERY_LIMIT, 1, MAX_QUERY_LIMIT);
    const offset = checkInteger("offset", options.offset ?? 0, 0, Number.MAX_SAFE_INTEGER);
    const store = this.path;
    const none = (status: QueryStatus, answer: string): QueryAnswer => ({
      store,
      status,
      text: answer,
      hits: [],
      total: 0,
      totalExact: true,
      offset,
      mode: "all",
    });
    const answer = this.read((sql) => {
      const words = queryWords(text);
      if (words.words.length === 0) {
        return sql.anyEntry.get() === undefined
          ? none("empty", emptyStoreText(store))
          : none("no-words", noWordsText(store, text));
      }
      // One ranked MATCH answers both what to show and how many more there are: it returns the page and up to
      // MAX_COUNTED_MATCHES ids past it, so the marker can say "N more" or "more than N more" without a second MATCH.
      const fetch = limit + MAX_COUNTED_MATCHES + 1;
      // BM25 costs every match its length and positions, and every word of the query a pass over all the entries
      // that hold it (its inverse document frequency), so a common word's ranking grew with the store: a second and
      // more at a million entries. A word found in more than MAX_RANKED_MATCHES entries is common. Common words still
      // decide which entries match, but only the rarer words rank them; when every word is common, the newest
      // MAX_RANKED_MATCHES matches are ranked. Telling the two apart walks at most that many matches of each word in
      // rowid order, without ranking them.
      // Where each word's newest MAX_RANKED_MATCHES matches start (undefined for a rarer word): the further back, the
      // rarer the word.
      const starts = new Map(
        words.phrases.map((phrase) => [phrase, sql.newestMatch.get(phrase, MAX_RANKED_MATCHES - 1)] as const),
      );
      const common = words.phrases.filter((phrase) => starts.get(phrase) !== undefined);
      const rare = words.phrases.filter((phrase) => starts.get(phrase) === undefined);
      type Ranked = { ids: number[]; bounded: boolean };
      const rankAll = (expression: string): Ranked => ({
        ids: sql.hits.all(expression, fetch, offset),
        bounded: false,
      });
      // The newest MAX_RANKED_MATCHES matches ranked (all of them when fewer match), in one scan.
      const rankNewest = (expression: string): Ranked => {
        const rows = sql.hitsNewest.all(expression, MAX_RANKED_MATCHES, fetch, offset);
        const ranked =
          rows[0]?.ranked ??
          (sql.newestMatch.get(expression, MAX_RANKED_MATCHES - 1) === undefined ? 0 : MAX_RANKED_MATCHES);
        return { ids: rows.map((row) => row.id), bounded: ranked === MAX_RANKED_MATCHES };
      };
      // The words that rank: all but those in more than RANKING_WORD_SHARE of the newest entries (the, of), which are
      // in nearly every entry and cost a pass over all of those to rank by; when every word is that common, the
      // rarest of them (whose newest matches reach furthest back).
      const newest = common.length > 0 ? (sql.newestId.get() ?? 0) : 0;
      const span = (phrase: string): number => newest - (starts.get(phrase) ?? 0) + 1;
      const rankers = words.phrases.filter(
        (phrase) => starts.get(phrase) === undefined || MAX_RANKED_MATCHES <= span(phrase) * RANKING_WORD_SHARE,
      );
      const rankBy = rankers.length > 0 ? rankers : [words.phrases.reduce((a, b) => (span(b) > span(a) ? b : a))];
      // The entries holding every word (the newest MAX_RANKED_MATCHES of them when more do), ranked by `rankBy`.
      const rankEveryWord = (): Ranked => {
        // A word in fewer than MAX_RANKED_MATCHES entries bounds the matches: all of them are ranked.
        if (rankBy.length === words.phrases.length) return rare.length > 0 ? rankAll(words.all) : rankNewest(words.all);
        const within = sql.newestMatches.all(words.all, MAX_RANKED_MATCHES);
        const bounded = within.length === MAX_RANKED_MATCHES;
        const oldest = within.at(-1);
        if (oldest === undefined) return { ids: [], bounded: false };
        // Scored by the ranking words alone, newest first, down to the oldest entry sought: a rowid bound would make
        // FTS5 seek every segment (see hitsNewest), and every entry holding every word holds the ranking words.
        const held = new Set(within);
        const scored: { id: number; score: number }[] = [];
        for (const row of sql.scoredNewestFirst.iterate(rankBy.join(" "))) {
          if (row.id < oldest) break;
          if (held.has(row.id)) scored.push(row);
        }
        scored.sort((a, b) => a.score - b.score || a.id - b.id);
        return { ids: scored.slice(offset, offset + fetch).map((row) => row.id), bounded };
      };
      let mode: "all" | "any" = "all";
      let match = words.all;
      let { ids, bounded } = rankEveryWord();
      let commonLeftOut = 0;
      if (ids.length === 0 && offset === 0 && words.words.length > 1) {
        // Entries with any word: a common word says little of what is sought and would fill the ranking, so it is
        // left out while a rarer word that some entry holds remains.
        const found = rare.filter((phrase) => sql.newestMatch.get(phrase, 0) !== undefined);
        match = found.length > 0 ? found.join(" OR ") : words.any;
        commonLeftOut = found.length > 0 ? common.length : 0;
        ({ ids, bounded } = found.length > 0 ? rankAll(match) : rankNewest(match));
        mode = "any";
      }
      // A bounded ranking holds MAX_RANKED_MATCHES entries, and more matched.
      const totalExact = !bounded && ids.length < fetch;
      let total = bounded
        ? Math.max(MAX_RANKED_MATCHES, offset + Math.min(ids.length, fetch - 1))
        : offset + Math.min(ids.length, fetch - 1);
      // Past the end of the ranking: how many there were (fewer than the offset, so the count is short).
      if (ids.length === 0 && offset > 0 && !bounded) total = sql.matchCount.get(match, offset)?.n ?? 0;
      const rows = ids.slice(0, limit);
      if (total === 0) {
        const counts = sql.counts.get();
        if (counts === undefined || counts.entries === 0) return none("empty", emptyStoreText(store));
        return none("no-match", noMatchText(store, text, counts.entries, counts.sources));
      }
      const facts = new Map(sql.hitFacts(rows).map((row) => [row.id, row]));
      const hits: HitRow[] = rows.map((id) => {
        const row = facts.get(id);
        return {
          id,
          title: row?.title ?? "",
          source: row?.source ?? "",
          label: row?.label ?? "",
          part: row?.part ?? 1,
          parts: row?.chunks ?? 1,
        };
      });
      const finder = new ExcerptFinder(words.words, EXCERPT_MAX_CHARS);
      const rendered = renderQuery({
        store,
        query: text,
        hits,
        excerpt: (index) => finder.find(sql.body.get((hits[index] as HitRow).id)?.body ?? ""),
        total,
        totalExact,
        offset,
        budget,
        mode,
        ignoredWords: words.ignored,
        rankedNewest: bounded ? MAX_RANKED_MATCHES : undefined,
        commonWordsLeftOut: commonLeftOut,
      });
      const shown: MemoryHit[] = hits.slice(0, rendered.shown).map((hit, index) => {
        const excerpt = rendered.excerpts[index];
        return excerpt === undefined ? hit : { ...hit, excerpt };
      });
      return { store, status: "hits" as const, text: rendered.text, hits: shown, total, totalExact, offset, mode };
    });
    return answer ?? none("missing", missingStoreText(store, this.location.source));
  }

  /** One entry in full, a page of characters at a time: the marker names where the page ends and the next offset. */
  get(id: number, options: GetOptions = {}): GetAnswer {
    checkInteger("id", id, 1, Number.MAX_SAFE_INTEGER);
    const offset = checkInteger("offset", options.offset ?? 0, 0, Number.MAX_SAFE_INTEGER);
    const limit = checkInteger("limit", options.limit ?? DEFAULT_GET_PAGE_CHARS, 1, MAX_GET_PAGE_CHARS);
    return this.onExisting("read", (sql) => {
      const row = sql.entry.get(id);
      if (row === undefined) throw new EntryNotFoundError(id, this.path);
      const start = Math.min(offset, row.body.length);
      const end = pageEnd(row.body, start, limit);
      const entry = {
        store: this.path,
        id,
        title: row.title,
        tags: tagsOf(row.tags),
        source: row.source,
        part: row.part,
        parts: row.chunks,
        ingestedAt: row.ingested_at,
        length: row.body.length,
        offset: start,
        end,
        more: end < row.body.length,
        body: row.body.slice(start, end),
      };
      return { ...entry, text: renderEntryPage({ ...entry, body: row.body }) };
    });
  }

  /** What the store holds: entries, sources, bytes, the latest ingest, the schema version; `missing` without a file. */
  stats(): MemoryStats {
    const store = this.path;
    const base = { store, locationSource: this.location.source };
    const found = this.read((sql, db) => {
      const counts = sql.counts.get() ?? { entries: 0, sources: 0, last: null };
      const bytes = [store, `${store}-wal`].reduce((sum, file) => {
        try {
          return sum + statSync(file).size;
        } catch {
          return sum;
        }
      }, 0);
      const version = schemaVersion(db);
      const status = counts.entries === 0 ? ("empty" as const) : ("ready" as const);
      const summary =
        `schema v${version}, ${plural(counts.entries, "entry", "entries")} from ${plural(counts.sources, "source")}, ` +
        `${plural(bytes, "byte")}, last ingest ${counts.last === null ? "never" : new Date(counts.last).toISOString()} ` +
        `(location from ${this.location.source})` +
        (status === "empty" ? ". The store is EMPTY: every query will say so until a librarian ingests" : "");
      return {
        ...base,
        status,
        schemaVersion: version,
        entries: counts.entries,
        sources: counts.sources,
        bytes,
        lastIngestAt: counts.last,
        text: markerLine(store, summary),
      };
    });
    if (found !== undefined) return found;
    return {
      ...base,
      status: "missing",
      schemaVersion: null,
      entries: 0,
      sources: 0,
      bytes: 0,
      lastIngestAt: null,
      text: missingStoreText(store, this.location.source),
    };
  }

  /** Forgets one entry (its source is then re-ingested whole next time) or every entry of a source (librarian only). */
  forget(target: ForgetTarget): ForgetReport {
    this.checkLibrarian("forget");
    const byId = typeof target === "object" && target !== null && "id" in target;
    if (byId) checkInteger("id", target.id, 1, Number.MAX_SAFE_INTEGER);
    else if (
      typeof (target as { source?: unknown })?.source !== "string" ||
      (target as { source: string }).source === ""
    ) {
      throw new MemoryInputError("forget", "{ id } or { source }", target);
    }
    return this.onExisting("write", (sql, db) =>
      transaction(db, "immediate", (): ForgetReport => {
        if (byId) {
          const row = sql.entry.get(target.id);
          if (row === undefined) throw new EntryNotFoundError(target.id, this.path);
          sql.removeEntry(target.id);
          const left = sql.sourceEntryCount.get(row.source_id)?.n ?? 0;
          if (left === 0) sql.deleteSource.run(row.source_id);
          else sql.staleSource.run(row.source_id);
          return {
            store: this.path,
            entriesRemoved: 1,
            sourcesRemoved: left === 0 ? 1 : 0,
            text: markerLine(this.path, `forgot entry #${target.id}`),
          };
        }
        const name = storedText((target as { source: string }).source);
        const source =
          sql.sourceByName.get(name) ??
          (name.startsWith("note:") ? undefined : sql.sourceByName.get(path.resolve(name)));
        if (source === undefined) {
          return {
            store: this.path,
            entriesRemoved: 0,
            sourcesRemoved: 0,
            text: markerLine(this.path, `no source ${quotedSource(name)}: nothing forgotten`),
          };
        }
        const removed = sql.removeSourceEntries(source.id);
        sql.deleteSource.run(source.id);
        return {
          store: this.path,
          entriesRemoved: removed,
          sourcesRemoved: 1,
          text: markerLine(this.path, `forgot ${plural(removed, "entry", "entries")} of source ${quotedSource(name)}`),
        };
      }),
    );
  }
}

/** A memory store at the resolved location, opened lazily; see {@link MemoryStore}. */
export function openMemory(options: MemoryOptions = {}): MemoryStore {
  return new MemoryStore(options);
}

/** The schema version this release reads and writes. */
export const MEMORY_SCHEMA_VERSION = SCHEMA_VERSION;

/** Whether a store file exists at the location `options` resolve to (reads nothing else). */
export function memoryStoreExists(options: MemoryOptions = {}): boolean {
  return storeExists(new MemoryStore(options).path);
}
