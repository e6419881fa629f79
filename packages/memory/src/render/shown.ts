// How the memory store shows what it holds, by the one sanitiser of @orphus/digest and nothing of its own. Two
// kinds of text, two rules (ARCHITECTURE.md, "One sanitiser"):
// - names: titles, sources, tags and the store's path say which entry or which store an answer speaks of, so
//   what a reader cannot see is escaped (escapeIdentity: `plan\u200bner` shows as `plan\u{200B}ner`), never dropped;
//   a source `docs/\u200bREADME.md` must not pass for `docs/README.md`;
// - content: bodies, excerpts, the query echoed back and error texts are sanitised (sanitizeText: escape sequences,
//   controls and invisible characters dropped, line breaks normalised), and a line is cut with digest's cutAtWord.
import { cutAtWord, escapeIdentity, sanitizeText } from "@orphus/digest";

/**
 * The separator between a hit's title and its source (`[#3] Release policy · docs/release.md`): a name shows it
 * escaped, so no title or source can forge the field that follows it.
 */
export const FIELD_SEPARATOR = "·";

/** A title (or tag) as shown: escaped, the field separator too, at most `max` characters ("…" for a cut). */
export function shownName(name: string, max: number): string {
  return escapeIdentity(name, { also: FIELD_SEPARATOR, maxLength: max });
}

/** Tags as shown: each escaped as a name (the commas between them too), joined by ", ", at most `max` characters. */
export function shownTags(tags: readonly string[], max: number): string {
  return cutAtWord(
    tags.map((tag) => escapeIdentity(tag, { also: `${FIELD_SEPARATOR},`, maxLength: max })).join(", "),
    max,
  );
}

/** The pieces of an escaped name: `\\`, a `\u{HEX}` escape or one character (a pair whole), so a cut never splits one. */
const ESCAPED_PIECE = /\\\\|\\u\{[0-9A-F]+\}|[\uD800-\uDBFF][\uDC00-\uDFFF]|[^]/gy;

/**
 * A path (a source, the store) as shown: escaped as a name, the field separator too, and when longer than `max`
 * characters cut from the start (`…` first) between whole escapes, so the file name stays.
 */
export function shownPath(path: string, max: number): string {
  const escaped = escapeIdentity(path, { also: FIELD_SEPARATOR });
  if (escaped.length <= max) return escaped;
  if (max < 1) return "";
  ESCAPED_PIECE.lastIndex = 0;
  const starts: number[] = [];
  while (ESCAPED_PIECE.lastIndex < escaped.length && ESCAPED_PIECE.exec(escaped) !== null)
    starts.push(ESCAPED_PIECE.lastIndex);
  // `starts` holds where each piece ends; the tail kept begins at the first end that leaves room for "…".
  const from = starts.find((end) => escaped.length - end <= max - 1) ?? escaped.length;
  return `…${escaped.slice(from)}`;
}

/** Raw characters read for a line of at most `max`: enough for what the sanitiser may drop, bounded for long text. */
function lineHead(text: string, max: number): string {
  return text.length > max * 4 + 64 ? text.slice(0, max * 4 + 64) : text;
}

/** Content on one line: sanitised, every run of white space (line breaks included) one space, cut at a word to `max`. */
export function contentLine(text: string, max: number): string {
  return cutAtWord(sanitizeText(lineHead(text, max)).replace(/\s+/g, " ").trim(), max);
}

/** Content as a block (a page of an entry): sanitised, its lines kept. */
export function contentBlock(text: string): string {
  return sanitizeText(text);
}
