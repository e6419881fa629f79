/** File name of the store inside the memory directory. */
export const STORE_FILE_NAME = "memory.db";

/** The schema version this release writes and reads; older stores are migrated on open, newer ones refused. */
export const SCHEMA_VERSION = 5;

/** SQLite `application_id` of a memory store ("OMEM"): a SQLite file without it is not ours and is never touched. */
export const STORE_APPLICATION_ID = 0x4f4d454d;

/** The only role that may ingest and forget (a coordination convention, not a security boundary). */
export const LIBRARIAN_ROLE = "librarian";

/** How long a statement waits for another process's write lock before failing with StoreBusyError. */
export const BUSY_TIMEOUT_MS = 10_000;

/** Characters of hits a query answer spends when the caller names no budget (plus one marker line). */
export const DEFAULT_QUERY_BUDGET = 2000;

/** Largest query budget accepted. */
export const MAX_QUERY_BUDGET = 50_000;

/** Hits per query answer when the caller names no limit. */
export const DEFAULT_QUERY_LIMIT = 10;

/** Most hits one query answer shows. */
export const MAX_QUERY_LIMIT = 50;

/** Longest query text accepted, in characters. */
export const MAX_QUERY_CHARS = 1000;

/** Most words of a query that are searched for; later ones are ignored (and the answer says so). */
export const MAX_QUERY_TERMS = 32;

/**
 * Matches a query ranks at most: when more entries match, the newest this many of them are ranked (BM25 reads each
 * match's length and positions, about 2.5 µs a match, so ranking a common word of a million entries took seconds),
 * and in an any-word query a word found in more entries than this is left out while a rarer word remains.
 */
export const MAX_RANKED_MATCHES = 2_000;

/**
 * Share of the newest entries above which a word of a query does not rank its hits (it still decides which match):
 * ranking by a word reads every entry that holds it, and a word as common as "the" is in nearly every one.
 */
export const RANKING_WORD_SHARE = 0.25;

/** Matches a query counts past the page it shows; beyond that the answer says "more than" (counting is work too). */
export const MAX_COUNTED_MATCHES = 100;

/** Longest excerpt shown for one hit, ellipses included. */
export const EXCERPT_MAX_CHARS = 300;

/** Shortest excerpt worth showing: below it a hit is shown by its header line only. */
export const EXCERPT_MIN_CHARS = 24;

/** Longest title shown in a hit's header line. */
export const SHOWN_TITLE_MAX_CHARS = 120;

/** Longest source shown in a hit's header line (the start is cut, so the file name stays). */
export const SHOWN_SOURCE_MAX_CHARS = 160;

/** Longest store path shown in a marker line, escaped (the start is cut, so the file name stays). */
export const SHOWN_STORE_MAX_CHARS = 200;

/** Longest query text an answer quotes back, sanitised and on one line. */
export const SHOWN_QUERY_MAX_CHARS = 80;

/** Longest list of tags shown in an entry's header line, each tag escaped. */
export const SHOWN_TAGS_MAX_CHARS = 120;

/** Longest marker line (it names the store and the query, both cut to fit). */
export const MAX_MARKER_CHARS = 600;

/**
 * Longest header line of a `get` page: id, title (at most MAX_TITLE_CHARS shown), source, part, tags and the ingest
 * time, each shown within its own limit (they add up to at most 881).
 */
export const MAX_ENTRY_HEADER_CHARS = 900;

/** Skipped paths an ingest's text lists, one line each (the report's `skipped` lists up to MAX_LISTED_SKIPS). */
export const MAX_SHOWN_SKIPS = 20;

/** Longest reason a listed skip gives, sanitised and on one line. */
export const SHOWN_REASON_MAX_CHARS = 120;

/** Longest error text the memory tool returns (and the CLI prints on stderr): sanitised, then cut with a note. */
export const MAX_MEMORY_ERROR_CHARS = 2000;

/** Largest chunk of a file or folder ingest, in characters: files are split at headings, then paragraphs, then lines. */
export const MAX_CHUNK_CHARS = 4000;

/** Largest text entry, in characters; a larger one is skipped with its reason. */
export const MAX_TEXT_CHARS = 200_000;

/** Largest file read by an ingest, in bytes; a larger one is skipped with its reason. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;

/** Most files one ingest of paths reads; the rest are skipped with their reason. */
export const MAX_FILES_PER_INGEST = 20_000;

/** Most texts one ingest call takes. */
export const MAX_TEXTS_PER_INGEST = 50_000;

/** Longest title stored, in characters. */
export const MAX_TITLE_CHARS = 500;

/** Longest source name, in characters. */
export const MAX_SOURCE_CHARS = 4096;

/** Most tags on one entry. */
export const MAX_TAGS = 32;

/** Longest tag, in characters. */
export const MAX_TAG_CHARS = 64;

/** Characters a `get` page holds when the caller names no limit. */
export const DEFAULT_GET_PAGE_CHARS = 8000;

/** Largest `get` page, in characters. */
export const MAX_GET_PAGE_CHARS = 64_000;

/** Skipped paths an ingest report lists by name (all are counted). */
export const MAX_LISTED_SKIPS = 100;
