// Shared by every package's bench/*.bench.ts (not published). Benchmarks print ratios to a floor or ceiling
// measured in the same run, because the machine is shared and absolute numbers drift. Figures come from the block
// harness (harness.ts): a median over alternating blocks, printed with its spread, and written whole to the runner's
// results file, from which `pnpm bench --record` keeps them (benchmarks/record.jsonl) and BENCHMARKS.md is made.
import { appendFileSync } from "node:fs";

/** Direction a ratio must go to meet its target. */
export type TargetKind = "at-least" | "at-most";

/** A ratio taken block by block: its median, quartiles and range, and how many blocks it summarises. */
export interface RatioSummary {
  readonly median: number;
  /** First and third quartile of the per-block ratios: where the middle half of the blocks fell. */
  readonly q1: number;
  readonly q3: number;
  /** Smallest and largest per-block ratio. */
  readonly min: number;
  readonly max: number;
  readonly blocks: number;
}

/** A target the median must meet. */
export interface Target {
  readonly kind: TargetKind;
  readonly value: number;
}

/**
 * A target that differs by Node line, keyed by major version (`{ kind: "at-most", byNode: { 20: 2.5, 24: 3.5 } }`):
 * for a figure whose floor moves with the runtime (bare `node` starts in about two thirds of the time on Node 24 as on
 * Node 20). On a line it does not list, the figure is reported without a target.
 */
export interface TargetByNode {
  readonly kind: TargetKind;
  readonly byNode: Readonly<Record<number, number>>;
}

/** The target a benchmark declares: one for every Node line, or one per line. */
export type DeclaredTarget = Target | TargetByNode;

/** The median block of each side, in the unit the sides return: the absolute figures behind a ratio. */
export interface SideMedians {
  readonly subject: number;
  readonly baseline: number;
  /** E.g. "ms per block of 20 digests", "µs (p50)", "posts/s vs frames/s". */
  readonly unit: string;
}

/** The points of a scaling series (series.ts) behind a figure whose ratio is the fitted exponent. */
export interface ReportedSeries {
  /** What a size counts, plural: "members", "bytes". */
  readonly sizeUnit: string;
  /** What each side's median block is in. */
  readonly unit?: string;
  /** Goodness of the log–log fit, and the fitted cost at size 1. */
  readonly r2: number;
  readonly coefficient: number;
  readonly points: readonly {
    readonly size: number;
    readonly ratio: RatioSummary | number;
    readonly sides?: { readonly subject: number; readonly baseline: number };
  }[];
}

export interface RatioReport {
  /** Stable name, e.g. "framing.decode-throughput". */
  readonly name: string;
  /** One line: what is measured against what floor or ceiling (BENCHMARKS.md shows it beside the figure). */
  readonly about: string;
  /** The measured ratio, summarised over blocks (a bare number only for figures that are not timings). */
  readonly ratio: RatioSummary | number;
  readonly target?: DeclaredTarget;
  /** Raw figures behind the ratio, printed beside it. */
  readonly detail?: string;
  /**
   * The unit of a figure that is no ratio but an absolute value on this machine ("ms"): it and its target are then
   * shown in it ("2.989 ms", "<= 5 ms") rather than as times ("x").
   */
  readonly unit?: string;
  /** The absolute figures behind the ratio, kept in the record. */
  readonly sides?: SideMedians;
  /** For a scaling series: its points; the ratio is then the fitted exponent. */
  readonly series?: ReportedSeries;
}

/** One figure as the runner's results file holds it (`RESULTS_FILE_ENV`): everything the report printed. */
export interface ReportedFigure {
  readonly kind: "figure";
  readonly name: string;
  readonly about: string;
  /** The median (the bare ratio for a figure that is not summarised over blocks). */
  readonly ratio: number;
  readonly summary?: RatioSummary;
  /** The target judged on this Node line; absent when the figure has none here. */
  readonly target?: Target;
  /** Whether the target was met; true when the figure has no target. */
  readonly met: boolean;
  readonly hasTarget: boolean;
  readonly detail?: string;
  /** The unit of an absolute figure; absent for a ratio. */
  readonly unit?: string;
  readonly sides?: SideMedians;
  /** For a scaling series: its points (the ratio is the fitted exponent). */
  readonly series?: ReportedSeries;
}

/** A measured explanation a benchmark file declares (`benchNotes`), kept with its figures. */
export interface ReportedNote {
  readonly kind: "note";
  readonly text: string;
}

/** One line of the results file. */
export type ReportedLine = ReportedFigure | ReportedNote;

/** Environment variable naming the file where `pnpm bench` collects every figure and note, one JSON object a line. */
export const RESULTS_FILE_ENV = "ORPHUS_BENCH_RESULTS";

const fixed = (value: number): string => value.toFixed(3);

/** How a value is written: "1.234x" for a ratio, "1.234 ms" for a figure in a unit. */
export const withUnit = (text: string, unit?: string): string => (unit === undefined ? `${text}x` : `${text} ${unit}`);

/**
 * The printed form of a summary: "1.234x [IQR 1.180–1.310, range 1.050–1.600, 11 blocks]", or with a unit
 * "1.234 ms [IQR …]".
 */
export function formatRatio(ratio: RatioSummary | number, unit?: string): string {
  if (typeof ratio === "number") return withUnit(fixed(ratio), unit);
  return (
    `${withUnit(fixed(ratio.median), unit)} [IQR ${fixed(ratio.q1)}–${fixed(ratio.q3)}, ` +
    `range ${fixed(ratio.min)}–${fixed(ratio.max)}, ${ratio.blocks} blocks]`
  );
}

/** The target judged on Node `nodeVersion` ("20.19.0"): the declared one, or this line's; undefined for none. */
export function resolveTarget(
  target: DeclaredTarget | undefined,
  nodeVersion: string = process.versions.node,
): Target | undefined {
  if (target === undefined || "value" in target) return target;
  const value = target.byNode[Number(nodeVersion.split(".")[0])];
  return value === undefined ? undefined : { kind: target.kind, value };
}

function appendResult(line: ReportedLine, env: NodeJS.ProcessEnv): void {
  const resultsFile = env[RESULTS_FILE_ENV];
  if (resultsFile !== undefined && resultsFile !== "") appendFileSync(resultsFile, `${JSON.stringify(line)}\n`);
}

/**
 * Prints one line: name, median ratio with its spread, target and whether the median met it; writes the figure to
 * the runner's results file. Returns whether it was met.
 */
export function reportRatio(
  report: RatioReport,
  env: NodeJS.ProcessEnv = process.env,
  nodeVersion: string = process.versions.node,
): boolean {
  const value = typeof report.ratio === "number" ? report.ratio : report.ratio.median;
  const target = resolveTarget(report.target, nodeVersion);
  const met = target === undefined || (target.kind === "at-least" ? value >= target.value : value <= target.value);
  const line = `Node ${nodeVersion.split(".")[0]}`;
  const perLine = report.target !== undefined && !("value" in report.target);
  const isSeries = report.series !== undefined;
  const shownTarget =
    target !== undefined
      ? ` (target ${isSeries ? "exponent " : ""}${target.kind === "at-least" ? ">=" : "<="} ${isSeries ? target.value : withUnit(String(target.value), report.unit)}${perLine ? ` on ${line}` : ""})`
      : perLine
        ? ` (no target on ${line})`
        : "";
  const verdict = target === undefined ? "" : met ? " ok" : " MISSED";
  const detail = report.detail === undefined ? "" : ` — ${report.detail}`;
  const shown = isSeries ? `exponent ${value.toFixed(3)}` : formatRatio(report.ratio, report.unit);
  process.stdout.write(`${report.name}: ${shown}${shownTarget}${verdict}${detail}\n`);
  appendResult(
    {
      kind: "figure",
      name: report.name,
      about: report.about,
      ratio: value,
      ...(typeof report.ratio === "number" ? {} : { summary: report.ratio }),
      ...(target === undefined ? {} : { target }),
      met,
      hasTarget: target !== undefined,
      ...(report.detail === undefined ? {} : { detail: report.detail }),
      ...(report.unit === undefined ? {} : { unit: report.unit }),
      ...(report.sides === undefined ? {} : { sides: report.sides }),
      ...(report.series === undefined ? {} : { series: report.series }),
    },
    env,
  );
  if (!met) process.exitCode = 1;
  return met;
}

/**
 * Declares measured explanations of this file's figures (why a floor was chosen, what moves a figure): not printed,
 * but kept with the figures when the run is recorded, and shown under them in BENCHMARKS.md. One paragraph each.
 */
export function benchNotes(notes: readonly string[], env: NodeJS.ProcessEnv = process.env): void {
  for (const text of notes) appendResult({ kind: "note", text }, env);
}
