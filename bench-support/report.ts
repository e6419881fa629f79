// Shared by every package's bench/*.bench.ts (not published). Benchmarks print ratios to a floor or ceiling
// measured in the same run, because the machine is shared and absolute numbers drift.
import { performance } from "node:perf_hooks";

/** Direction a ratio must go to meet its target. */
export type TargetKind = "at-least" | "at-most";

export interface RatioReport {
  /** Stable name, e.g. "framing.decode-throughput". */
  readonly name: string;
  /** The measured ratio. */
  readonly ratio: number;
  readonly target?: { readonly kind: TargetKind; readonly value: number };
  /** Raw figures behind the ratio, printed beside it. */
  readonly detail?: string;
}

/** Prints one line: name, ratio, target and whether it was met. Returns whether it was met. */
export function reportRatio(report: RatioReport): boolean {
  const met =
    report.target === undefined ||
    (report.target.kind === "at-least" ? report.ratio >= report.target.value : report.ratio <= report.target.value);
  const target =
    report.target === undefined ? "" : ` (target ${report.target.kind === "at-least" ? ">=" : "<="} ${report.target.value}x)`;
  const verdict = report.target === undefined ? "" : met ? " ok" : " MISSED";
  const detail = report.detail === undefined ? "" : ` — ${report.detail}`;
  process.stdout.write(`${report.name}: ${report.ratio.toFixed(3)}x${target}${verdict}${detail}\n`);
  if (!met) process.exitCode = 1;
  return met;
}

/** Runs `fn` `rounds` times and returns the median duration in milliseconds (after one warm-up run). */
export async function medianMs(rounds: number, fn: () => unknown | Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

/** The q-quantile (0..1) of a list of numbers. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** A deterministic pseudo-random generator (mulberry32) so benchmark inputs are the same every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
