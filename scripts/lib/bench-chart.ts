// The small chart BENCHMARKS.md shows beside a figure: its median per recorded run, each run's interquartile range
// as a bar, one series per Node line, and each line's target as a dashed rule. Plain SVG text, made here without a
// dependency, so the charts are as reproducible as the page (a test holds both to what the record gives).
import { withUnit } from "../../bench-support/report.js";

/** One recorded run of a figure: where it falls in time among the figure's runs, its median and quartiles. */
export interface ChartPoint {
  /** Position among every recorded run of the figure, oldest first (0, 1, 2, ...). */
  readonly index: number;
  readonly median: number;
  /** Quartiles of the run's per-block ratios, when the figure was summarised over blocks. */
  readonly q1?: number | undefined;
  readonly q3?: number | undefined;
}

/** One Node line's runs of a figure, and its target there. */
export interface ChartSeries {
  /** The Node line, e.g. "20". */
  readonly line: string;
  readonly points: readonly ChartPoint[];
  readonly target?: number | undefined;
}

export interface ChartInput {
  /** The figure's name, the chart's title. */
  readonly name: string;
  /** Recorded runs of the figure in all (the x axis has one slot per run). */
  readonly runs: number;
  readonly series: readonly ChartSeries[];
  /** The unit of a figure that is an absolute value ("ms"), on the axis labels; absent for a ratio ("x"). */
  readonly unit?: string;
}

/** Width and height of every chart, in SVG user units. */
export const CHART_WIDTH = 360;
export const CHART_HEIGHT = 96;
/** Room left of the plot for the axis labels, and around it. */
const LEFT = 44;
const RIGHT = 8;
const TOP = 16;
const BOTTOM = 8;

/**
 * The linear map from `domain` onto `range` (either way round, so a y axis can run upwards). A domain of one value
 * maps to the middle of the range.
 */
export function linearScale(
  domain: readonly [number, number],
  range: readonly [number, number],
): (value: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  if (!(d1 > d0)) return () => (r0 + r1) / 2;
  const slope = (r1 - r0) / (d1 - d0);
  return (value) => {
    const clamped = Math.min(d1, Math.max(d0, value));
    return r0 + (clamped - d0) * slope;
  };
}

/** A point placed on the chart, and the interquartile bar behind it when the run had one. */
export interface PlacedPoint {
  readonly line: string;
  readonly x: number;
  readonly y: number;
  readonly bar?: { readonly y1: number; readonly y3: number };
}

/** What the chart draws, in SVG coordinates: the points, the target rules, the y axis's bounds and their labels. */
export interface ChartLayout {
  readonly width: number;
  readonly height: number;
  readonly points: readonly PlacedPoint[];
  readonly targets: readonly { readonly line: string; readonly y: number; readonly value: number }[];
  /** The values at the top and bottom of the plot. */
  readonly top: number;
  readonly bottom: number;
}

/** Every value the y axis must show: medians, quartiles and targets. */
function shownValues(input: ChartInput): number[] {
  return input.series
    .flatMap((series) => [...series.points.flatMap((point) => [point.median, point.q1, point.q3]), series.target])
    .filter((value): value is number => value !== undefined && Number.isFinite(value));
}

/** Places every point and target of `input` inside the chart's box. */
export function chartLayout(input: ChartInput): ChartLayout {
  const values = shownValues(input);
  const low = values.length === 0 ? 0 : Math.min(...values);
  const high = values.length === 0 ? 1 : Math.max(...values);
  // A little room above and below, so a point on the bound is not drawn on the edge; a flat chart gets some too.
  const pad = high > low ? (high - low) * 0.08 : Math.max(Math.abs(high) * 0.1, 0.01);
  const bottom = low - pad;
  const top = high + pad;
  const y = linearScale([bottom, top], [CHART_HEIGHT - BOTTOM, TOP]);
  const slots = Math.max(1, input.runs);
  const x = (index: number): number =>
    slots === 1
      ? (LEFT + CHART_WIDTH - RIGHT) / 2
      : linearScale([0, slots - 1], [LEFT + 6, CHART_WIDTH - RIGHT - 6])(index);
  const points = input.series.flatMap((series) =>
    series.points.map((point): PlacedPoint => {
      const placed = { line: series.line, x: x(point.index), y: y(point.median) };
      return point.q1 === undefined || point.q3 === undefined
        ? placed
        : { ...placed, bar: { y1: y(point.q1), y3: y(point.q3) } };
    }),
  );
  const targets = input.series.flatMap((series) =>
    series.target === undefined ? [] : [{ line: series.line, y: y(series.target), value: series.target }],
  );
  return { width: CHART_WIDTH, height: CHART_HEIGHT, points, targets, top, bottom };
}

/** Colours by the order of the Node lines on the chart (blue, then orange, then green), dark enough on white. */
const COLOURS = ["#1f5fa8", "#c0561b", "#2e7d32", "#6a3d9a"];

const num = (value: number): string => {
  const text = value.toFixed(1);
  return text === "-0.0" ? "0.0" : text;
};
const label = (value: number): string =>
  Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
const escapeXml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The chart as SVG text (deterministic: the same input gives the same bytes). */
export function renderChart(input: ChartInput): string {
  const layout = chartLayout(input);
  const axisLabel = (value: number): string => escapeXml(withUnit(label(value), input.unit));
  const lines = input.series.map((series) => series.line);
  const colour = (line: string): string => COLOURS[lines.indexOf(line) % COLOURS.length] as string;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${layout.width} ${layout.height}" width="${layout.width}" ` +
      `height="${layout.height}" role="img" font-family="sans-serif" font-size="9">`,
    `<title>${escapeXml(input.name)}: median per recorded run, interquartile bars, dashed targets</title>`,
    `<rect x="${LEFT}" y="${TOP}" width="${layout.width - LEFT - RIGHT}" height="${layout.height - TOP - BOTTOM}" fill="#fafafa" stroke="#ccc"/>`,
    `<text x="${LEFT - 3}" y="${TOP + 7}" text-anchor="end" fill="#555">${axisLabel(layout.top)}</text>`,
    `<text x="${LEFT - 3}" y="${layout.height - BOTTOM}" text-anchor="end" fill="#555">${axisLabel(layout.bottom)}</text>`,
  ];
  input.series.forEach((series, i) => {
    parts.push(
      `<text x="${LEFT + 4 + i * 64}" y="${TOP - 5}" fill="${colour(series.line)}">● Node ${escapeXml(series.line)}</text>`,
    );
  });
  for (const target of layout.targets) {
    parts.push(
      `<line x1="${LEFT}" y1="${num(target.y)}" x2="${layout.width - RIGHT}" y2="${num(target.y)}" stroke="${colour(target.line)}" ` +
        `stroke-dasharray="4 3" stroke-width="1"/>`,
    );
  }
  for (const series of input.series) {
    const placed = layout.points.filter((point) => point.line === series.line);
    for (const point of placed) {
      if (point.bar !== undefined) {
        parts.push(
          `<line x1="${num(point.x)}" y1="${num(point.bar.y1)}" x2="${num(point.x)}" y2="${num(point.bar.y3)}" ` +
            `stroke="${colour(series.line)}" stroke-opacity="0.45" stroke-width="3"/>`,
        );
      }
    }
    if (placed.length > 1) {
      parts.push(
        `<polyline points="${placed.map((p) => `${num(p.x)},${num(p.y)}`).join(" ")}" fill="none" stroke="${colour(series.line)}" stroke-width="1.2"/>`,
      );
    }
    for (const point of placed) {
      parts.push(`<circle cx="${num(point.x)}" cy="${num(point.y)}" r="2.2" fill="${colour(series.line)}"/>`);
    }
  }
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

/** One Node line's latest points of a scaling series, its fitted power law, and the target on the exponent. */
export interface LogLogSeries {
  readonly line: string;
  readonly points: readonly {
    readonly size: number;
    readonly median: number;
    readonly q1?: number;
    readonly q3?: number;
  }[];
  readonly exponent: number;
  readonly coefficient: number;
  readonly target?: number | undefined;
}

export interface LogLogInput {
  readonly name: string;
  /** What a size counts, for the x axis: "members". */
  readonly sizeUnit: string;
  readonly series: readonly LogLogSeries[];
}

/** Height of a series chart: taller than a run chart, since its slope is what a reader judges. */
export const LOG_LOG_HEIGHT = 150;
const LOG_BOTTOM = 22;

const sizeLabel = (value: number): string =>
  value >= 1024 && value % 1024 === 0 ? `${value / 1024}Ki` : Number(value.toPrecision(3)).toString();

/**
 * A scaling series on log–log axes (deterministic SVG text): each Node line's points with interquartile bars, the
 * fitted line, and, dashed, the steepest line the target allows, drawn from the fit's value at the smallest size.
 */
export function renderLogLogChart(input: LogLogInput): string {
  const sizes = input.series.flatMap((s) => s.points.map((p) => p.size)).filter((v) => v > 0);
  const fitted = (s: LogLogSeries, size: number): number => s.coefficient * size ** s.exponent;
  const lowSize = Math.min(...sizes);
  const highSize = Math.max(...sizes);
  const values = input.series
    .flatMap((s) => [
      ...s.points.flatMap((p) => [p.median, p.q1, p.q3]),
      fitted(s, lowSize),
      fitted(s, highSize),
      ...(s.target === undefined ? [] : [fitted(s, lowSize) * (highSize / lowSize) ** s.target]),
    ])
    .filter((v): v is number => v !== undefined && Number.isFinite(v) && v > 0);
  const logLow = Math.log10(Math.min(...values));
  const logHigh = Math.log10(Math.max(...values));
  const pad = logHigh > logLow ? (logHigh - logLow) * 0.08 : 0.05;
  const y = linearScale([logLow - pad, logHigh + pad], [LOG_LOG_HEIGHT - LOG_BOTTOM, TOP]);
  const x = linearScale([Math.log10(lowSize), Math.log10(highSize)], [LEFT + 6, CHART_WIDTH - RIGHT - 6]);
  const py = (value: number): number => y(Math.log10(value));
  const px = (size: number): number => x(Math.log10(size));
  const lines = input.series.map((s) => s.line);
  const colour = (line: string): string => COLOURS[lines.indexOf(line) % COLOURS.length] as string;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${CHART_WIDTH} ${LOG_LOG_HEIGHT}" width="${CHART_WIDTH}" ` +
      `height="${LOG_LOG_HEIGHT}" role="img" font-family="sans-serif" font-size="9">`,
    `<title>${escapeXml(input.name)}: ratio to the floor against ${escapeXml(input.sizeUnit)}, log–log, with the fitted ` +
      `line and, dashed, the steepest the target allows</title>`,
    `<rect x="${LEFT}" y="${TOP}" width="${CHART_WIDTH - LEFT - RIGHT}" height="${LOG_LOG_HEIGHT - TOP - LOG_BOTTOM}" fill="#fafafa" stroke="#ccc"/>`,
    `<text x="${LEFT - 3}" y="${TOP + 7}" text-anchor="end" fill="#555">${label(10 ** (logHigh + pad))}x</text>`,
    `<text x="${LEFT - 3}" y="${LOG_LOG_HEIGHT - LOG_BOTTOM}" text-anchor="end" fill="#555">${label(10 ** (logLow - pad))}x</text>`,
  ];
  for (const size of [...new Set(sizes)].sort((a, b) => a - b)) {
    parts.push(
      `<text x="${num(px(size))}" y="${LOG_LOG_HEIGHT - LOG_BOTTOM + 10}" text-anchor="middle" fill="#555">${sizeLabel(size)}</text>`,
    );
  }
  parts.push(
    `<text x="${CHART_WIDTH - RIGHT}" y="${LOG_LOG_HEIGHT - 2}" text-anchor="end" fill="#555">${escapeXml(input.sizeUnit)} (log)</text>`,
  );
  input.series.forEach((s, i) => {
    parts.push(
      `<text x="${LEFT + 4 + i * 120}" y="${TOP - 5}" fill="${colour(s.line)}">● Node ${escapeXml(s.line)}: exponent ${s.exponent.toFixed(2)}</text>`,
    );
  });
  for (const s of input.series) {
    const c = colour(s.line);
    if (s.target !== undefined) {
      const end = fitted(s, lowSize) * (highSize / lowSize) ** s.target;
      parts.push(
        `<line x1="${num(px(lowSize))}" y1="${num(py(fitted(s, lowSize)))}" x2="${num(px(highSize))}" y2="${num(py(end))}" ` +
          `stroke="${c}" stroke-dasharray="4 3" stroke-width="1"/>`,
      );
    }
    parts.push(
      `<line x1="${num(px(lowSize))}" y1="${num(py(fitted(s, lowSize)))}" x2="${num(px(highSize))}" ` +
        `y2="${num(py(fitted(s, highSize)))}" stroke="${c}" stroke-opacity="0.6" stroke-width="1.2"/>`,
    );
    for (const p of s.points) {
      if (p.q1 !== undefined && p.q3 !== undefined && p.q1 > 0 && p.q3 > 0) {
        parts.push(
          `<line x1="${num(px(p.size))}" y1="${num(py(p.q1))}" x2="${num(px(p.size))}" y2="${num(py(p.q3))}" ` +
            `stroke="${c}" stroke-opacity="0.45" stroke-width="3"/>`,
        );
      }
      parts.push(`<circle cx="${num(px(p.size))}" cy="${num(py(p.median))}" r="2.2" fill="${c}"/>`);
    }
  }
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
