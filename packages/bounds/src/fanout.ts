// A parallel fan-out's return, rendered through the digest: every child pinned with its outcome and path, the
// budget spent failures first, the full outputs in artifacts.
import { renderDigest, type DigestItem, type DigestResult } from "@orphus/digest";
import type { ArtifactRun } from "./artifacts.js";
import { backstop, degradedLine, tryWrite } from "./bound.js";
import type { BackstopCut } from "./backstop.js";
import { checkBudget, checkContent, checkString, textOf, type OutputContent } from "./content.js";
import { BoundsInputError, BoundsLimitError } from "./errors.js";
import { DEFAULT_FANOUT_BUDGET, MAX_FANOUT_CHILDREN } from "./limits.js";
import { shareBudget, type SharedBody, type SharedItem } from "./share.js";
import { displayName, stubLine } from "./stub.js";

/** How a child ended. */
export type TaskOutcome = "ok" | "failed" | "timed-out" | "empty" | "cancelled";

/** Every outcome, in the order a return shows them: failures first, "ok" last. */
export const TASK_OUTCOMES: readonly TaskOutcome[] = ["failed", "timed-out", "cancelled", "empty", "ok"];

/** One child of a fan-out, as its runner reports it. */
export interface FanOutChild {
  /** The task's name; equal names are fine. */
  readonly name: string;
  readonly outcome: TaskOutcome;
  /** Everything the child emitted. */
  readonly output: OutputContent;
  /** Why it failed, timed out or was cancelled; shown before any successful child's output. */
  readonly error?: OutputContent;
}

/** Options of `boundFanOut`. */
export interface FanOutOptions {
  /** Where full outputs go; null turns artifacts off, and with them the bound (only the backstop remains). */
  readonly artifacts: ArtifactRun | null;
  /** Digest budget in characters, pinned stubs and marker aside; default DEFAULT_FANOUT_BUDGET. */
  readonly budget?: number;
}

/** One child in the result, in input order. */
export interface FanOutTask {
  readonly name: string;
  readonly outcome: TaskOutcome;
  /** Its full output, byte for byte; null when artifacts are off or could not be written. */
  readonly path: string | null;
  /** Its full error detail, when it had one and artifacts were written; else null. */
  readonly errorPath: string | null;
}

/** What the parent receives, and where everything went. */
export interface FanOutResult {
  /** The text for the parent. */
  readonly text: string;
  /** Whether the text went through the digest (artifacts on and written); else only the backstop applied. */
  readonly bounded: boolean;
  readonly tasks: readonly FanOutTask[];
  /** The digest behind a bounded text (child i has seq i + 1); null when unbounded. */
  readonly digest: DigestResult | null;
  /** What the truncation backstop cut from an unbounded return, or null (always null when bounded). */
  readonly truncated: BackstopCut | null;
  /** Why artifacts could not be written, when that left the return unbounded; else null. */
  readonly artifactError: Error | null;
}

/** Spending and display rank: the outcomes a parent cannot recover from silently come first. */
const RANK: Readonly<Record<TaskOutcome, number>> = { failed: 4, "timed-out": 3, cancelled: 2, empty: 1, ok: 0 };

function checkChildren(children: unknown): FanOutChild[] {
  if (!Array.isArray(children)) throw new BoundsInputError("children", "an array", children);
  if (children.length > MAX_FANOUT_CHILDREN) {
    throw new BoundsLimitError("children", MAX_FANOUT_CHILDREN, children.length);
  }
  return children.map((child: unknown, i) => {
    const field = `children[${i}]`;
    if (typeof child !== "object" || child === null) throw new BoundsInputError(field, "an object", child);
    const { name, outcome, output, error } = child as Record<string, unknown>;
    checkString(name, `${field}.name`);
    if (typeof outcome !== "string" || !(outcome in RANK)) {
      throw new BoundsInputError(`${field}.outcome`, TASK_OUTCOMES.map((o) => `"${o}"`).join(", "), outcome);
    }
    checkContent(output, `${field}.output`);
    if (error !== undefined) checkContent(error, `${field}.error`);
    return child as FanOutChild;
  });
}

/** Input indexes in display order: rank, then input order. */
function displayOrder(children: readonly FanOutChild[]): number[] {
  return children.map((_, i) => i).sort((a, b) => RANK[children[b]!.outcome] - RANK[children[a]!.outcome] || a - b);
}

/** The error detail a non-ok child shows, or "" when it has none (an ok child's detail stays in its artifact). */
function shownError(child: FanOutChild): string {
  if (child.outcome === "ok" || child.error === undefined) return "";
  return textOf(child.error);
}

/** The digest item of child `index`, whose output was written to `path`, with its shaped body. */
function digestItem(
  child: FanOutChild,
  index: number,
  shaped: SharedBody,
  path: string,
  errorPath: string | null,
): DigestItem {
  return {
    seq: index + 1,
    author: child.name,
    ...shaped,
    // The stub names the child, its outcome and every path, so nothing it said is out of reach.
    pinned: stubLine(child.outcome, child.name, path, errorPath),
    priority: RANK[child.outcome],
  };
}

/** What a child shows in the digest: a failure's detail (its output is one path away), else its output. */
function shownBody(child: FanOutChild, index: number): SharedItem {
  const error = shownError(child);
  const seq = index + 1;
  if (error.trim() === "") return { seq, author: child.name, body: textOf(child.output), prefix: "" };
  return { seq, author: child.name, body: error, prefix: "error: " };
}

/** All outputs in full, failures and their details first: the return when there is nowhere to point. */
function unboundedText(children: readonly FanOutChild[]): string {
  return displayOrder(children)
    .map((i) => {
      const child = children[i]!;
      const error = shownError(child);
      const output = textOf(child.output);
      const lines = [`=== ${child.outcome} · ${displayName(child.name)} ===`];
      if (error !== "") lines.push(`error: ${error}`);
      if (output !== "") lines.push(output);
      return lines.join("\n");
    })
    .join("\n\n");
}

/**
 * The parent's view of a parallel fan-out. With artifacts, each child's output (and error detail) is written to its
 * own file and the return is a digest in "pinned" mode: at most `budget` characters plus one marker line plus one
 * stub per child (`maxDigestLength(budget, children.length)`), every stub naming the child, its outcome and its
 * paths; failures are spent and shown first. Bodies over their fair share of the budget arrive as head and tail.
 * Without artifacts, or when they cannot be written, all outputs are returned in full, behind the truncation
 * backstop only.
 */
export async function boundFanOut(children: readonly FanOutChild[], options: FanOutOptions): Promise<FanOutResult> {
  const checked = checkChildren(children);
  const budget = checkBudget(options.budget, "budget", DEFAULT_FANOUT_BUDGET);
  const run = options.artifacts;
  const writes = await Promise.all(
    checked.map((child) =>
      // Both writes start now, so artifact numbers follow input order.
      Promise.all([
        tryWrite(run, child.name, child.output),
        child.error === undefined || child.error.length === 0 ? null : tryWrite(run, child.name, child.error, "error"),
      ]),
    ),
  );
  const failures = writes.flatMap(([output, error]) => [output.error, error?.error ?? null]);
  const artifactError = failures.find((failure) => failure !== null) ?? null;
  const bounded = run !== null && artifactError === null;
  const tasks: FanOutTask[] = checked.map((child, i) => {
    const [output, error] = writes[i]!;
    return { name: child.name, outcome: child.outcome, path: output.path, errorPath: error?.path ?? null };
  });

  if (!bounded) {
    const text = unboundedText(checked);
    const out = backstop(artifactError === null ? text : `${degradedLine(artifactError)}\n${text}`, null);
    return { text: out.text, bounded, tasks, digest: null, truncated: out.truncated, artifactError };
  }
  const bodies = shareBudget(checked.map(shownBody), budget);
  const digest = renderDigest({
    // Bounded means every write succeeded, so every task has its path.
    items: checked.map((child, i) => digestItem(child, i, bodies[i]!, tasks[i]!.path as string, tasks[i]!.errorPath)),
    budget,
    recovery: "pinned",
    // Strict: a child shows no text while one of a more serious outcome is collapsed.
    strictPriority: true,
  });
  // No backstop here: the digest bound is the tighter one, and a cut could drop stubs.
  return { text: digest.text, bounded, tasks, digest, truncated: null, artifactError };
}
