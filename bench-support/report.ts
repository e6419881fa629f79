// Shared by every package's bench/*.bench.ts (not published). Benchmarks print ratios to a floor or ceiling
// measured in the same run, because the machine is shared and absolute numbers drift. Figures come from the block
// harness (harness.ts): a median over alternating blocks, printed with its spread.
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

export interface RatioReport {
  /** Stable name, e.g. "framing.decode-throughput". */
  readonly name: string;
  /** The measured ratio, summarised over blocks (a bare number only for figures that are not timings). */
  readonly ratio: RatioSummary | number;
  readonly target?: { readonly kind: TargetKind; readonly value: number };
  /** Raw figures behind the ratio, printed beside it. */
  readonly detail?: string;
}

/** One line of the results file the runner reads (`RESULTS_FILE_ENV`), one JSON object per reported figure. */
export interface ReportedResult {
  readonly name: string;
  readonly ratio: number;
  /** Whether the target was met; true when the figure has no target. */
  readonly met: boolean;
  readonly hasTarget: boolean;
}

/** Environment variable naming the file where `pnpm bench` collects every figure, to name the missed ones. */
export const RESULTS_FILE_ENV = "ORPHUS_BENCH_RESULTS";

const fixed = (value: number): string => value.toFixed(3);

/** The printed form of a summary: "1.234x [IQR 1.180–1.310, range 1.050–1.600, 11 blocks]". */
export function formatRatio(ratio: RatioSummary | number): string {
  if (typeof ratio === "number") return `${fixed(ratio)}x`;
  return (
    `${fixed(ratio.median)}x [IQR ${fixed(ratio.q1)}–${fixed(ratio.q3)}, ` +
    `range ${fixed(ratio.min)}–${fixed(ratio.max)}, ${ratio.blocks} blocks]`
  );
}

/**
 * Prints one line: name, median ratio with its spread, target and whether the median met it; records the figure for
 * the runner's closing line. Returns whether it was met.
 */
export function reportRatio(report: RatioReport, env: NodeJS.ProcessEnv = process.env): boolean {
  const value = typeof report.ratio === "number" ? report.ratio : report.ratio.median;
  const met =
    report.target === undefined ||
    (report.target.kind === "at-least" ? value >= report.target.value : value <= report.target.value);
  const target =
    report.target === undefined ? "" : ` (target ${report.target.kind === "at-least" ? ">=" : "<="} ${report.target.value}x)`;
  const verdict = report.target === undefined ? "" : met ? " ok" : " MISSED";
  const detail = report.detail === undefined ? "" : ` — ${report.detail}`;
  process.stdout.write(`${report.name}: ${formatRatio(report.ratio)}${target}${verdict}${detail}\n`);
  const resultsFile = env[RESULTS_FILE_ENV];
  if (resultsFile !== undefined && resultsFile !== "") {
    const result: ReportedResult = { name: report.name, ratio: value, met, hasTarget: report.target !== undefined };
    appendFileSync(resultsFile, `${JSON.stringify(result)}\n`);
  }
  if (!met) process.exitCode = 1;
  return met;
}
