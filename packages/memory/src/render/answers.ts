// The texts a model or a person reads from the store. Every piece of stored text passes safe-text.ts on the way,
// and every answer is bounded: a query's hits by its budget (plus one marker line), a page by its limit.
import {
  EXCERPT_MAX_CHARS,
  EXCERPT_MIN_CHARS,
  MAX_MARKER_CHARS,
  MAX_SOURCE_CHARS,
  MAX_TITLE_CHARS,
  SHOWN_SOURCE_MAX_CHARS,
  SHOWN_TITLE_MAX_CHARS,
} from "../limits.js";
import { cutFromStart, cutToFit, safeBlock, safeLine } from "./safe-text.js";

/** Longest store path shown in a marker line (the start is cut). */
const SHOWN_STORE_MAX_CHARS = 200;

/** Longest query text shown in a marker line. */
const SHOWN_QUERY_MAX_CHARS = 80;

/** Every answer's marker line starts with this. */
export const MARKER_PREFIX = "[memory ";

/** One hit as the store found it, before rendering. */
export interface HitRow {
  readonly id: number;
  readonly title: string;
  readonly source: string;
  /** 1-based part of its source, and how many parts the source has. */
  readonly part: number;
  readonly parts: number;
  readonly excerpt: string;
}

/** `1 entry` / `3 entries`. */
export function plural(count: number, one: string, many: string = `${one}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
}

function storeLabel(store: string): string {
  return cutFromStart(safeLine(store, MAX_SOURCE_CHARS), SHOWN_STORE_MAX_CHARS);
}

/** The marker line: names the store, then says what the answer holds and how to get the rest. */
export function markerLine(store: string, text: string): string {
  return cutToFit(`${MARKER_PREFIX}${storeLabel(store)}] ${safeLine(text, MAX_MARKER_CHARS)}`, MAX_MARKER_CHARS);
}

function quoted(query: string): string {
  return `"${safeLine(query, SHOWN_QUERY_MAX_CHARS)}"`;
}

/** A hit's header line: id, title, source and (for a source in several parts) which part. */
function headerLine(hit: HitRow): string {
  const title = safeLine(hit.title, SHOWN_TITLE_MAX_CHARS);
  const source = cutFromStart(safeLine(hit.source, MAX_SOURCE_CHARS), SHOWN_SOURCE_MAX_CHARS);
  return `[#${hit.id}] ${title === "" ? "(untitled)" : title} · ${source}${hit.parts > 1 ? ` (part ${hit.part}/${hit.parts})` : ""}`;
}

/** What a query found, to render. */
export interface QueryRender {
  readonly store: string;
  readonly query: string;
  readonly hits: readonly HitRow[];
  /** Matches in all (before offset). */
  readonly total: number;
  readonly offset: number;
  readonly budget: number;
  /** "any" when no entry had every word and entries with some are shown. */
  readonly mode: "all" | "any";
  /** Words beyond the searched ones, ignored. */
  readonly ignoredWords: number;
}

/** A rendered query answer: the text, and how many hits it shows. */
export interface RenderedQuery {
  readonly text: string;
  readonly shown: number;
}

/**
 * Hits within `budget` characters plus the marker line (first). Headers are spent first, best hit first, and stop at
 * the first that does not fit, so what is shown is always the top of the ranking and the marker's offset continues
 * it; what budget is left goes to excerpts, best hit first, each cut to fit or left out below EXCERPT_MIN_CHARS.
 */
export function renderQuery(input: QueryRender): RenderedQuery {
  let allowance = input.budget + 1; // n lines joined by n - 1 newlines fit `budget` when their costs fit budget + 1
  const headers: string[] = [];
  for (const hit of input.hits) {
    const header = headerLine(hit);
    if (header.length + 1 > allowance) break;
    headers.push(header);
    allowance -= header.length + 1;
  }
  const lines: string[] = [];
  headers.forEach((header, index) => {
    lines.push(header);
    const excerpt = safeLine((input.hits[index] as HitRow).excerpt, EXCERPT_MAX_CHARS);
    if (excerpt === "") return;
    const room = Math.min(excerpt.length, allowance - 3);
    if (room < Math.min(EXCERPT_MIN_CHARS, excerpt.length)) return;
    const line = `  ${cutToFit(excerpt, room)}`;
    lines.push(line);
    allowance -= line.length + 1;
  });
  const shown = headers.length;
  const remaining = input.total - input.offset - shown;
  const notes =
    (input.mode === "any" ? " (no entry has every word; these have some)" : "") +
    (input.ignoredWords > 0 ? ` (${plural(input.ignoredWords, "word")} past the limit ignored)` : "");
  let summary: string;
  if (input.offset >= input.total) {
    summary = `no hits after offset ${input.offset}: ${plural(input.total, "hit")} in all for ${quoted(input.query)}${notes}`;
  } else if (shown === 0) {
    summary =
      `${plural(input.total - input.offset, "hit")} for ${quoted(input.query)}${notes}, none shown within budget ` +
      `${input.budget}: query again with a larger budget`;
  } else {
    summary =
      `hits ${input.offset + 1}–${input.offset + shown} of ${input.total} for ${quoted(input.query)}${notes}` +
      (remaining > 0 ? `; ${remaining} more: query again with offset ${input.offset + shown}` : "") +
      "; get <id> reads an entry in full";
  }
  return { text: [markerLine(input.store, summary), ...lines].join("\n"), shown };
}

/** The answer to a query when no store exists: where it was looked for, what creates it, and the split-store hint. */
export function missingStoreText(store: string, locationSource: string): string {
  return markerLine(
    store,
    `no memory store exists here (location from ${locationSource}): nothing has been ingested under this location. ` +
      "A librarian creates it by ingesting (ORPHUS_ROUNDTABLE_ROLE=librarian orphus-memory ingest <file or folder…>). " +
      "If other sessions have a store, they resolve another location: give every session the same ORPHUS_MEMORY_DIR " +
      "or ORPHUS_CODING_AGENT_DIR",
  );
}

/** The answer to a query on a store that holds nothing. */
export function emptyStoreText(store: string): string {
  return markerLine(
    store,
    "the memory store is empty: it exists, but nothing has been ingested into it (or everything was forgotten). " +
      "A librarian fills it: ORPHUS_ROUNDTABLE_ROLE=librarian orphus-memory ingest <file or folder…>, or the memory " +
      "tool's ingest action as librarian",
  );
}

/** The answer to a query that matched nothing in a store that holds entries. */
export function noMatchText(store: string, query: string, entries: number, sources: number): string {
  return markerLine(
    store,
    `no entry matches ${quoted(query)} among ${plural(entries, "entry", "entries")} from ${plural(sources, "source")}. ` +
      "Whole words are matched, case and accents ignored, English endings stemmed: try other or fewer words",
  );
}

/** The answer to a query with nothing to search for. */
export function noWordsText(store: string, query: string): string {
  return markerLine(
    store,
    `the query ${quoted(query)} has no words to search for: a word is a run of letters or digits`,
  );
}

/** What is known about one entry besides its text. */
export interface EntryFacts {
  readonly id: number;
  readonly title: string;
  readonly tags: readonly string[];
  readonly source: string;
  /** 1-based part of its source, and how many parts the source had when it was ingested. */
  readonly part: number;
  readonly parts: number;
  /** When it was ingested, ms since the epoch. */
  readonly ingestedAt: number;
}

/** One entry as `get` shows it: its facts, its whole text and the page to show. */
export interface EntryRender extends EntryFacts {
  readonly store: string;
  readonly body: string;
  readonly offset: number;
  readonly end: number;
}

/** A page of one entry: the marker (where the page sits, how to get the next), the entry's header, the page. */
export function renderEntryPage(entry: EntryRender): string {
  const length = entry.body.length;
  const where =
    entry.offset === 0 && entry.end === length
      ? `#${entry.id}, the whole entry (${plural(length, "character")})`
      : `#${entry.id}, characters ${entry.offset}–${entry.end} of ${length}` +
        (entry.end < length ? `; more: get ${entry.id} with offset ${entry.end}` : " (the end)");
  const facts = [
    `source ${cutFromStart(safeLine(entry.source, MAX_SOURCE_CHARS), SHOWN_SOURCE_MAX_CHARS)}`,
    ...(entry.parts > 1 ? [`part ${entry.part}/${entry.parts}`] : []),
    ...(entry.tags.length > 0 ? [`tags: ${safeLine(entry.tags.join(", "), SHOWN_TITLE_MAX_CHARS)}`] : []),
    `ingested ${new Date(entry.ingestedAt).toISOString()}`,
  ];
  const title = safeLine(entry.title, MAX_TITLE_CHARS);
  return [markerLine(entry.store, where), `[#${entry.id}] ${title} · ${facts.join(" · ")}`, safeBlock(entry.body.slice(entry.offset, entry.end))].join("\n");
}
