// A single subagent's return: the spec leaves it truncation-only; with artifacts on it is bounded like a splice.
import type { ArtifactRun } from "./artifacts.js";
import { boundText, degradedLine, tryWrite } from "./bound.js";
import type { BackstopCut } from "./backstop.js";
import { checkBudget, checkContent, checkString, textOf, type OutputContent } from "./content.js";
import { BoundsInputError } from "./errors.js";
import { DEFAULT_RETURN_BUDGET } from "./limits.js";

/** One subagent's result. */
export interface SubagentOutput {
  readonly name: string;
  /** Everything it emitted. */
  readonly output: OutputContent;
}

/** Options of `boundSubagentReturn`. */
export interface SubagentReturnOptions {
  /** Where the full output goes; null turns artifacts off, and with them the bound (only the backstop remains). */
  readonly artifacts: ArtifactRun | null;
  /** Characters of head plus tail; default DEFAULT_RETURN_BUDGET. */
  readonly budget?: number;
}

/** What the parent receives. */
export interface SubagentReturn {
  readonly text: string;
  /** Whether the bound applied (artifacts on and written); else only the backstop. */
  readonly bounded: boolean;
  /** The full output, byte for byte; null when artifacts are off or could not be written. */
  readonly path: string | null;
  /** Characters left out between head and tail; 0 when the output fit or nothing was bounded. */
  readonly cutChars: number;
  /** What the truncation backstop cut, or null. */
  readonly truncated: BackstopCut | null;
  /** Why the artifact could not be written, when that left the return unbounded; else null. */
  readonly artifactError: Error | null;
}

/**
 * Writes the output to its artifact and returns at most `budget` characters of it (head and tail) plus one line
 * with the number of characters cut and the path. Without artifacts, or when the write fails, the output is
 * returned whole behind the truncation backstop.
 */
export async function boundSubagentReturn(
  subagent: SubagentOutput,
  options: SubagentReturnOptions,
): Promise<SubagentReturn> {
  if (typeof subagent !== "object" || subagent === null) throw new BoundsInputError("subagent", "an object", subagent);
  const name = checkString(subagent.name, "subagent.name");
  const output = checkContent(subagent.output, "subagent.output");
  const budget = checkBudget(options.budget, "budget", DEFAULT_RETURN_BUDGET);
  const written = await tryWrite(options.artifacts, name, output);
  const bound = boundText(textOf(output), budget, written.path);
  const text = written.error === null ? bound.text : `${degradedLine(written.error)}\n${bound.text}`;
  return {
    text,
    bounded: written.path !== null,
    path: written.path,
    cutChars: bound.cutChars,
    truncated: bound.truncated,
    artifactError: written.error,
  };
}
