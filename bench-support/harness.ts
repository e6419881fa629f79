// The block harness every benchmark uses (not published). A subject and its floor or ceiling are measured in
// alternating blocks, the order rotating each block (A B, B A, A B, ...), so drift on a shared machine, a burst of
// load from a neighbour, and the garbage one side leaves behind fall on both sides alike. Each block yields a ratio;
// the figure is the median ratio, printed with its quartiles and range, so a reader sees how far to trust it.
import { performance } from "node:perf_hooks";
import { quantile } from "./stats.js";
import { reportRatio, type DeclaredTarget, type RatioSummary } from "./report.js";

/** Measured blocks per side when a benchmark names none: odd, so the median is one block's own ratio. */
export const DEFAULT_BLOCKS = 11;
/** Unmeasured blocks per side first, so every side runs optimised code before it counts. */
export const DEFAULT_WARMUP_BLOCKS = 1;

export interface BlockOptions {
  /** Measured blocks per side; default {@link DEFAULT_BLOCKS}. */
  readonly blocks?: number;
  /** Unmeasured blocks per side before them; default {@link DEFAULT_WARMUP_BLOCKS}. */
  readonly warmupBlocks?: number;
  /** Collect garbage before every block (needs --expose-gc, which `pnpm bench` passes); default true. */
  readonly collectGarbage?: boolean;
}

/** One side of a comparison: runs one block and returns its figure (a time, a rate, or the samples it took). */
export type BlockRun<T> = () => T | Promise<T>;

function count(name: string, value: number | undefined, fallback: number, least: number): number {
  const chosen = value ?? fallback;
  if (!Number.isSafeInteger(chosen) || chosen < least) {
    throw new RangeError(`${name} must be an integer of at least ${least}, got ${String(value)}`);
  }
  return chosen;
}

/**
 * Runs every side once per block, rotating which side goes first, after the warm-up blocks, and returns each side's
 * figures in block order. With two sides the order is B A | A B | B A ..., so neither always runs first.
 */
export async function alternateBlocks<K extends string, T>(
  sides: Readonly<Record<K, BlockRun<T>>>,
  options: BlockOptions = {},
): Promise<Record<K, T[]>> {
  const names = Object.keys(sides) as K[];
  if (names.length === 0) throw new RangeError("alternateBlocks needs at least one side");
  const blocks = count("blocks", options.blocks, DEFAULT_BLOCKS, 1);
  const warmup = count("warmupBlocks", options.warmupBlocks, DEFAULT_WARMUP_BLOCKS, 0);
  const collect = options.collectGarbage === false ? undefined : (globalThis as { gc?: () => void }).gc;
  const figures = Object.fromEntries(names.map((name) => [name, [] as T[]])) as Record<K, T[]>;
  for (let block = -warmup; block < blocks; block++) {
    const offset = (((block + warmup) % names.length) + names.length) % names.length;
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + offset) % names.length] as K;
      collect?.();
      const figure = await sides[name]();
      if (block >= 0) figures[name].push(figure);
    }
  }
  return figures;
}

/** Median, quartiles and range of a list of per-block ratios. */
export function summarise(ratios: readonly number[]): RatioSummary {
  if (ratios.length === 0) throw new RangeError("no blocks to summarise");
  return {
    median: quantile(ratios, 0.5),
    q1: quantile(ratios, 0.25),
    q3: quantile(ratios, 0.75),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
    blocks: ratios.length,
  };
}

/** The per-block ratios numerators[i] / denominators[i], summarised; both lists come from the same blocks. */
export function blockRatios(numerators: readonly number[], denominators: readonly number[]): RatioSummary {
  if (numerators.length !== denominators.length) {
    throw new RangeError(`blocks differ: ${numerators.length} numerators, ${denominators.length} denominators`);
  }
  return summarise(numerators.map((value, i) => value / (denominators[i] as number)));
}

/** Milliseconds `run` takes (awaited). */
export async function elapsedMs(run: () => unknown): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

export interface Comparison extends BlockOptions {
  /** Stable figure name, e.g. "framing.decode-throughput". */
  readonly name: string;
  /** One line: what is measured against what floor or ceiling (BENCHMARKS.md shows it beside the figure). */
  readonly about: string;
  /** One block of the subject; returns its cost (milliseconds, usually), lower being better. */
  readonly subject: BlockRun<number>;
  /** One block of the floor or ceiling, measured the same way. */
  readonly baseline: BlockRun<number>;
  /**
   * "cost" (default): the ratio is subject / baseline, how many times the floor the subject costs. "throughput":
   * baseline / subject, the subject's speed as a share of the ceiling's (1 means as fast).
   */
  readonly ratio?: "cost" | "throughput";
  readonly target?: DeclaredTarget;
  /** The text after the figure, from each side's median block. */
  readonly detail?: (medians: { readonly subject: number; readonly baseline: number }) => string;
  /** What one block of each side returns, recorded with the median blocks; default "ms per block". */
  readonly unit?: string;
}

export interface ComparisonResult {
  readonly summary: RatioSummary;
  readonly met: boolean;
  readonly subject: readonly number[];
  readonly baseline: readonly number[];
}

/** Measures subject and baseline in alternating blocks and reports the median per-block ratio with its spread. */
export async function compareInBlocks(comparison: Comparison): Promise<ComparisonResult> {
  const { subject, baseline } = await alternateBlocks(
    { subject: comparison.subject, baseline: comparison.baseline },
    comparison,
  );
  const summary = comparison.ratio === "throughput" ? blockRatios(baseline, subject) : blockRatios(subject, baseline);
  const medians = { subject: quantile(subject, 0.5), baseline: quantile(baseline, 0.5) };
  const met = reportRatio({
    name: comparison.name,
    about: comparison.about,
    ratio: summary,
    ...(comparison.target === undefined ? {} : { target: comparison.target }),
    ...(comparison.detail === undefined ? {} : { detail: comparison.detail(medians) }),
    sides: { ...medians, unit: comparison.unit ?? "ms per block" },
  });
  return { summary, met, subject, baseline };
}
