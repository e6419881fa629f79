import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, test, vi } from "vitest";
import { renderBenchmarksDoc, chartFileName } from "../../scripts/lib/bench-doc.js";
import { formatRecord, parseRecord } from "../../scripts/lib/bench-record.js";
import { recordedRun } from "../../scripts/lib/bench-runner.js";
import { RESULTS_FILE_ENV, type ReportedFigure } from "../report.js";
import { fitPowerLaw, measureSeries, reportSeries } from "../series.js";

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

const silence = () => vi.spyOn(process.stdout, "write").mockImplementation(() => true);

/** The naive reference: the slope from the normal equations in raw sums, Σxy − Σx·Σy/n over Σx² − (Σx)²/n. */
function naiveSlope(points: readonly { size: number; value: number }[]): number {
  const n = points.length;
  let sx = 0;
  let sy = 0;
  let sxy = 0;
  let sxx = 0;
  for (const { size, value } of points) {
    const x = Math.log(size);
    const y = Math.log(value);
    sx += x;
    sy += y;
    sxy += x * y;
    sxx += x * x;
  }
  return (sxy - (sx * sy) / n) / (sxx - (sx * sx) / n);
}

const sizes = fc.uniqueArray(fc.integer({ min: 1, max: 1 << 20 }), { minLength: 2, maxLength: 12 });
const exponent = fc.double({ min: -2, max: 3, noNaN: true });
const coefficient = fc.double({ min: 1e-3, max: 1e3, noNaN: true });

describe("fitPowerLaw", () => {
  test("an exact power law gives back its exponent and coefficient, with r² 1", () => {
    fc.assert(
      fc.property(sizes, exponent, coefficient, (xs, k, c) => {
        const fit = fitPowerLaw(xs.map((size) => ({ size, value: c * size ** k })));
        expect(fit.exponent).toBeCloseTo(k, 9);
        expect(fit.coefficient / c).toBeCloseTo(1, 9);
        expect(fit.r2).toBeCloseTo(1, 9);
      }),
    );
  });

  test("agrees with the naive normal-equation slope on noisy points", () => {
    fc.assert(
      fc.property(
        fc
          .uniqueArray(fc.integer({ min: 1, max: 4096 }), { minLength: 2, maxLength: 10 })
          .chain((xs) =>
            fc.tuple(
              fc.constant(xs),
              fc.array(fc.double({ min: 0.01, max: 100, noNaN: true }), { minLength: xs.length, maxLength: xs.length }),
            ),
          ),
        ([xs, ys]) => {
          const points = xs.map((size, i) => ({ size, value: ys[i] as number }));
          // The raw sums lose digits when the sizes are close together, so the agreement is relative.
          const naive = naiveSlope(points);
          expect(Math.abs(fitPowerLaw(points).exponent - naive)).toBeLessThanOrEqual(
            1e-6 * Math.max(1, Math.abs(naive)),
          );
        },
      ),
    );
  });

  test("no other slope leaves smaller squared residuals (each with its best intercept)", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 4096 }), { minLength: 3, maxLength: 8 }).chain((xs) =>
          fc.tuple(
            fc.constant(xs),
            fc.array(fc.double({ min: 0.01, max: 100, noNaN: true }), { minLength: xs.length, maxLength: xs.length }),
            fc.double({ min: -1, max: 1, noNaN: true }).filter((d) => Math.abs(d) > 1e-6),
          ),
        ),
        ([xs, ys, delta]) => {
          const lx = xs.map(Math.log);
          const ly = ys.map(Math.log);
          const sse = (slope: number): number => {
            const intercept = ly.reduce((a, y, i) => a + y - slope * (lx[i] as number), 0) / lx.length;
            return ly.reduce((a, y, i) => a + (y - intercept - slope * (lx[i] as number)) ** 2, 0);
          };
          const fit = fitPowerLaw(xs.map((size, i) => ({ size, value: ys[i] as number })));
          expect(sse(fit.exponent)).toBeLessThanOrEqual(sse(fit.exponent + delta) + 1e-9);
        },
      ),
    );
  });

  test("refuses fewer than two distinct sizes and values that have no logarithm", () => {
    expect(() => fitPowerLaw([{ size: 4, value: 1 }])).toThrow(/at least two distinct sizes, got 1 point/);
    expect(() =>
      fitPowerLaw([
        { size: 4, value: 1 },
        { size: 4, value: 2 },
      ]),
    ).toThrow(/two distinct sizes/);
    expect(() =>
      fitPowerLaw([
        { size: 1, value: 0 },
        { size: 2, value: 1 },
      ]),
    ).toThrow(/positive finite sizes and values, got 1 → 0/);
  });
});

describe("series through the record into BENCHMARKS.md", () => {
  test("reportSeries prints each point and the exponent, and judges the exponent against its target", () => {
    const out = silence();
    const met = reportSeries(
      {
        name: "pkg.cost-vs-members",
        about: "Cost per post against members.",
        sizeUnit: "members",
        points: [
          { size: 1, ratio: 1 },
          { size: 4, ratio: 4 },
          { size: 16, ratio: 16 },
        ],
        target: { kind: "at-most", value: 0.9 },
      },
      {},
      "20.19.0",
    );
    expect(met).toBe(false);
    expect(process.exitCode).toBe(1);
    const printed = out.mock.calls.map((call) => String(call[0])).join("");
    expect(printed).toContain("  pkg.cost-vs-members @ 4 members: 4.000x\n");
    expect(printed).toContain(
      "pkg.cost-vs-members: exponent 1.000 (target exponent <= 0.9) MISSED — exponent 1.000 over 1–16 members, r² 1.000\n",
    );
  });

  test("measureSeries alternates each point with the floor; the recorded run renders a points table and a chart", async () => {
    silence();
    const dir = mkdtempSync(join(tmpdir(), "series-test-"));
    try {
      const resultsFile = join(dir, "results.jsonl");
      vi.stubEnv(RESULTS_FILE_ENV, resultsFile);
      const order: string[] = [];
      let current = 0;
      const { met, points } = await measureSeries({
        name: "pkg.fan-out-vs-members",
        about: "One post to n members against one write.",
        sizeUnit: "members",
        unit: "ms per block",
        sizes: [1, 2, 4, 8],
        point: (size) => {
          current = size;
          return () => (order.push(`s${size}`), 3 * size);
        },
        baseline: () => (order.push("b"), 3),
        blocks: 3,
        warmupBlocks: 0,
        collectGarbage: false,
        target: { kind: "at-most", value: 1.1 },
      });
      vi.unstubAllEnvs();
      expect(current).toBe(8);
      expect(order.slice(0, 6)).toEqual(["s1", "b", "b", "s1", "s1", "b"]);
      expect(met).toBe(true);
      expect(points.map((p) => [p.size, typeof p.ratio === "number" ? p.ratio : p.ratio.median])).toEqual([
        [1, 1],
        [2, 2],
        [4, 4],
        [8, 8],
      ]);
      const results = readFileSync(resultsFile, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as ReportedFigure);
      const run = recordedRun({
        date: new Date("2026-03-04T05:06:07Z"),
        commit: "1a2b3c4",
        dirty: false,
        nodeVersion: "v20.19.0",
        cpu: 0,
        outcomes: [
          {
            file: { packageName: "pkg", file: "pkg.bench.ts", path: "/x" },
            status: 0,
            results,
            notes: [],
          },
        ],
        steals: [0],
      });
      // Through the record's text and back: the series is kept whole.
      const [back] = parseRecord(formatRecord([run]));
      const figure = back?.files[0]?.figures[0];
      expect(figure).toMatchObject({
        name: "pkg.fan-out-vs-members",
        median: 1,
        target: { kind: "at-most", value: 1.1 },
        met: true,
        series: {
          sizeUnit: "members",
          unit: "ms per block",
          r2: 1,
          coefficient: 1,
          points: [
            { size: 1, median: 1, q1: 1, q3: 1, min: 1, max: 1, blocks: 3, sides: { subject: 3, baseline: 3 } },
            { size: 2, median: 2, q1: 2, q3: 2, min: 2, max: 2, blocks: 3, sides: { subject: 6, baseline: 3 } },
            { size: 4, median: 4, q1: 4, q3: 4, min: 4, max: 4, blocks: 3, sides: { subject: 12, baseline: 3 } },
            { size: 8, median: 8, q1: 8, q3: 8, min: 8, max: 8, blocks: 3, sides: { subject: 24, baseline: 3 } },
          ],
        },
      });
      const doc = renderBenchmarksDoc(parseRecord(formatRecord([run])));
      expect(doc.markdown).toContain(
        "| [`pkg.fan-out-vs-members`](#pkgfan-out-vs-members) | exponent ≤ 1.1 | exponent 1.000 met |",
      );
      expect(doc.markdown).toContain(
        "Points of `pkg.fan-out-vs-members` on Node 20 (r² 1.000; sides in ms per block):",
      );
      expect(doc.markdown).toContain("| members | ratio | IQR | range | blocks | subject | floor |");
      expect(doc.markdown).toContain("| 8 | 8.000x | 8.000–8.000 | 8.000–8.000 | 3 | 24 | 3 |");
      const chart = doc.charts.get(chartFileName("pkg.fan-out-vs-members"));
      expect(chart).toContain("Node 20: exponent 1.00");
      expect(chart).toContain("members (log)");
      expect(doc.markdown).toContain("](benchmarks/charts/pkg.fan-out-vs-members.svg)");
    } finally {
      vi.unstubAllEnvs();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a record line written before series existed still reads, and a malformed series is refused", () => {
    const old = `{"date":"2026-01-01T00:00:00Z","commit":"a","dirty":false,"node":"v20.1.0","line":"20","cpu":null,"files":[{"package":"p","file":"f","status":0,"steal":null,"figures":[{"name":"p.x","about":"a","median":1,"met":true}],"notes":[]}]}`;
    expect(parseRecord(old)[0]?.files[0]?.figures[0]?.series).toBeUndefined();
    const bad = old.replace(
      '"met":true',
      '"met":true,"series":{"sizeUnit":"members","points":[{"size":0,"median":1}]}',
    );
    expect(() => parseRecord(bad)).toThrow(/line 1: a series point has no size/);
  });
});
