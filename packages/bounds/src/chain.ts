// A chain step's prompt: placeholders splice bounded parts of earlier steps' outputs, each pointing at the rest.
import type { ArtifactRun } from "./artifacts.js";
import { backstop, boundText, tryWrite } from "./bound.js";
import { checkBudget, checkContent, checkString, textOf, type OutputContent } from "./content.js";
import {
  BoundsInputError,
  ChainMalformedPlaceholderError,
  ChainNoPreviousError,
  ChainUnknownOutputError,
} from "./errors.js";
import { DEFAULT_SPLICE_CHARS } from "./limits.js";
import { LINE_SAFE_PATH, lineUnsafe } from "./lines.js";

/** The characters of a step name: what `{outputs.<name>}` can refer to. */
const NAME = "[\\p{L}\\p{N}_-]+";

/** A whole step name. */
const STEP_NAME = new RegExp(`^${NAME}$`, "u");

/** The expected form of a step name, for error messages. */
const STEP_NAME_FORM = 'a step name a template can refer to as {outputs.<name>}: letters, digits, "_" and "-"';

/** Throws BoundsInputError unless `name` is a step name that `{outputs.<name>}` can refer to. */
function checkStepName(name: unknown, field: string): string {
  const checked = checkString(name, field);
  if (!STEP_NAME.test(checked)) throw new BoundsInputError(field, STEP_NAME_FORM, checked);
  return checked;
}

/** An earlier step's output, as templates refer to it. */
export interface ChainStepOutput {
  /** What `{outputs.<name>}` calls it (letters, digits, "_" and "-"); when names repeat, the latest step wins. */
  readonly name: string;
  readonly output: OutputContent;
  /** Its artifact; null when artifacts are off, and then its splices are not bounded (backstop only). */
  readonly path: string | null;
}

/** A step as `recordChainStep` wrote it. */
export interface ChainStepRecord extends ChainStepOutput {
  /** Why its artifact could not be written (its `path` is then null); else null. */
  readonly artifactError: Error | null;
}

/** Options of `expandChainTemplate`. */
export interface ChainTemplateOptions {
  /** Characters a bounded splice carries, plus its pointer line; default DEFAULT_SPLICE_CHARS. */
  readonly spliceChars?: number;
}

/**
 * Writes a finished step's output to its artifact (when `run` is not null) and returns the record templates read.
 * A refused write leaves `path` null, so that step's splices fall back to the backstop, and says why. Throws
 * BoundsInputError for a name no `{outputs.<name>}` could refer to (`a.b`, `""`, `with space`, `x}`).
 */
export async function recordChainStep(
  run: ArtifactRun | null,
  name: string,
  output: OutputContent,
): Promise<ChainStepRecord> {
  checkStepName(name, "name");
  checkContent(output, "output");
  const written = await tryWrite(run, name, output);
  return { name, output, path: written.path, artifactError: written.error };
}

/** Where a placeholder may start: `{previous` or `{outputs` followed by "." or "}". */
const START = /\{(?:previous|outputs)(?=[.}])/g;

/** The four placeholder forms, whole. */
const FORM = new RegExp(`^\\{(?:previous(\\.full)?|outputs\\.(${NAME})(\\.full)?)\\}$`, "u");

/** Where the placeholder starting at `from` ends: after its "}", or at the first "{" or line break (malformed). */
function placeholderEnd(template: string, from: number): { end: number; closed: boolean } {
  for (let i = from + 1; i < template.length; i++) {
    const c = template[i];
    if (c === "}") return { end: i + 1, closed: true };
    if (c === "{" || c === "\n" || c === "\r") return { end: i, closed: false };
  }
  return { end: template.length, closed: false };
}

function checkSteps(steps: unknown): ChainStepOutput[] {
  if (!Array.isArray(steps)) throw new BoundsInputError("steps", "an array", steps);
  return steps.map((step: unknown, i) => {
    const field = `steps[${i}]`;
    if (typeof step !== "object" || step === null) throw new BoundsInputError(field, "an object", step);
    const { name, output, path } = step as Record<string, unknown>;
    checkStepName(name, `${field}.name`);
    checkContent(output, `${field}.output`);
    if (path !== null && lineUnsafe(checkString(path, `${field}.path`)) !== null) {
      throw new BoundsInputError(`${field}.path`, LINE_SAFE_PATH, path);
    }
    return step as ChainStepOutput;
  });
}

/**
 * Expands `template` against the steps so far (oldest first; `{previous}` is the last). `{previous}` and
 * `{outputs.<name>}` splice at most `spliceChars` characters (head and tail) plus one line with the path to the
 * rest; `{previous.full}` and `{outputs.<name>.full}` splice everything. A step without a path is spliced whole:
 * there is nowhere to point. Every splice is sanitised (sanitizeText, after the cut, so only what is shown is read)
 * and stays behind the truncation backstop. Other braces are left alone; there
 * is no escape for the placeholders themselves. Throws ChainMalformedPlaceholderError, ChainUnknownOutputError or
 * ChainNoPreviousError, each naming the placeholder and the known outputs.
 */
export function expandChainTemplate(
  template: string,
  steps: readonly ChainStepOutput[],
  options: ChainTemplateOptions = {},
): string {
  checkString(template, "template");
  const checked = checkSteps(steps);
  const spliceChars = checkBudget(options.spliceChars, "spliceChars", DEFAULT_SPLICE_CHARS);
  const known = [...new Set(checked.map((step) => step.name))];
  let out = "";
  let copied = 0;
  const starts = new RegExp(START);
  for (let match = starts.exec(template); match !== null; match = starts.exec(template)) {
    const { end, closed } = placeholderEnd(template, match.index);
    const placeholder = template.slice(match.index, end);
    const form = closed ? FORM.exec(placeholder) : null;
    if (form === null) throw new ChainMalformedPlaceholderError(placeholder, known);
    const [, previousFull, name, outputFull] = form;
    let step: ChainStepOutput | undefined;
    if (name === undefined) {
      step = checked[checked.length - 1];
      if (step === undefined) throw new ChainNoPreviousError(placeholder);
    } else {
      step = checked.findLast((candidate) => candidate.name === name);
      if (step === undefined) throw new ChainUnknownOutputError(placeholder, known);
    }
    const text = textOf(step.output);
    const full = previousFull !== undefined || outputFull !== undefined;
    const splice = full ? backstop(text, step.path) : boundText(text, spliceChars, step.path);
    out += template.slice(copied, match.index) + splice.text;
    copied = end;
    starts.lastIndex = end;
  }
  return out + template.slice(copied);
}
