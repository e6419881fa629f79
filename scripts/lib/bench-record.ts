// The benchmark record: `pnpm bench --record` appends each run to benchmarks/record.jsonl (one JSON object a line,
// oldest first), with the conditions it ran under and every figure as the harness reported it, and BENCHMARKS.md is
// generated from it. The record is bounded: for each Node line and benchmark file it keeps the newest
// RECORD_KEEP_PER_FILE results; a run none of whose files is still kept leaves it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { RatioSummary, ReportedFigure, ReportedSeries, Target } from "../../bench-support/report.js";

/** The record's path, relative to the repository root. */
export const RECORD_PATH = "benchmarks/record.jsonl";

/** Results of one benchmark file kept per Node line: the newest this many. */
export const RECORD_KEEP_PER_FILE = 10;

/** One point of a scaling series as the record keeps it: its size, median and spread, and each side's median block. */
export interface RecordedPoint {
  readonly size: number;
  readonly median: number;
  readonly q1?: number;
  readonly q3?: number;
  readonly min?: number;
  readonly max?: number;
  readonly blocks?: number;
  readonly sides?: { readonly subject: number; readonly baseline: number };
}

/**
 * The points behind a scaling series (bench-support/series.ts). A figure with one is judged on its fitted exponent,
 * which is its `median`; records written before series existed have none, and read as they did.
 */
export interface RecordedSeries {
  readonly sizeUnit: string;
  readonly unit?: string;
  readonly r2: number;
  readonly coefficient: number;
  readonly points: readonly RecordedPoint[];
}

/** One figure of one run, as the harness reported it (ratios rounded to 4 decimals, absolute figures to 4 digits). */
export interface RecordedFigure {
  readonly name: string;
  /** What is measured against what floor, as the benchmark declares it. */
  readonly about: string;
  readonly median: number;
  /** Quartiles, range and block count, for a figure summarised over blocks. */
  readonly q1?: number;
  readonly q3?: number;
  readonly min?: number;
  readonly max?: number;
  readonly blocks?: number;
  /** The target judged on this run's Node line; absent for an informative figure. */
  readonly target?: Target;
  /** Whether the median met the target (true without one). */
  readonly met: boolean;
  /** The printed text after the figure: absolute times and rates behind the ratio. */
  readonly detail?: string;
  /** The unit of a figure that is an absolute value ("ms"); absent for a ratio and in records made before units. */
  readonly unit?: string;
  /** The median block of each side, where the harness has them. */
  readonly sides?: { readonly subject: number; readonly baseline: number; readonly unit: string };
  /** For a scaling series: its points; `median` is then the fitted exponent. */
  readonly series?: RecordedSeries;
}

/** One benchmark file of a run. */
export interface RecordedFile {
  /** The folder under packages/. */
  readonly package: string;
  readonly file: string;
  /** Its process's exit status; null when a signal ended it. */
  readonly status: number | null;
  /** Percent of the benchmark's CPU (all CPUs when unpinned) the host took for its other guests during the file. */
  readonly steal: number | null;
  readonly figures: readonly RecordedFigure[];
  /** Measured explanations the benchmark declares (`benchNotes`), shown under its figures. */
  readonly notes: readonly string[];
}

/** One `pnpm bench --record` run. */
export interface RecordedRun {
  /** When the run ended, ISO 8601 in UTC to the second. */
  readonly date: string;
  /** The short commit the run measured. */
  readonly commit: string;
  /** True when the working tree had changes (outside the record and what is generated from it). */
  readonly dirty: boolean;
  /** The Node version that ran the benchmarks (`v20.20.2`), and its line (`20`). */
  readonly node: string;
  readonly line: string;
  /** The CPU the runner pinned every benchmark to (`--cpu`), or null. */
  readonly cpu: number | null;
  readonly files: readonly RecordedFile[];
}

/** A record line that is not a run as this code writes it. */
export class BenchRecordError extends Error {
  override readonly name = "BenchRecordError";
  readonly code = "ERR_BENCH_RECORD";
}

const round = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};
const significant = (value: number): number =>
  value === 0 || !Number.isFinite(value) ? value : Number(value.toPrecision(4));

/** The quartiles, range and block count of a summary as the record keeps them. */
function recordedSpread(
  summary: RatioSummary | undefined,
): Pick<RecordedPoint, "q1" | "q3" | "min" | "max" | "blocks"> {
  return summary === undefined
    ? {}
    : {
        q1: round(summary.q1, 4),
        q3: round(summary.q3, 4),
        min: round(summary.min, 4),
        max: round(summary.max, 4),
        blocks: summary.blocks,
      };
}

/** A reported series as the record keeps it. */
function recordedSeries(series: ReportedSeries): RecordedSeries {
  return {
    sizeUnit: series.sizeUnit,
    ...(series.unit === undefined ? {} : { unit: series.unit }),
    r2: round(series.r2, 4),
    coefficient: significant(series.coefficient),
    points: series.points.map((point) => ({
      size: point.size,
      median: round(typeof point.ratio === "number" ? point.ratio : point.ratio.median, 4),
      ...recordedSpread(typeof point.ratio === "number" ? undefined : point.ratio),
      ...(point.sides === undefined
        ? {}
        : { sides: { subject: significant(point.sides.subject), baseline: significant(point.sides.baseline) } }),
    })),
  };
}

/** A reported figure as the record keeps it. */
export function recordedFigure(figure: ReportedFigure): RecordedFigure {
  return {
    name: figure.name,
    about: figure.about,
    median: round(figure.ratio, 4),
    ...recordedSpread(figure.summary),
    ...(figure.target === undefined ? {} : { target: figure.target }),
    met: figure.met,
    ...(figure.detail === undefined ? {} : { detail: figure.detail }),
    ...(figure.unit === undefined ? {} : { unit: figure.unit }),
    ...(figure.sides === undefined
      ? {}
      : {
          sides: {
            subject: significant(figure.sides.subject),
            baseline: significant(figure.sides.baseline),
            unit: figure.sides.unit,
          },
        }),
    ...(figure.series === undefined ? {} : { series: recordedSeries(figure.series) }),
  };
}

/** The Node line of a version: "v24.21.0" → "24". */
export function nodeLine(version: string): string {
  const match = /^v?(\d+)\./.exec(version);
  if (match === null)
    throw new BenchRecordError(`a Node version is like v20.19.0, got ${JSON.stringify(version.slice(0, 40))}`);
  return match[1] as string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Checks the shape of a figure's series: a size unit, and points each with a positive size and a median. */
function checkSeries(series: unknown, fail: (what: string) => never): void {
  if (!isObject(series) || typeof series["sizeUnit"] !== "string" || !Array.isArray(series["points"])) {
    fail("a series has no size unit or points list");
    return;
  }
  for (const point of series["points"] as unknown[]) {
    if (!isObject(point) || typeof point["size"] !== "number" || !(point["size"] > 0))
      fail("a series point has no size");
    if (typeof (point as Record<string, unknown>)["median"] !== "number") fail("a series point has no median");
  }
}

/** Checks the shape of one record line (written by this code, but read back from a file anyone may edit). */
function checkRun(value: unknown, where: string): RecordedRun {
  const fail = (what: string): never => {
    throw new BenchRecordError(`${where}: ${what}`);
  };
  if (!isObject(value)) return fail("not a JSON object");
  for (const key of ["date", "commit", "node", "line"])
    if (typeof value[key] !== "string") fail(`"${key}" is not a string`);
  if (typeof value["dirty"] !== "boolean") fail('"dirty" is not true or false');
  if (value["cpu"] !== null && typeof value["cpu"] !== "number") fail('"cpu" is neither a number nor null');
  if (!Array.isArray(value["files"])) return fail('"files" is not a list');
  for (const file of value["files"] as unknown[]) {
    if (!isObject(file) || typeof file["package"] !== "string" || typeof file["file"] !== "string") {
      fail("a file has no package or file name");
    }
    const { figures, notes } = file as Record<string, unknown>;
    if (!Array.isArray(figures) || !Array.isArray(notes)) return fail("a file has no figures or notes list");
    for (const figure of figures as unknown[]) {
      if (!isObject(figure) || typeof figure["name"] !== "string" || typeof figure["median"] !== "number") {
        fail("a figure has no name or median");
      }
      const series = (figure as Record<string, unknown>)["series"];
      if (series !== undefined) checkSeries(series, fail);
    }
  }
  return value as unknown as RecordedRun;
}

/** The runs of a record's text, oldest first. */
export function parseRecord(text: string): RecordedRun[] {
  return text
    .split("\n")
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => line.trim() !== "")
    .map(({ line, index }) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw new BenchRecordError(`line ${index + 1}: not JSON (${(error as Error).message})`, { cause: error });
      }
      return checkRun(value, `line ${index + 1}`);
    });
}

/** The record's text: one run a line, oldest first. */
export function formatRecord(runs: readonly RecordedRun[]): string {
  return runs.map((run) => `${JSON.stringify(run)}\n`).join("");
}

/** A benchmark file's key in the record: "framing/framing.bench.ts". */
export const fileKey = (file: Pick<RecordedFile, "package" | "file">): string => `${file.package}/${file.file}`;

/**
 * The record bounded: for each Node line and benchmark file, only the newest `keep` results stay; a run left with
 * no file is dropped. Order is kept (oldest first).
 */
export function boundRecord(runs: readonly RecordedRun[], keep = RECORD_KEEP_PER_FILE): RecordedRun[] {
  const seen = new Map<string, number>();
  const kept: RecordedRun[] = [];
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i] as RecordedRun;
    const files = run.files.filter((file) => {
      const key = `${run.line} ${fileKey(file)}`;
      const count = (seen.get(key) ?? 0) + 1;
      seen.set(key, count);
      return count <= keep;
    });
    if (files.length > 0) kept.push(files.length === run.files.length ? run : { ...run, files });
  }
  return kept.reverse();
}

/** Reads the record at `path` (no file: no runs). */
export function readRecord(path: string): RecordedRun[] {
  return existsSync(path) ? parseRecord(readFileSync(path, "utf8")) : [];
}

/** Appends `run` to the record at `path`, bounded (boundRecord); returns the runs now kept. */
export function appendRun(path: string, run: RecordedRun, keep = RECORD_KEEP_PER_FILE): RecordedRun[] {
  const runs = boundRecord([...readRecord(path), run], keep);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, formatRecord(runs));
  return runs;
}
