// The pinned stub of a fan-out child: outcome, name and paths on one line that the digest shows whatever the budget.
import { escapeIdentity } from "@orphus/digest";
import { TASK_NAME_MAX_LENGTH } from "./limits.js";
import { FIELD_SEPARATOR } from "./lines.js";

/**
 * A name as a stub shows it: escaped by @orphus/digest's escapeIdentity (every control, line break, invisible or
 * format character as `\u{HEX}`, never dropped, so no name passes for another), with "·" escaped as well so that
 * no name can hold the stub's field separator and forge an `output:` or `error:` field; at most
 * 64 characters (TASK_NAME_MAX_LENGTH); "(unnamed)" when empty.
 */
export function displayName(name: string): string {
  if (name === "") return "(unnamed)";
  return escapeIdentity(name, { also: FIELD_SEPARATOR.trim(), maxLength: TASK_NAME_MAX_LENGTH });
}

/** The stub line; it never starts with "[" (the digest would escape it). */
export function stubLine(outcome: string, name: string, path: string, errorPath: string | null): string {
  const error = errorPath === null ? "" : `${FIELD_SEPARATOR}error: ${errorPath}`;
  return `${outcome}${FIELD_SEPARATOR}${displayName(name)}${FIELD_SEPARATOR}output: ${path}${error}`;
}

/** The widest a stub is without its two paths: the longest outcome, the longest name, both labels. */
export const STUB_FIXED_MAX_LENGTH = stubLine("timed-out", "x".repeat(TASK_NAME_MAX_LENGTH), "", "").length;
