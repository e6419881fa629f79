// What the client shows a model or a terminal, made safe in one place and by one sanitiser: content goes through
// @orphus/digest's sanitizeText (what a reader cannot see is dropped), names and paths through its escapeIdentity
// (what a reader cannot see is made visible, so `plan\u200bner` never passes for `planner`). The client has no
// rules of its own about characters; it only decides where a name ends and how long a text may be.
import { AUTHOR_MAX_LENGTH, escapeIdentity, sanitizeText } from "@orphus/digest";
import { MAX_LISTED_NAMES, MAX_SHOWN_PATH_CHARS } from "./limits.js";

/**
 * Characters the client's texts put around a name (`[#3 critic]`, `"design"`, `critic, planner`): a name shows
 * them escaped, so it stays one token and cannot close its brackets or quotes, or pass for two names.
 */
const NAME_DELIMITERS = ' "[],';

/**
 * A name as the client's texts show it (an author, a role, a member, a room): escapeIdentity with the delimiters
 * around names escaped too, at most AUTHOR_MAX_LENGTH (64) characters, the digest's label length; "?" when empty.
 * A name of the wire's syntax is shown as it is.
 */
export function shownName(name: string): string {
  if (name === "") return "?";
  return escapeIdentity(name, { also: NAME_DELIMITERS, maxLength: AUTHOR_MAX_LENGTH });
}

/**
 * A file system path as the client's texts show it: escapeIdentity, at most {@link MAX_SHOWN_PATH_CHARS}
 * characters. Escaped rather than cleaned, so two directories that differ by an invisible character never look
 * alike (a split fleet would hide behind that).
 */
export function shownPath(path: string): string {
  return escapeIdentity(path, { maxLength: MAX_SHOWN_PATH_CHARS });
}

/** Names as a list (`critic, planner`), at most `max` of them, the rest counted; a dash when there are none. */
export function shownNames(names: readonly string[], max: number = MAX_LISTED_NAMES): string {
  if (names.length === 0) return "—";
  const listed = names.slice(0, max).map(shownName).join(", ");
  return names.length > max ? `${listed} and ${names.length - max} more` : listed;
}

/** Where a cut keeps its text: the start (the default; what failed comes first) or the end (a log's last lines). */
export type CutKeep = "start" | "end";

/** Options of {@link boundedText}. */
export interface BoundedTextOptions {
  /** Which part of a text longer than the limit is kept; default "start". */
  readonly keep?: CutKeep;
  /** Folds every line break into ` | `, for a text that must stay one line (a log line, a diagnostic). */
  readonly oneLine?: boolean;
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** The note that says how much a cut left out, its length independent of the kept part. */
function cutNote(left: number, keep: CutKeep): string {
  return keep === "start" ? `… (${left} more characters)` : `(${left} characters before) …`;
}

/**
 * `text` cut to at most `max` characters by `keep`, never between the halves of a surrogate pair, with the note of
 * what was left out (an ellipsis alone when `max` is too small to hold the note).
 */
function cut(text: string, max: number, keep: CutKeep): string {
  if (text.length <= max) return text;
  if (max < 1) return "";
  // The note is sized for the whole text's number of digits: the count it holds is never longer.
  const noted = cutNote(text.length, keep).length < max;
  const room = max - (noted ? cutNote(text.length, keep).length : 1);
  if (keep === "start") {
    let end = room;
    if (end > 0 && isHigh(text.charCodeAt(end - 1))) end--;
    return `${text.slice(0, end)}${noted ? cutNote(text.length - end, keep) : "…"}`;
  }
  let start = text.length - room;
  if (start < text.length && isLow(text.charCodeAt(start))) start++;
  return `${noted ? cutNote(start, keep) : "…"}${text.slice(start)}`;
}

/**
 * Content text safe to show a model or a terminal and at most `maxLength` characters: sanitised by
 * `@orphus/digest`'s sanitizeText first (so a cut never lands inside an escape sequence, and what is counted is
 * what is shown), line breaks folded into ` | ` when `oneLine`, then cut with a note saying how many characters
 * were left out (`… (812 more characters)`, or `(812 characters before) …` when keeping the end).
 */
export function boundedText(text: string, maxLength: number, options: BoundedTextOptions = {}): string {
  const clean = sanitizeText(text);
  const shown = options.oneLine === true ? clean.trim().replace(/\s*\n\s*/g, " | ") : clean;
  return cut(shown, maxLength, options.keep ?? "start");
}
