// BENCHMARKS.md and its charts are generated from the benchmark record, like the protocol document from its schemas:
// the committed page must be exactly what the committed record gives (regenerate: pnpm bench:report).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  BENCHMARKS_DOC_PATH,
  benchmarksDocAt,
  chartFileName,
  CHARTS_DIR,
  headingAnchor,
  renderBenchmarksDoc,
} from "../lib/bench-doc.js";
import type { RecordedRun } from "../lib/bench-record.js";

const root = join(import.meta.dirname, "..", "..");

test("BENCHMARKS.md and benchmarks/charts/ are exactly what the record generates (regenerate: pnpm bench:report)", () => {
  const doc = benchmarksDocAt(root);
  expect(readFileSync(join(root, BENCHMARKS_DOC_PATH), "utf8")).toBe(doc.markdown);
  const dir = join(root, CHARTS_DIR);
  const committed = existsSync(dir)
    ? readdirSync(dir)
        .filter((file) => file.endsWith(".svg"))
        .sort()
    : [];
  expect(committed).toEqual([...doc.charts.keys()].sort());
  for (const [file, svg] of doc.charts) expect(readFileSync(join(dir, file), "utf8")).toBe(svg);
});

const figure = (name: string, median: number, target?: number) => ({
  name,
  about: `${name} against its floor.`,
  median,
  q1: median - 0.1,
  q3: median + 0.1,
  min: median - 0.2,
  max: median + 0.3,
  blocks: 15,
  ...(target === undefined ? {} : { target: { kind: "at-most" as const, value: target } }),
  met: target === undefined || median <= target,
  detail: `${(median * 100).toFixed(0)} ms vs 100 ms`,
});

const runs: RecordedRun[] = [
  {
    date: "2026-02-01T10:00:00Z",
    commit: "aaaaaaa",
    dirty: false,
    node: "v20.19.0",
    line: "20",
    cpu: 0,
    files: [
      {
        package: "broker",
        file: "cold.bench.ts",
        status: 0,
        steal: 1.5,
        figures: [figure("broker.cold", 2.2, 2.5)],
        notes: [],
      },
      { package: "broker", file: "gone.bench.ts", status: 0, steal: 0, figures: [figure("broker.gone", 1)], notes: [] },
    ],
  },
  {
    date: "2026-02-02T10:00:00Z",
    commit: "bbbbbbb",
    dirty: true,
    node: "v24.21.0",
    line: "24",
    cpu: null,
    files: [
      {
        package: "broker",
        file: "cold.bench.ts",
        status: 1,
        steal: null,
        figures: [figure("broker.cold", 3.7, 3.5), figure("broker.info", 1.1)],
        notes: ["Bare node starts faster on Node 24, so the target is per line."],
      },
      { package: "broker", file: "gone.bench.ts", status: 1, steal: 0.2, figures: [], notes: [] },
    ],
  },
];

describe("the page", () => {
  const doc = renderBenchmarksDoc(runs);

  test("runs newest first, with their commit, Node, pinning, misses and host steal", () => {
    expect(doc.markdown).toContain(
      "| date (UTC) | commit | Node | pinned to | files | figures missed | host steal per file |\n" +
        "| --- | --- | --- | --- | --- | --- | --- |\n" +
        "| 2026-02-02 10:00:00 | bbbbbbb (dirty) | v24.21.0 | unpinned | 2 (1 failed) | 1 | 0.2% |\n" +
        "| 2026-02-01 10:00:00 | aaaaaaa | v20.19.0 | CPU 0 | 2 | 0 | 0.0%–1.5% |\n",
    );
  });

  test("the overview gives each figure's target per line and its latest figure on each line", () => {
    expect(doc.markdown).toContain(
      "| figure | target | latest on Node 20 | latest on Node 24 |\n| --- | --- | --- | --- |\n" +
        "| [`broker.cold`](#brokercold) | ≤ 2.5x on Node 20, ≤ 3.5x on Node 24 | 2.200x met | 3.700x **missed** |\n" +
        "| [`broker.info`](#brokerinfo) | none (informative) | not recorded | 1.100x informative |\n" +
        "| [`broker.gone`](#brokergone) | none (informative) | 1.000x informative | not recorded |\n",
    );
  });

  test("a figure's section: what it measures, a row per Node line, the latest details, its chart and the notes", () => {
    expect(doc.markdown).toContain(
      "### `broker.cold`\n\nbroker.cold against its floor.\n\n" +
        "| Node | target | latest | IQR | range | blocks | verdict | recorded medians | met |\n" +
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n" +
        "| 20 | ≤ 2.5x | 2.200x | 2.100–2.300 | 2.000–2.500 | 15 | met | 2.200x over 1 run | 1 of 1 |\n" +
        "| 24 | ≤ 3.5x | 3.700x | 3.600–3.800 | 3.500–4.000 | 15 | **missed** | 3.700x over 1 run | 0 of 1 |\n\n" +
        "Latest on Node 20 (v20.19.0, 2026-02-01, aaaaaaa, host steal 1.5%): 220 ms vs 100 ms\n\n" +
        "Latest on Node 24 (v24.21.0, 2026-02-02, bbbbbbb (dirty), host steal not known): 370 ms vs 100 ms\n\n" +
        "![broker.cold: median per recorded run, by Node line, with the target](benchmarks/charts/broker.cold.svg)\n",
    );
    expect(doc.markdown).toContain(
      "### Notes on `cold.bench.ts`\n\n- Bare node starts faster on Node 24, so the target is per line.\n",
    );
  });

  test("a file that reported nothing on a line says so; a chart only where a figure has more than one run", () => {
    expect(doc.markdown).toContain(
      "`gone.bench.ts` on Node 24 (2026-02-02, bbbbbbb (dirty)) reported no figure: its process exited with 1.\n",
    );
    expect(doc.markdown).toContain("Not reported by the newest run of `gone.bench.ts` (renamed or removed)");
    expect([...doc.charts.keys()]).toEqual(["broker.cold.svg"]);
    expect(doc.charts.get("broker.cold.svg")).toMatch(/^<svg [^\n]*viewBox="0 0 360 96"/);
  });

  test("an empty record gives a page that says how to fill it", () => {
    expect(renderBenchmarksDoc([]).markdown).toContain(
      "## Recorded runs\n\nNone yet: `pnpm bench --record` records one.\n",
    );
  });
});

test("a figure in a unit shows it and its target in that unit, runs recorded before units too", () => {
  const absolute = (median: number, unit?: string) => ({
    ...figure("memory.p50-ms", median, 5),
    ...(unit === undefined ? {} : { unit }),
  });
  const run = (day: string, median: number, unit?: string): RecordedRun => ({
    date: `2026-03-0${day}T10:00:00Z`,
    commit: `c${day}`,
    dirty: false,
    node: "v20.19.0",
    line: "20",
    cpu: 0,
    files: [
      { package: "memory", file: "scale.bench.ts", status: 0, steal: 0, figures: [absolute(median, unit)], notes: [] },
    ],
  });
  const doc = renderBenchmarksDoc([run("1", 2.8), run("2", 2.95, "ms")]);
  expect(doc.markdown).toContain("| [`memory.p50-ms`](#memoryp50-ms) | ≤ 5 ms | 2.950 ms met |\n");
  expect(doc.markdown).toContain(
    "| 20 | ≤ 5 ms | 2.950 ms | 2.850–3.050 | 2.750–3.250 | 15 | met | 2.800 ms–2.950 ms over 2 runs | 2 of 2 |\n",
  );
  const chart = doc.charts.get("memory.p50-ms.svg") ?? "";
  expect(chart).toMatch(/>[0-9.]+ ms<\/text>/);
  expect(chart).not.toMatch(/>[0-9.]+x<\/text>/);
});

test("anchors as GitHub makes them, and chart file names", () => {
  expect(headingAnchor("`roundtable-broker.cold-start-to-first-reply`")).toBe(
    "roundtable-brokercold-start-to-first-reply",
  );
  expect(headingAnchor("roundtable-broker")).toBe("roundtable-broker");
  expect(headingAnchor("Notes on `fan-out.bench.ts`")).toBe("notes-on-fan-outbenchts");
  expect(chartFileName("digest.full-ring-vs-JSON.stringify")).toBe("digest.full-ring-vs-JSON.stringify.svg");
  expect(chartFileName("a/b c")).toBe("a-b-c.svg");
});
