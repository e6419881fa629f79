// The pinned stub of a fan-out child: outcome, name and paths on one line that the digest shows whatever the budget.
import { pairSafeEnd } from "./content.js";
import { TASK_NAME_MAX_LENGTH } from "./limits.js";

/** Hidden characters, and white space the digest would squeeze, in a name shown inside a stub. */
const HIDDEN_RUNS = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\s]+/gu;

/**
 * A name as a stub shows it: one line of visible text with single spaces, at most TASK_NAME_MAX_LENGTH characters.
 * Removing control characters here (not only in the digest) keeps an escape sequence in a name from swallowing
 * the paths that follow it.
 */
export function displayName(name: string): string {
  const line = name.replace(HIDDEN_RUNS, " ").trim();
  if (line === "") return "(unnamed)";
  if (line.length <= TASK_NAME_MAX_LENGTH) return line;
  return `${line.slice(0, pairSafeEnd(line, TASK_NAME_MAX_LENGTH - 1))}…`;
}

/** The stub line; it never starts with "[" (the digest would escape it). */
export function stubLine(outcome: string, name: string, path: string, errorPath: string | null): string {
  const error = errorPath === null ? "" : ` · error: ${errorPath}`;
  return `${outcome} · ${displayName(name)} · output: ${path}${error}`;
}

/** The widest a stub is without its two paths: the longest outcome, the longest name, both labels. */
export const STUB_FIXED_MAX_LENGTH = stubLine("timed-out", "x".repeat(TASK_NAME_MAX_LENGTH), "", "").length;
