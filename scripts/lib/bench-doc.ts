// BENCHMARKS.md, made from the benchmark record (bench-record.ts) and nothing else: what each figure measures
// against what floor (as its benchmark declares it), its target, the newest figure on each Node line with its spread,
// met or missed, the range over the recorded runs, a chart where there is more than one run, and the notes the
// benchmark files declare. `pnpm bench --record` and `pnpm bench:report` write it; a test checks the committed page.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withUnit, type Target } from "../../bench-support/report.js";
import { renderChart, renderLogLogChart, type ChartSeries } from "./bench-chart.js";
import {
  fileKey,
  readRecord,
  RECORD_KEEP_PER_FILE,
  RECORD_PATH,
  type RecordedFigure,
  type RecordedFile,
  type RecordedRun,
} from "./bench-record.js";

/** The generated page and the folder of its charts, relative to the repository root. */
export const BENCHMARKS_DOC_PATH = "BENCHMARKS.md";
export const CHARTS_DIR = "benchmarks/charts";

/** The page and its charts (file name → SVG text). */
export interface BenchmarksDoc {
  readonly markdown: string;
  readonly charts: ReadonlyMap<string, string>;
}

/** One recorded result of a figure: the run and file it came from. */
interface Sample {
  readonly run: RecordedRun;
  readonly file: RecordedFile;
  readonly figure: RecordedFigure;
  /** Position of the run in the record. */
  readonly order: number;
}

/** The anchor GitHub gives a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
export function headingAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The chart file of a figure: its name, with anything but letters, digits, `.`, `_` and `-` as `-`. */
export function chartFileName(figure: string): string {
  return `${figure.replace(/[^A-Za-z0-9._-]/g, "-")}.svg`;
}

/** A value as shown: a ratio ("1.234x"), or in the unit of an absolute figure ("2.989 ms"). */
const inUnit = (value: number, unit?: string): string => withUnit(value.toFixed(3), unit);
const ratio = (value: number): string => inUnit(value);
/**
 * The unit a figure is shown in: that of its newest sample that has one, so runs recorded before figures carried a
 * unit read in it too; undefined for a ratio.
 */
const unitOf = (samples: readonly Sample[]): string | undefined =>
  [...samples].reverse().find((sample) => sample.figure.unit !== undefined)?.figure.unit;
/** A figure's median as shown: a ratio or a value in its unit, or for a scaling series its fitted exponent. */
const shownMedian = (figure: RecordedFigure, unit?: string): string =>
  figure.series === undefined ? inUnit(figure.median, unit) : `exponent ${figure.median.toFixed(3)}`;
const targetText = (target: Target, series = false, unit?: string): string =>
  `${series ? "exponent " : ""}${target.kind === "at-least" ? "≥" : "≤"} ` +
  `${series ? target.value : withUnit(String(target.value), unit)}`;
const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
const day = (date: string): string => date.slice(0, 10);
const byLine = (a: string, b: string): number => Number(a) - Number(b) || a.localeCompare(b);
const stealText = (steal: number | null): string => (steal === null ? "not known" : `${steal.toFixed(1)}%`);
const commitText = (run: RecordedRun): string => `${run.commit}${run.dirty ? " (dirty)" : ""}`;

/** The range of some numbers as "a–b" (or "a" when they are one), through `format`. */
function span(values: readonly number[], format: (value: number) => string): string {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? format(low) : `${format(low)}–${format(high)}`;
}

/** Everything the page says about one benchmark file: its results per Node line, and its figures in order. */
interface FileView {
  readonly key: string;
  readonly package: string;
  readonly file: string;
  /** Every recorded result of the file, oldest first. */
  readonly results: readonly { readonly run: RecordedRun; readonly file: RecordedFile; readonly order: number }[];
  /** Figure names, those of the file's newest result first, in the order it reported them. */
  readonly figures: readonly string[];
}

function fileViews(runs: readonly RecordedRun[]): FileView[] {
  const views = new Map<string, { package: string; file: string; results: FileView["results"][number][] }>();
  runs.forEach((run, order) => {
    for (const file of run.files) {
      const key = fileKey(file);
      const view = views.get(key) ?? { package: file.package, file: file.file, results: [] };
      view.results.push({ run, file, order });
      views.set(key, view);
    }
  });
  return [...views.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, view]) => {
      const figures: string[] = [];
      for (const result of [...view.results].reverse()) {
        for (const figure of result.file.figures) if (!figures.includes(figure.name)) figures.push(figure.name);
      }
      // Newest result's figures in their order; older names after them, newest first.
      const newest = view.results.at(-1)?.file.figures.map((figure) => figure.name) ?? [];
      const ordered = [...newest, ...figures.filter((name) => !newest.includes(name))];
      return { key, package: view.package, file: view.file, results: view.results, figures: ordered };
    });
}

function samplesOf(view: FileView, name: string): Sample[] {
  return view.results.flatMap(({ run, file, order }) => {
    const figure = file.figures.find((f) => f.name === name);
    return figure === undefined ? [] : [{ run, file, figure, order }];
  });
}

function samplesByLine(samples: readonly Sample[]): Map<string, Sample[]> {
  const lines = new Map<string, Sample[]>();
  for (const sample of samples) lines.set(sample.run.line, [...(lines.get(sample.run.line) ?? []), sample]);
  return new Map([...lines.entries()].sort(([a], [b]) => byLine(a, b)));
}

/** The target of a figure as the newest result on each line judged it: one text, or one per line. */
function targetsText(lines: ReadonlyMap<string, Sample[]>, unit?: string): string {
  const texts = [...lines.entries()].map(([line, samples]) => {
    const figure = samples.at(-1)?.figure;
    const target = figure?.target;
    return {
      line,
      text: target === undefined ? "none (informative)" : targetText(target, figure?.series !== undefined, unit),
    };
  });
  const distinct = new Set(texts.map((t) => t.text));
  if (distinct.size === 1) return texts[0]?.text ?? "none";
  return texts.map((t) => `${t.text} on Node ${t.line}`).join(", ");
}

function verdict(figure: RecordedFigure): string {
  return figure.target === undefined ? "informative" : figure.met ? "met" : "**missed**";
}

function chartOf(name: string, samples: readonly Sample[], unit: string | undefined): string {
  const orders = [...new Set(samples.map((s) => s.order))].sort((a, b) => a - b);
  const series: ChartSeries[] = [...samplesByLine(samples).entries()].map(([line, list]) => ({
    line,
    target: list.at(-1)?.figure.target?.value,
    points: list.map(({ figure, order }) => ({
      index: orders.indexOf(order),
      median: figure.median,
      q1: figure.q1,
      q3: figure.q3,
    })),
  }));
  return renderChart({ name, runs: orders.length, series, ...(unit === undefined ? {} : { unit }) });
}

/** The latest points of a series on each Node line, as a table: size, ratio with its spread, each side's median. */
function seriesSection(name: string, perLine: ReadonlyMap<string, Sample[]>): string[] {
  const out: string[] = [];
  for (const [line, list] of perLine) {
    const series = (list.at(-1) as Sample).figure.series;
    if (series === undefined) continue;
    out.push(
      `Points of \`${name}\` on Node ${line} (r² ${series.r2.toFixed(3)}${series.unit === undefined ? "" : `; sides in ${series.unit}`}):\n`,
    );
    out.push(`| ${series.sizeUnit} | ratio | IQR | range | blocks | subject | floor |`);
    out.push("| --- | --- | --- | --- | --- | --- | --- |");
    for (const point of series.points) {
      out.push(
        `| ${point.size} | ${ratio(point.median)} | ` +
          `${point.q1 !== undefined && point.q3 !== undefined ? `${point.q1.toFixed(3)}–${point.q3.toFixed(3)}` : "—"} | ` +
          `${point.min !== undefined && point.max !== undefined ? `${point.min.toFixed(3)}–${point.max.toFixed(3)}` : "—"} | ` +
          `${point.blocks ?? "—"} | ${point.sides?.subject ?? "—"} | ${point.sides?.baseline ?? "—"} |`,
      );
    }
    out.push("");
  }
  return out;
}

function logLogChartOf(name: string, perLine: ReadonlyMap<string, Sample[]>): string {
  const latest = [...perLine.entries()].flatMap(([line, list]) => {
    const figure = (list.at(-1) as Sample).figure;
    return figure.series === undefined ? [] : [{ line, figure, series: figure.series }];
  });
  return renderLogLogChart({
    name,
    sizeUnit: latest[0]?.series.sizeUnit ?? "size",
    series: latest.map(({ line, figure, series }) => ({
      line,
      exponent: figure.median,
      coefficient: series.coefficient,
      target: figure.target?.value,
      points: series.points.map((point) => ({
        size: point.size,
        median: point.median,
        ...(point.q1 === undefined ? {} : { q1: point.q1 }),
        ...(point.q3 === undefined ? {} : { q3: point.q3 }),
      })),
    })),
  });
}

const INTRO = `# Benchmarks

Generated by \`pnpm bench:report\` from the benchmark record, \`${RECORD_PATH}\`, which \`pnpm bench --record\` appends
to; do not edit it by hand (\`scripts/test/benchmarks-doc.test.ts\` checks that it is what the record gives). What
each figure measures, its target and its notes are declared by its benchmark file, next to the figure, and reach
this page through the record.

Every figure is a ratio to a floor or ceiling measured in the same run ([contributing](docs/contributing.md#benchmarks)): the
median of per-block ratios, subject and floor alternating in blocks, with the quartiles (IQR) and the range of the
blocks. A target is judged on the median, on every Node line alike; where a floor moves with the runtime the target
is stated per Node line. "Latest" is the newest recorded run of the figure on its Node line; "recorded" is the range
of its medians over the runs the record keeps (the newest ${RECORD_KEEP_PER_FILE} of each benchmark file per Node line) and how many
of them met the target. Host steal is the share of the benchmark's CPU that the host gave its other guests while the
file ran. The machine these runs were taken on is shared (2 cores, other work running beside them), so one run's
figure is one sample of a spread, not a constant: read the IQR and the recorded range before the median.

A scaling series is one figure made of points, each a ratio to a floor measured as above at one size, and is judged
on its exponent: the slope of a least-squares line through the points' medians on log–log axes (1: cost grows as the
size; 0: flat). Its section lists the latest points and draws them on log–log axes with the fitted line.
`;

/** BENCHMARKS.md and its charts, from the record's runs (oldest first). */
export function renderBenchmarksDoc(runs: readonly RecordedRun[]): BenchmarksDoc {
  const views = fileViews(runs);
  const charts = new Map<string, string>();
  const out: string[] = [INTRO];

  out.push("## Recorded runs\n");
  if (runs.length === 0) out.push("None yet: `pnpm bench --record` records one.\n");
  else {
    out.push("| date (UTC) | commit | Node | pinned to | files | figures missed | host steal per file |");
    out.push("| --- | --- | --- | --- | --- | --- | --- |");
    for (const run of [...runs].reverse()) {
      const steals = run.files.flatMap((file) => (file.steal === null ? [] : [file.steal]));
      const missed = run.files.flatMap((file) => file.figures).filter((figure) => !figure.met).length;
      const failed = run.files.filter((file) => file.status !== 0 && file.figures.every((f) => f.met)).length;
      out.push(
        `| ${run.date.replace("T", " ").replace(/\.\d+Z$|Z$/, "")} | ${commitText(run)} | ${run.node} | ` +
          `${run.cpu === null ? "unpinned" : `CPU ${run.cpu}`} | ${run.files.length}${failed > 0 ? ` (${failed} failed)` : ""} | ` +
          `${missed} | ${steals.length === 0 ? "not known" : span(steals, (v) => `${v.toFixed(1)}%`)} |`,
      );
    }
    out.push("");
  }

  // Overview: every figure with its target and its latest figure per line.
  const lines = [...new Set(runs.map((run) => run.line))].sort(byLine);
  if (views.length > 0) {
    out.push("## Overview\n");
    out.push(`| figure | target | ${lines.map((line) => `latest on Node ${line}`).join(" | ")} |`);
    out.push(`| --- | --- | ${lines.map(() => "---").join(" | ")} |`);
    for (const view of views) {
      for (const name of view.figures) {
        const samples = samplesOf(view, name);
        const perLine = samplesByLine(samples);
        const unit = unitOf(samples);
        const latest = lines.map((line) => {
          const figure = perLine.get(line)?.at(-1)?.figure;
          return figure === undefined ? "not recorded" : `${shownMedian(figure, unit)} ${verdict(figure)}`;
        });
        out.push(
          `| [\`${name}\`](#${headingAnchor(`\`${name}\``)}) | ${cell(targetsText(perLine, unit))} | ${latest.join(" | ")} |`,
        );
      }
    }
    out.push("");
  }

  for (const packageName of [...new Set(views.map((view) => view.package))]) {
    out.push(`## ${packageName}\n`);
    const packageViews = views.filter((view) => view.package === packageName);
    out.push(
      `\`pnpm bench ${packageName}\` runs ${packageViews.map((view) => `\`packages/${packageName}/bench/${view.file}\``).join(", ")}.\n`,
    );
    for (const view of packageViews) {
      // Results of this file that reported nothing: the reason a figure is missing on a line.
      for (const { run, file } of view.results.filter((result) => result.file.figures.length === 0)) {
        out.push(
          `\`${view.file}\` on Node ${run.line} (${day(run.date)}, ${commitText(run)}) reported no figure: its process ` +
            `exited ${file.status === null ? "by a signal" : `with ${file.status}`}.\n`,
        );
      }
      for (const name of view.figures) {
        const samples = samplesOf(view, name);
        const perLine = samplesByLine(samples);
        const unit = unitOf(samples);
        const newest = samples.at(-1) as Sample;
        out.push(`### \`${name}\`\n`);
        out.push(`${newest.figure.about}\n`);
        const newestOfFile = view.results.at(-1)?.file;
        if (newestOfFile !== undefined && !newestOfFile.figures.some((figure) => figure.name === name)) {
          out.push(
            `Not reported by the newest run of \`${view.file}\` (renamed or removed); it leaves the record as runs are pruned.\n`,
          );
        }
        out.push("| Node | target | latest | IQR | range | blocks | verdict | recorded medians | met |");
        out.push("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for (const [line, list] of perLine) {
          const { figure } = list.at(-1) as Sample;
          const targeted = list.filter((sample) => sample.figure.target !== undefined);
          const summarised = figure.q1 !== undefined && figure.q3 !== undefined;
          out.push(
            `| ${line} | ${figure.target === undefined ? "—" : targetText(figure.target, figure.series !== undefined, unit)} | ` +
              `${shownMedian(figure, unit)} | ` +
              `${summarised ? `${figure.q1?.toFixed(3)}–${figure.q3?.toFixed(3)}` : "—"} | ` +
              `${figure.min !== undefined && figure.max !== undefined ? `${figure.min.toFixed(3)}–${figure.max.toFixed(3)}` : "—"} | ` +
              `${figure.blocks ?? "—"} | ${verdict(figure)} | ` +
              `${span(
                list.map((sample) => sample.figure.median),
                figure.series === undefined ? (value) => inUnit(value, unit) : (value) => value.toFixed(3),
              )} over ${list.length} run${list.length === 1 ? "" : "s"} | ` +
              `${targeted.length === 0 ? "—" : `${targeted.filter((sample) => sample.figure.met).length} of ${targeted.length}`} |`,
          );
        }
        out.push("");
        for (const [line, list] of perLine) {
          const { run, file, figure } = list.at(-1) as Sample;
          if (figure.detail === undefined) continue;
          out.push(
            `Latest on Node ${line} (${run.node}, ${day(run.date)}, ${commitText(run)}, host steal ${stealText(file.steal)}): ` +
              `${figure.detail}\n`,
          );
        }
        if (newest.figure.series !== undefined) {
          out.push(...seriesSection(name, perLine));
          charts.set(chartFileName(name), logLogChartOf(name, perLine));
          out.push(
            `![${name}: latest points per Node line on log–log axes, the fitted line, and dashed the steepest the target allows](${CHARTS_DIR}/${chartFileName(name)})\n`,
          );
        } else if (new Set(samples.map((sample) => sample.order)).size > 1) {
          const chart = chartFileName(name);
          charts.set(chart, chartOf(name, samples, unit));
          out.push(`![${name}: median per recorded run, by Node line, with the target](${CHARTS_DIR}/${chart})\n`);
        }
      }
      const notes = view.results.at(-1)?.file.notes ?? [];
      if (notes.length > 0) {
        out.push(`### Notes on \`${view.file}\`\n`);
        for (const note of notes) out.push(`- ${note}`);
        out.push("");
      }
    }
  }
  return {
    markdown: `${out
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trimEnd()}\n`,
    charts,
  };
}

/** Renders the page and charts from the record under `root`; returns them without writing. */
export function benchmarksDocAt(root: string): BenchmarksDoc {
  return renderBenchmarksDoc(readRecord(join(root, RECORD_PATH)));
}

/** Writes BENCHMARKS.md and the charts under `root` from its record; charts of figures no longer shown are removed. */
export function writeBenchmarksDoc(root: string): BenchmarksDoc {
  const doc = benchmarksDocAt(root);
  writeFileSync(join(root, BENCHMARKS_DOC_PATH), doc.markdown);
  const dir = join(root, CHARTS_DIR);
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(dir)) if (file.endsWith(".svg") && !doc.charts.has(file)) rmSync(join(dir, file));
  for (const [file, svg] of doc.charts) {
    const path = join(dir, file);
    if (!existsSync(path) || readFileSync(path, "utf8") !== svg) writeFileSync(path, svg);
  }
  return doc;
}
