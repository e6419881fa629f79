// The charts of BENCHMARKS.md: every point, bar and target inside the picture, and the y axis a monotone map of the
// ratios (a larger median is drawn higher), whatever the record holds.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  CHART_HEIGHT,
  CHART_WIDTH,
  chartLayout,
  linearScale,
  renderChart,
  type ChartInput,
} from "../lib/bench-chart.js";

const ratio = fc.double({ min: 0.001, max: 1000, noNaN: true, noDefaultInfinity: true });

/** A chart's input: runs on up to three Node lines, each point with or without quartiles around its median. */
const chartInput: fc.Arbitrary<ChartInput> = fc
  .record({
    runs: fc.integer({ min: 1, max: 12 }),
    lines: fc.uniqueArray(fc.constantFrom("20", "22", "24"), { minLength: 1, maxLength: 3 }),
  })
  .chain(({ runs, lines }) =>
    fc.record({
      name: fc.constant("demo.figure"),
      runs: fc.constant(runs),
      series: fc.tuple(
        ...lines.map((line) =>
          fc.record({
            line: fc.constant(line),
            target: fc.option(ratio, { nil: undefined }),
            points: fc.uniqueArray(
              fc.record({
                index: fc.integer({ min: 0, max: runs - 1 }),
                median: ratio,
                spread: fc.option(
                  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 3, noNaN: true })),
                  {
                    nil: undefined,
                  },
                ),
              }),
              { selector: (point) => point.index, minLength: 1, maxLength: runs },
            ),
          }),
        ),
      ),
    }),
  )
  .map((input) => ({
    ...input,
    series: input.series.map((series) => ({
      line: series.line,
      target: series.target,
      points: series.points.map(({ index, median, spread }) =>
        spread === undefined
          ? { index, median }
          : { index, median, q1: median * (1 - spread[0]), q3: median * (1 + spread[1]) },
      ),
    })),
  }));

describe("the scale", () => {
  test("property: a value of the domain lands in the range, in order, either way round", () => {
    fc.assert(
      fc.property(
        fc.tuple(ratio, ratio).filter(([a, b]) => a !== b),
        fc.tuple(fc.double({ min: -500, max: 500, noNaN: true }), fc.double({ min: -500, max: 500, noNaN: true })),
        fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })),
        ([a, b], [r0, r1], [t, u]) => {
          const [d0, d1] = a < b ? [a, b] : [b, a];
          const scale = linearScale([d0, d1], [r0, r1]);
          const [low, high] = t <= u ? [t, u] : [u, t];
          const v = d0 + (d1 - d0) * low;
          const w = d0 + (d1 - d0) * high;
          const [lo, hi] = [Math.min(r0, r1), Math.max(r0, r1)];
          for (const x of [scale(v), scale(w)]) {
            expect(x).toBeGreaterThanOrEqual(lo - 1e-9);
            expect(x).toBeLessThanOrEqual(hi + 1e-9);
          }
          // Monotone: the order of the values is the order of the range's direction.
          if (r1 >= r0) expect(scale(v)).toBeLessThanOrEqual(scale(w) + 1e-9);
          else expect(scale(v)).toBeGreaterThanOrEqual(scale(w) - 1e-9);
        },
      ),
    );
  });

  test("the ends of the domain map to the ends of the range; one value to the middle", () => {
    const scale = linearScale([1, 3], [100, 0]);
    expect([scale(1), scale(2), scale(3)]).toEqual([100, 50, 0]);
    expect(linearScale([2, 2], [10, 20])(2)).toBe(15);
  });
});

describe("the chart", () => {
  test("property: every point, bar and target is inside the viewBox, and a larger median is drawn higher", () => {
    fc.assert(
      fc.property(chartInput, (input) => {
        const layout = chartLayout(input);
        expect(layout.width).toBe(CHART_WIDTH);
        expect(layout.height).toBe(CHART_HEIGHT);
        const inside = (x: number, y: number): void => {
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThanOrEqual(CHART_WIDTH);
          expect(y).toBeGreaterThanOrEqual(0);
          expect(y).toBeLessThanOrEqual(CHART_HEIGHT);
        };
        for (const point of layout.points) {
          inside(point.x, point.y);
          if (point.bar !== undefined) {
            inside(point.x, point.bar.y1);
            inside(point.x, point.bar.y3);
            // q1 below the median below q3, as drawn (SVG's y grows downwards).
            expect(point.bar.y1).toBeGreaterThanOrEqual(point.y - 1e-9);
            expect(point.bar.y3).toBeLessThanOrEqual(point.y + 1e-9);
          }
        }
        for (const target of layout.targets) inside(0, target.y);
        const medians = input.series.flatMap((series) => series.points.map((point) => point.median));
        const ys = layout.points.map((point) => point.y);
        for (let i = 0; i < medians.length; i++) {
          for (let j = 0; j < medians.length; j++) {
            if ((medians[i] as number) < (medians[j] as number))
              expect(ys[i]).toBeGreaterThanOrEqual((ys[j] as number) - 1e-9);
          }
        }
        // Later runs further right.
        for (const series of input.series) {
          const placed = layout.points.filter((point) => point.line === series.line);
          series.points.forEach((a, i) =>
            series.points.forEach((b, k) => {
              if (a.index < b.index) expect(placed[i]?.x).toBeLessThan(placed[k]?.x as number);
            }),
          );
        }
      }),
    );
  });

  test("the SVG of two runs on two lines, as written (y: 1.34x at the bottom, 3.66x at the top, 72 units apart)", () => {
    const svg = renderChart({
      name: "demo.cold-start",
      runs: 2,
      series: [
        { line: "20", target: 2.5, points: [{ index: 0, median: 2, q1: 1.5, q3: 2.2 }] },
        { line: "24", target: 3.5, points: [{ index: 1, median: 3 }] },
      ],
    });
    expect(svg).toBe(
      [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 96" width="360" height="96" role="img" font-family="sans-serif" font-size="9">',
        "<title>demo.cold-start: median per recorded run, interquartile bars, dashed targets</title>",
        '<rect x="44" y="16" width="308" height="72" fill="#fafafa" stroke="#ccc"/>',
        '<text x="41" y="23" text-anchor="end" fill="#555">3.66x</text>',
        '<text x="41" y="88" text-anchor="end" fill="#555">1.34x</text>',
        '<text x="48" y="11" fill="#1f5fa8">● Node 20</text>',
        '<text x="112" y="11" fill="#c0561b">● Node 24</text>',
        '<line x1="44" y1="52.0" x2="352" y2="52.0" stroke="#1f5fa8" stroke-dasharray="4 3" stroke-width="1"/>',
        '<line x1="44" y1="21.0" x2="352" y2="21.0" stroke="#c0561b" stroke-dasharray="4 3" stroke-width="1"/>',
        '<line x1="50.0" y1="83.0" x2="50.0" y2="61.3" stroke="#1f5fa8" stroke-opacity="0.45" stroke-width="3"/>',
        '<circle cx="50.0" cy="67.5" r="2.2" fill="#1f5fa8"/>',
        '<circle cx="346.0" cy="36.5" r="2.2" fill="#c0561b"/>',
        "</svg>",
        "",
      ].join("\n"),
    );
  });
});
