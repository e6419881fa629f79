// The one rule every boundary follows: bound only when there is an artifact to point at, and always keep the
// backstop behind the bound. What is shown passes the one sanitiser (@orphus/digest's sanitizeText), after it is
// cut, so only what is shown is read; the artifact keeps the raw bytes.
import { sanitizeText } from "@orphus/digest";
import type { ArtifactKind, ArtifactRun } from "./artifacts.js";
import { cutToBytes, type BackstopCut } from "./backstop.js";
import { headAndTail, type OutputContent } from "./content.js";
import { TRUNCATION_BACKSTOP_BYTES } from "./limits.js";

/** A text as it crosses a boundary. */
export interface BoundedText {
  readonly text: string;
  /** Characters left out between head and tail (0 when it fit, or when there was nowhere to point). */
  readonly cutChars: number;
  /** What the truncation backstop cut, or null. */
  readonly truncated: BackstopCut | null;
}

/** The line between head and tail: how much was left out and where all of it is. */
function pointerLine(cutChars: number, totalChars: number, path: string): string {
  return `… ${cutChars} of ${totalChars} characters cut here; the full output is in ${path}`;
}

/**
 * With a `path`: `text` within `budget` characters (head and tail) plus one line pointing at the path, then the
 * backstop. Without one there is nowhere to point, so nothing is bounded and only the backstop applies.
 */
export function boundText(text: string, budget: number, path: string | null): BoundedText {
  if (path === null) return { ...backstop(text, null), cutChars: 0 };
  const cut = headAndTail(text, budget, (cutChars) => pointerLine(cutChars, text.length, path), sanitizeText);
  return { ...backstop(cut.text, path, true), cutChars: cut.cutChars };
}

/** Text passed on as it is. */
function unchanged(text: string): string {
  return text;
}

/** `text` after the truncation backstop at its default limit, sanitised (unless `sanitised` says it is). */
export function backstop(
  text: string,
  path: string | null,
  sanitised = false,
): { text: string; truncated: BackstopCut | null } {
  const result = cutToBytes(text, { path }, sanitised ? unchanged : sanitizeText);
  return { text: result.text, truncated: result.cut };
}

/** An artifact write: the path, or, when the file system refused, no path and why. */
export interface WriteOutcome {
  readonly path: string | null;
  readonly error: Error | null;
}

/**
 * Writes through `run` when there is one. A refused write does not throw: the children's work is not to be lost
 * because the disk is full, so the caller falls back to what it does with artifacts off and reports the error.
 */
export async function tryWrite(
  run: ArtifactRun | null,
  name: string,
  content: OutputContent,
  kind: ArtifactKind = "output",
): Promise<WriteOutcome> {
  if (run === null) return { path: null, error: null };
  try {
    return { path: await run.write(name, content, kind), error: null };
  } catch (error) {
    return { path: null, error: error instanceof Error ? error : new Error(String(error)) };
  }
}

/** The first line of a return whose artifacts could not be written, so the reader knows it is unbounded. */
export function degradedLine(error: Error): string {
  return (
    `… artifacts could not be written (${sanitizeText(error.message).replace(/\s+/g, " ").slice(0, 200)}); ` +
    "what follows is unbounded, " +
    `cut only by the ${TRUNCATION_BACKSTOP_BYTES}-byte backstop`
  );
}
