// What the client shows a model or a terminal, made safe in one place and by one sanitiser: content goes through
// @orphus/digest's sanitizeText (what a reader cannot see is dropped), names and paths through its escapeIdentity
// (what a reader cannot see is made visible, so `plan\u200bner` never passes for `planner`). The client has no
// rules of its own about characters; it only decides where a name ends and how long a text may be.
import { AUTHOR_MAX_LENGTH, escapeIdentity } from "@orphus/digest";
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
 * A file system path as the client's texts show it: escapeIdentity, at most 512 characters (MAX_SHOWN_PATH_CHARS).
 * Escaped rather than cleaned, so two directories that differ by an invisible character never look alike (a split
 * fleet would hide behind that).
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

// Content is bounded by the one rule every shared tool follows (@orphus/shared-tool): sanitised first, then cut with
// a note of how much was left out.
export { boundedText } from "@orphus/shared-tool";
export type { BoundedTextOptions, CutKeep } from "@orphus/shared-tool";
