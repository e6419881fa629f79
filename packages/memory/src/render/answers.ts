// The texts a model or a person reads from the store. Every piece of stored text passes shown.ts on the way (names
// escaped, content sanitised), and every answer is bounded: a query's hits by its budget (plus one marker line), a
// page by its limit (plus the marker and the entry's header line), a report by its listed lines.
import { cutAtWord } from "@orphus/digest";
import {
  EXCERPT_MAX_CHARS,
  EXCERPT_MIN_CHARS,
  MAX_MARKER_CHARS,
  MAX_SHOWN_SKIPS,
  MAX_TITLE_CHARS,
  SHOWN_QUERY_MAX_CHARS,
  SHOWN_REASON_MAX_CHARS,
  SHOWN_SOURCE_MAX_CHARS,
  SHOWN_STORE_MAX_CHARS,
  SHOWN_TAGS_MAX_CHARS,
  SHOWN_TITLE_MAX_CHARS,
} from "../limits.js";
import type { SkipKind } from "../ingest/files.js";
import { contentBlock, contentLine, shownName, shownPath, shownTags } from "./shown.js";

/** Every answer's marker line starts with this. */
export const MEMORY_MARKER_PREFIX = "[memory ";

/** One hit as the store found it, before rendering: everything but its excerpt, which is found only when shown. */
export interface HitRow {
  readonly id: number;
  readonly title: string;
  readonly source: string;
  /** What the header shows for the source (shorter than its name for a file). */
  readonly label: string;
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

/** The store as a marker line names it: its path escaped, the start cut when long. */
export function shownStore(store: string): string {
  return shownPath(store, SHOWN_STORE_MAX_CHARS);
}

/**
 * The marker line: names the store, then says what the answer holds and how to get the rest. `text` is the
 * package's own words with any stored or user text in it already shown (escaped or sanitised, each within its own
 * limit); the line is cut at a word to MAX_MARKER_CHARS as a last guard, which those limits keep from happening.
 */
export function markerLine(store: string, text: string): string {
  return cutAtWord(`${MEMORY_MARKER_PREFIX}${shownStore(store)}] ${text}`, MAX_MARKER_CHARS);
}

/** A query as an answer quotes it: content, on one line, cut at a word. */
function quoted(query: string): string {
  return `"${contentLine(query, SHOWN_QUERY_MAX_CHARS)}"`;
}

/** A source as an answer quotes it (forget, a skipped path): escaped, the start cut when long. */
export function quotedSource(source: string): string {
  return `"${shownPath(source, SHOWN_SOURCE_MAX_CHARS)}"`;
}

/** How the line of skips by reason names each kind of skip, in this order when counts tie. */
const SKIP_KIND_LABELS: Readonly<Record<SkipKind, string>> = {
  "skipped-folder": "in skipped folders (hidden, node_modules)",
  "hidden-file": "hidden",
  "too-large": "too large",
  "not-text": "not text",
  unreadable: "unreadable",
  "not-found": "not found",
  "not-a-file": "not regular files",
  "symbolic-link": "symbolic links",
  "over-limit": "over the file limit",
  "no-text": "with no text",
  "too-long": "too long",
};

/**
 * The line counting an ingest's skips by reason, most first: `  skipped by reason: 774 in skipped folders (hidden,
 * node_modules), 10 not text, 6 too large`; "at least" before the folders' count when counting stopped at its bound.
 */
export function skipCountsLine(byKind: Readonly<Partial<Record<SkipKind, number>>>, countsExact: boolean): string {
  const order = Object.keys(SKIP_KIND_LABELS) as SkipKind[];
  const counts = order
    .filter((kind) => (byKind[kind] ?? 0) > 0)
    .sort((a, b) => (byKind[b] ?? 0) - (byKind[a] ?? 0) || order.indexOf(a) - order.indexOf(b))
    .map(
      (kind) =>
        `${kind === "skipped-folder" && !countsExact ? "at least " : ""}${NUMBER.format(byKind[kind] ?? 0)} ${SKIP_KIND_LABELS[kind]}`,
    );
  // At most MAX_MARKER_CHARS, whatever the counts (eleven kinds and their numbers stay far below it).
  return cutAtWord(`  skipped by reason: ${counts.join(", ")}`, MAX_MARKER_CHARS);
}

/** The lines an ingest report lists its skips in: at most MAX_SHOWN_SKIPS, the rest counted. */
export function skippedLines(skipped: readonly { readonly path: string; readonly reason: string }[]): string[] {
  const lines = skipped
    .slice(0, MAX_SHOWN_SKIPS)
    .map((skip) => `  skipped ${quotedSource(skip.path)}: ${contentLine(skip.reason, SHOWN_REASON_MAX_CHARS)}`);
  if (skipped.length > MAX_SHOWN_SKIPS)
    lines.push(`  … and ${NUMBER.format(skipped.length - MAX_SHOWN_SKIPS)} more skipped`);
  return lines;
}

/** A hit's header line: id, title, source and (in several parts) which part. */
function headerLine(hit: HitRow): string {
  const title = hit.title === "" ? "(untitled)" : shownName(hit.title, SHOWN_TITLE_MAX_CHARS);
  const source = shownPath(hit.label, SHOWN_SOURCE_MAX_CHARS);
  return `[#${hit.id}] ${title} · ${source}${hit.parts > 1 ? ` (part ${hit.part}/${hit.parts})` : ""}`;
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
  /** When more matched than a query ranks: how many of the newest matches were ranked. */
  readonly rankedNewest?: number | undefined;
  /** Words of an any-word query left out for being found in more entries than a query ranks. */
  readonly commonWordsLeftOut?: number;
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
 * left. Excerpts are found (and sanitised) only for the hits they are shown for.
 */
export function renderQuery(input: QueryRender): RenderedQuery {
  const { hits } = input;
  let allowance = input.budget + 1; // n lines joined by n - 1 newlines fit `budget` when their costs fit budget + 1
  const headers: string[] = [];
  for (const hit of hits) {
    const header = headerLine(hit);
    if (header.length + 1 > allowance) break;
    headers.push(header);
    allowance -= header.length + 1;
  }
  const shown = headers.length;
  const lines: string[] = [];
  const excerpts: (string | undefined)[] = [];
  headers.forEach((header, index) => {
    lines.push(header);
    // An excerpt line costs its two spaces of indent and its line break besides its text.
    if (allowance - 3 < EXCERPT_MIN_CHARS) return;
    const raw = input.excerpt(index);
    const line = contentLine(raw, EXCERPT_MAX_CHARS);
    const room = Math.min(line.length, allowance - 3);
    if (line === "" || room < Math.min(EXCERPT_MIN_CHARS, line.length)) return;
    const excerpt = `  ${cutAtWord(line, room)}`;
    lines.push(excerpt);
    excerpts[index] = raw;
    allowance -= excerpt.length + 1;
  });
  const query = quoted(input.query);
  const count = (n: number): string => (input.totalExact ? NUMBER.format(n) : `more than ${NUMBER.format(n)}`);
  const hitCount = (n: number): string => (input.totalExact ? plural(n, "hit") : `more than ${plural(n, "hit")}`);
  const remaining = input.total - input.offset - shown;
  const notes =
    (input.mode === "any" ? " (no entry has every word; these have some)" : "") +
    (input.ignoredWords > 0 ? ` (${plural(input.ignoredWords, "word")} past the limit ignored)` : "") +
    ((input.commonWordsLeftOut ?? 0) > 0
      ? ` (${plural(input.commonWordsLeftOut ?? 0, "common word")} left out: each in more entries than a query ranks)`
      : "") +
    (input.rankedNewest === undefined
      ? ""
      : ` (the newest ${NUMBER.format(input.rankedNewest)} matches ranked; a rarer word narrows it)`);
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
      (remaining > 0 || !input.totalExact
        ? `; ${count(remaining)} more: query again with offset ${input.offset + shown}`
        : "") +
      "; get <id> reads an entry in full";
  }
  return {
    text: [markerLine(input.store, summary), ...lines].join("\n"),
    shown,
    excerpts: headers.map((_, index) => excerpts[index]),
  };
}

/**
 * The answer to a query when no store exists: where it was looked for and what set that, what creates it, and the
 * split-store hint, for variables and for flags (an MCP host may pass its server no variable at all).
 */
export function missingStoreText(store: string, locationSource: string): string {
  return markerLine(
    store,
    `no memory store exists here (location from ${locationSource}); a librarian's first ingest creates it: ` +
      "orphus-memory --as librarian ingest <file or folder…>. Sessions that have a store resolve another location: " +
      "give all the same ORPHUS_MEMORY_DIR or ORPHUS_CODING_AGENT_DIR, or, where a host passes no variables on, the " +
      "same orphus-roundtable-mcp --agent-dir or orphus-memory --dir",
  );
}

/** The answer to a query on a store that holds nothing. */
export function emptyStoreText(store: string): string {
  return markerLine(
    store,
    "the memory store is empty: it exists, but nothing has been ingested into it (or everything was forgotten). " +
      "A librarian fills it: ORPHUS_ROUNDTABLE_ROLE=librarian orphus-memory ingest <file or folder…>, or an ingest " +
      "through the memory tool by the librarian role",
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

/**
 * A page of one entry: the marker (where the page sits, how to get the next), the entry's header (its title, source
 * and tags escaped as names) and the page (content, sanitised).
 */
export function renderEntryPage(entry: EntryRender): string {
  const length = entry.body.length;
  const where =
    entry.offset === 0 && entry.end === length
      ? `#${entry.id}, the whole entry (${plural(length, "character")})`
      : `#${entry.id}, characters ${entry.offset}–${entry.end} of ${length}` +
        (entry.end < length ? `; more: get ${entry.id} with offset ${entry.end}` : " (the end)");
  const facts = [
    `source ${shownPath(entry.source, SHOWN_SOURCE_MAX_CHARS)}`,
    ...(entry.parts > 1 ? [`part ${entry.part}/${entry.parts}`] : []),
    ...(entry.tags.length > 0 ? [`tags: ${shownTags(entry.tags, SHOWN_TAGS_MAX_CHARS)}`] : []),
    `ingested ${new Date(entry.ingestedAt).toISOString()}`,
  ];
  const title = entry.title === "" ? "(untitled)" : shownName(entry.title, MAX_TITLE_CHARS);
  return [
    markerLine(entry.store, where),
    `[#${entry.id}] ${title} · ${facts.join(" · ")}`,
    contentBlock(entry.body.slice(entry.offset, entry.end)),
  ].join("\n");
}
