// Scaling series (not published): how a cost grows with the work. A series is one figure made of points, size →
// figure, each point measured as every other figure is (its subject and a floor in alternating blocks, in the same
// run, the median of per-block ratios with its spread), and judged on the exponent of a least-squares line through
// the points on log–log axes: cost ∝ size^exponent, so 1 is linear, 0 flat, 2 quadratic. The floor is usually one
// fixed piece of work measured beside every point, so the drift of a shared machine divides out of each point and the
// exponent is the subject's own.
//
// Usage, when each block of a point returns one cost:
//   await measureSeries({
//     name: "pkg.cost-vs-members", about: "…", sizeUnit: "members", sizes: [1, 2, 4, 8, 16, 32],
//     point: async (size) => { await grow(size); return () => elapsedMs(() => postOnce()); },
//     baseline: () => elapsedMs(() => floorOnce()),
//     target: { kind: "at-most", value: 1.1 },          // on the exponent
//   });
// When one set of blocks gives several figures (CPU, p50, p99), run `alternateBlocks` per size yourself, make each
// point with `blockRatios`, and hand the points to `reportSeries`.
import { alternateBlocks, blockRatios, type BlockOptions, type BlockRun } from "./harness.js";
import { reportRatio, type DeclaredTarget, type RatioSummary } from "./report.js";
import { quantile } from "./stats.js";

/** The least-squares line through points on log–log axes: log y = log coefficient + exponent · log x. */
export interface PowerFit {
  /** The slope on log–log axes: how many times the cost grows per doubling is 2^exponent. */
  readonly exponent: number;
  /** The fitted cost at size 1. */
  readonly coefficient: number;
  /** Share of the variance of log y the line explains; 1 when the points lie on the line to within rounding. */
  readonly r2: number;
}

/**
 * Fits cost = coefficient · size^exponent by least squares on (log size, log cost). Needs at least two distinct sizes
 * and only positive, finite values; throws RangeError otherwise.
 */
export function fitPowerLaw(points: readonly { readonly size: number; readonly value: number }[]): PowerFit {
  for (const { size, value } of points) {
    if (!(size > 0 && Number.isFinite(size) && value > 0 && Number.isFinite(value))) {
      throw new RangeError(`a log–log fit needs positive finite sizes and values, got ${size} → ${value}`);
    }
  }
  const xs = points.map((point) => Math.log(point.size));
  const ys = points.map((point) => Math.log(point.value));
  const n = xs.length;
  const meanX = xs.reduce((a, b) => a + b, 0) / n;
  const meanY = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - meanX;
    const dy = (ys[i] as number) - meanY;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (!(sxx > 0)) throw new RangeError(`a log–log fit needs at least two distinct sizes, got ${n} point(s)`);
  const exponent = sxy / sxx;
  const residual = syy - exponent * sxy;
  return {
    exponent,
    coefficient: Math.exp(meanY - exponent * meanX),
    r2: residual <= 1e-18 * n ? 1 : Math.max(0, Math.min(1, 1 - residual / syy)),
  };
}

/** One point of a series as reported: its size, and its figure (a summary over blocks, or a bare number). */
export interface SeriesPointReport {
  readonly size: number;
  readonly ratio: RatioSummary | number;
  /** The median block of each side at this point, in the series' `unit`. */
  readonly sides?: { readonly subject: number; readonly baseline: number };
}

export interface SeriesReport {
  /** Stable figure name, e.g. "roundtable-broker.fan-out-cpu-vs-members". */
  readonly name: string;
  /** One line: what each point measures against what floor, and over which sizes. */
  readonly about: string;
  /** What a size counts, plural: "members", "bytes", "brokers". */
  readonly sizeUnit: string;
  /** What each side's median block is in, e.g. "µs CPU per post". */
  readonly unit?: string;
  readonly points: readonly SeriesPointReport[];
  /** The target on the fitted exponent. */
  readonly target?: DeclaredTarget;
  /** Text printed after the exponent. */
  readonly detail?: string;
}

const pointMedian = (point: SeriesPointReport): number =>
  typeof point.ratio === "number" ? point.ratio : point.ratio.median;

/**
 * Prints each point and the fitted exponent, judges the exponent against the target, and writes the series to the
 * runner's results file as one figure whose median is the exponent (so the record and the closing line treat it like
 * any other figure), with its points. Returns whether the target was met.
 */
export function reportSeries(
  report: SeriesReport,
  env: NodeJS.ProcessEnv = process.env,
  nodeVersion: string = process.versions.node,
): boolean {
  const sorted = [...report.points].sort((a, b) => a.size - b.size);
  const fit = fitPowerLaw(sorted.map((point) => ({ size: point.size, value: pointMedian(point) })));
  for (const point of sorted) {
    const r = point.ratio;
    const spread = typeof r === "number" ? "" : ` [IQR ${r.q1.toFixed(3)}–${r.q3.toFixed(3)}, ${r.blocks} blocks]`;
    process.stdout.write(
      `  ${report.name} @ ${point.size} ${report.sizeUnit}: ${pointMedian(point).toFixed(3)}x${spread}\n`,
    );
  }
  const fitText = `exponent ${fit.exponent.toFixed(3)} over ${sorted[0]?.size}–${sorted.at(-1)?.size} ${report.sizeUnit}, r² ${fit.r2.toFixed(3)}`;
  return reportRatio(
    {
      name: report.name,
      about: report.about,
      ratio: fit.exponent,
      ...(report.target === undefined ? {} : { target: report.target }),
      detail: report.detail === undefined ? fitText : `${fitText}; ${report.detail}`,
      series: {
        sizeUnit: report.sizeUnit,
        ...(report.unit === undefined ? {} : { unit: report.unit }),
        r2: fit.r2,
        coefficient: fit.coefficient,
        points: sorted,
      },
    },
    env,
    nodeVersion,
  );
}

export interface SeriesComparison extends BlockOptions {
  readonly name: string;
  readonly about: string;
  readonly sizeUnit: string;
  /** The sizes, measured in this order (each point's blocks finish before the next size starts). */
  readonly sizes: readonly number[];
  /** Prepares the subject at `size` (connects members, fills a store) and returns one block of it: its cost. */
  readonly point: (size: number) => BlockRun<number> | Promise<BlockRun<number>>;
  /** One block of the floor, alternating with every point's blocks: usually the same fixed work at every size. */
  readonly baseline: BlockRun<number>;
  /** "cost" (default): each point is subject / baseline; "throughput": baseline / subject. */
  readonly ratio?: "cost" | "throughput";
  readonly unit?: string;
  readonly target?: DeclaredTarget;
  readonly detail?: string;
}

/** Measures every point in alternating blocks against the floor, then reports the series (`reportSeries`). */
export async function measureSeries(
  series: SeriesComparison,
): Promise<{ readonly met: boolean; readonly points: readonly SeriesPointReport[] }> {
  const points: SeriesPointReport[] = [];
  for (const size of series.sizes) {
    const subject = await series.point(size);
    const figures = await alternateBlocks({ subject, baseline: series.baseline }, series);
    points.push({
      size,
      ratio:
        series.ratio === "throughput"
          ? blockRatios(figures.baseline, figures.subject)
          : blockRatios(figures.subject, figures.baseline),
      sides: { subject: quantile(figures.subject, 0.5), baseline: quantile(figures.baseline, 0.5) },
    });
  }
  const met = reportSeries({
    name: series.name,
    about: series.about,
    sizeUnit: series.sizeUnit,
    points,
    ...(series.unit === undefined ? {} : { unit: series.unit }),
    ...(series.target === undefined ? {} : { target: series.target }),
    ...(series.detail === undefined ? {} : { detail: series.detail }),
  });
  return { met, points };
}
