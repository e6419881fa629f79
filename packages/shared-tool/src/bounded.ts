import { sanitizeText } from "@orphus/digest";
import { isHighSurrogate, isLowSurrogate } from "@orphus/internal";

/** Where a cut keeps its text: the start (the default; what failed comes first) or the end (a log's last lines). */
export type CutKeep = "start" | "end";

/** Options of {@link boundedText}. */
export interface BoundedTextOptions {
  /** Which part of a text longer than the limit is kept; default "start". */
  readonly keep?: CutKeep;
  /** Folds every line break into ` | `, for a text that must stay one line (a log line, a diagnostic). */
  readonly oneLine?: boolean;
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
    if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    return `${text.slice(0, end)}${noted ? cutNote(text.length - end, keep) : "…"}`;
  }
  let start = text.length - room;
  if (start < text.length && isLowSurrogate(text.charCodeAt(start))) start++;
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
