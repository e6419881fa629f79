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
import { cutFromStart, cutToFit, safeBlock, safeLine, safeLines } from "./safe-text.js";

/** Longest store path shown in a marker line (the start is cut). */
const SHOWN_STORE_MAX_CHARS = 200;

/** Longest query text shown in a marker line. */
const SHOWN_QUERY_MAX_CHARS = 80;

/** Every answer's marker line starts with this. */
export const MEMORY_MARKER_PREFIX = "[memory ";

/** One hit as the store found it, before rendering: everything but its excerpt, which is found only when shown. */
export interface HitRow {
  readonly id: number;
  readonly title: string;
  readonly source: string;
  /** 1-based part of its source, and how many parts the source has. */
  readonly part: number;
  readonly parts: number;
}

/** Numbers as the answers write them (1,234); one formatter, since toLocaleString builds one per call. */
const NUMBER = new Intl.NumberFormat("en-US");

/** `1 entry` / `3 entries`. */
export function plural(count: number, one: string, many: string = `${one}s`): string {
  return `${NUMBER.format(count)} ${count === 1 ? one : many}`;
}

/** The store as a marker line names it, from its sanitised path (the start is cut). */
function storeLabelOf(safeStore: string): string {
  return cutFromStart(safeStore, SHOWN_STORE_MAX_CHARS);
}

/** A marker line from a store label and a text that are sanitised already. */
function markerOf(label: string, safeText: string): string {
  return cutToFit(`${MEMORY_MARKER_PREFIX}${label}] ${safeText}`, MAX_MARKER_CHARS);
}

/** The marker line: names the store, then says what the answer holds and how to get the rest. */
export function markerLine(store: string, text: string): string {
  const [safeStore, safeText] = safeLines([
    [store, MAX_SOURCE_CHARS],
    [text, MAX_MARKER_CHARS],
  ]) as [string, string];
  return markerOf(storeLabelOf(safeStore), safeText);
}

function quoted(query: string): string {
  return `"${safeLine(query, SHOWN_QUERY_MAX_CHARS)}"`;
}

/** A hit's header line from its sanitised title and source: id, title, source and (in several parts) which part. */
function headerLine(hit: HitRow, title: string, source: string): string {
  const shownSource = cutFromStart(source, SHOWN_SOURCE_MAX_CHARS);
  return `[#${hit.id}] ${title === "" ? "(untitled)" : title} · ${shownSource}${hit.parts > 1 ? ` (part ${hit.part}/${hit.parts})` : ""}`;
}

/** What a query found, to render. */
export interface QueryRender {
  readonly store: string;
  readonly query: string;
  readonly hits: readonly HitRow[];
  /** The raw excerpt of hit `index`; asked only for the hits whose excerpt the budget shows. */
  readonly excerpt: (index: number) => string;
  /** Matches in all (before offset); a lower bound when not `totalExact`. */
  readonly total: number;
  /** False when counting stopped at the cap: more than `total` matched. */
  readonly totalExact: boolean;
  readonly offset: number;
  readonly budget: number;
  /** "any" when no entry had every word and entries with some are shown. */
  readonly mode: "all" | "any";
  /** Words beyond the searched ones, ignored. */
  readonly ignoredWords: number;
}

/** A rendered query answer: the text, how many hits it shows, and the raw excerpt of each shown hit that has one. */
export interface RenderedQuery {
  readonly text: string;
  readonly shown: number;
  readonly excerpts: readonly (string | undefined)[];
}

/**
 * Hits within `budget` characters plus the marker line (first). Headers are spent first, best hit first, and stop at
 * the first that does not fit, so what is shown is always the top of the ranking and the marker's offset continues
 * it; what budget is left goes to excerpts, best hit first, each cut to fit, until less than EXCERPT_MIN_CHARS is
 * left. Excerpts are found only for the hits they are shown for. The sanitiser runs once for the store, the query,
 * the titles and the sources, and once for each round of excerpts (one round unless sanitising shortened some).
 */
export function renderQuery(input: QueryRender): RenderedQuery {
  const { hits } = input;
  const safe = safeLines([
    [input.store, MAX_SOURCE_CHARS],
    [input.query, SHOWN_QUERY_MAX_CHARS],
    ...hits.map((hit): [string, number] => [hit.title, SHOWN_TITLE_MAX_CHARS]),
    ...hits.map((hit): [string, number] => [hit.source, MAX_SOURCE_CHARS]),
  ]);
  let allowance = input.budget + 1; // n lines joined by n - 1 newlines fit `budget` when their costs fit budget + 1
  const headers: string[] = [];
  for (let index = 0; index < hits.length; index++) {
    const header = headerLine(hits[index] as HitRow, safe[2 + index] as string, safe[2 + hits.length + index] as string);
    if (header.length + 1 > allowance) break;
    headers.push(header);
    allowance -= header.length + 1;
  }
  const shown = headers.length;
  const raw: string[] = [];
  const excerpts: string[] = [];
  // Rounds: find the raw excerpts that may fit (a sanitised excerpt is never longer than its raw text), sanitise
  // them together, place them; another round only when sanitising left room for more.
  for (let next = 0; next < shown && allowance - 3 >= EXCERPT_MIN_CHARS; ) {
    const round: number[] = [];
    for (let room = allowance; next < shown && room - 3 >= EXCERPT_MIN_CHARS; next++) {
      const text = input.excerpt(next);
      raw[next] = text;
      round.push(next);
      room -= Math.min(text.length, EXCERPT_MAX_CHARS) + 3;
    }
    const cleaned = safeLines(round.map((index): [string, number] => [raw[index] as string, EXCERPT_MAX_CHARS]));
    round.forEach((index, k) => {
      const excerpt = cleaned[k] as string;
      const room = Math.min(excerpt.length, allowance - 3);
      if (excerpt === "" || room < Math.min(EXCERPT_MIN_CHARS, excerpt.length)) return;
      excerpts[index] = `  ${cutToFit(excerpt, room)}`;
      allowance -= (excerpts[index] as string).length + 1;
    });
  }
  const lines: string[] = [];
  headers.forEach((header, index) => {
    lines.push(header);
    if (excerpts[index] !== undefined) lines.push(excerpts[index]);
  });
  const query = `"${safe[1] as string}"`;
  const count = (n: number): string => (input.totalExact ? NUMBER.format(n) : `more than ${NUMBER.format(n)}`);
  const hitCount = (n: number): string => (input.totalExact ? plural(n, "hit") : `more than ${plural(n, "hit")}`);
  const remaining = input.total - input.offset - shown;
  const notes =
    (input.mode === "any" ? " (no entry has every word; these have some)" : "") +
    (input.ignoredWords > 0 ? ` (${plural(input.ignoredWords, "word")} past the limit ignored)` : "");
  let summary: string;
  if (input.offset >= input.total) {
    summary = `no hits after offset ${input.offset}: ${plural(input.total, "hit")} in all for ${query}${notes}`;
  } else if (shown === 0) {
    summary =
      `${hitCount(input.total - input.offset)} for ${query}${notes}, none shown within budget ${input.budget}: ` +
      "query again with a larger budget";
  } else {
    summary =
      `hits ${input.offset + 1}–${input.offset + shown} of ${count(input.total)} for ${query}${notes}` +
      (remaining > 0 || !input.totalExact ? `; ${count(remaining)} more: query again with offset ${input.offset + shown}` : "") +
      "; get <id> reads an entry in full";
  }
  const shownExcerpts = headers.map((_, index) => (excerpts[index] === undefined ? undefined : raw[index]));
  return { text: [markerOf(storeLabelOf(safe[0] as string), summary), ...lines].join("\n"), shown, excerpts: shownExcerpts };
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
