import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import {
  type Counts,
  type CoverageFloors,
  type CoverageMapLike,
  coverageTable,
  floorFindings,
  METRICS,
  packageCounts,
  percent,
  readFloors,
} from "../coverage-floors.js";

const root = join(import.meta.dirname, "..", "..");

/** Counts with `covered` of `total` for every metric. */
const counts = (covered: number, total: number): Counts => ({
  statements: { covered, total },
  branches: { covered, total },
  functions: { covered, total },
  lines: { covered, total },
});

/** A coverage map of the given files, as istanbul's answers the calls the floors make. */
const coverageMap = (files: Record<string, Counts>): CoverageMapLike => ({
  files: () => Object.keys(files),
  fileCoverageFor: (file) => ({ toSummary: () => ({ data: files[file] as Counts }) }),
});

const floors: CoverageFloors = {
  measuredOn: { node: 20, platform: "linux" },
  packages: {
    digest: { statements: 90, branches: 80, functions: 100, lines: 90 },
    framing: { statements: 50, branches: 50, functions: 50, lines: 50 },
  },
};

test("each package's figures are the sums over its src/ files; files outside a package's src/ are not counted", () => {
  const map = coverageMap({
    [join(root, "packages/digest/src/index.ts")]: counts(9, 10),
    [join(root, "packages/digest/src/budget.ts")]: { ...counts(1, 10), functions: { covered: 0, total: 0 } },
    [join(root, "packages/digest/test/support.ts")]: counts(0, 10),
    [join(root, "packages/digest/bench/digest.bench.ts")]: counts(0, 10),
    [join(root, "test-support/target.ts")]: counts(0, 10),
    [join(root, "packages/agent-env/src/dirs.ts")]: counts(3, 4),
  });
  expect([...packageCounts(root, map)]).toEqual([
    ["agent-env", counts(3, 4)],
    ["digest", { ...counts(10, 20), functions: { covered: 9, total: 10 } }],
  ]);
});

test("a percentage is cut, never rounded up, to two decimals; nothing to cover is 100%", () => {
  expect(percent({ covered: 2, total: 3 })).toBe(66.66);
  expect(percent({ covered: 1, total: 3 })).toBe(33.33);
  expect(percent({ covered: 0, total: 0 })).toBe(100);
  expect(percent({ covered: 7, total: 7 })).toBe(100);
});

test("a figure below its floor, a package without a floor and a floor without a package are each a finding", () => {
  const measured = new Map([
    ["digest", { ...counts(9, 10), branches: { covered: 79, total: 100 } }],
    ["rooms", counts(1, 1)],
  ]);
  expect(floorFindings(measured, floors)).toEqual([
    "digest: branches 79% is below its floor of 80%",
    "digest: functions 90% is below its floor of 100%",
    "rooms has no floor in coverage-floors.json: add one at its level, rounded down to the whole percent",
    "coverage-floors.json has a floor for framing, which has no source measured",
  ]);
  expect(
    floorFindings(
      new Map([
        ["digest", counts(1, 1)],
        ["framing", counts(1, 2)],
      ]),
      floors,
    ),
  ).toEqual([]);
});

test("the table prints each figure with its floor, and a caret where the floor can rise", () => {
  const measured = new Map([
    ["digest", { ...counts(95, 100), branches: { covered: 805, total: 1000 } }],
    ["framing", counts(1, 2)],
    ["rooms", counts(0, 0)],
  ]);
  expect(coverageTable(measured, floors).split("\n")).toEqual([
    "package  statements        branches          functions         lines",
    "digest   95.00 [90]^       80.50 [80]        95.00 [100]       95.00 [90]^",
    "framing  50.00 [50]        50.00 [50]        50.00 [50]        50.00 [50]",
    "rooms    100.00 [none]     100.00 [none]     100.00 [none]     100.00 [none]",
  ]);
});

test("coverage-floors.json holds a whole-percent floor of every metric for every package, measured on Node 20 on Linux", () => {
  const committed = readFloors(root);
  expect(committed.measuredOn).toEqual({ node: 20, platform: "linux" });
  const packages = readdirSync(join(root, "packages"))
    .filter((dir) => existsSync(join(root, "packages", dir, "src")))
    .sort();
  expect(Object.keys(committed.packages).sort()).toEqual(packages);
  for (const [dir, floor] of Object.entries(committed.packages)) {
    expect({ dir, metrics: Object.keys(floor).sort() }).toEqual({ dir, metrics: [...METRICS].sort() });
    for (const value of Object.values(floor)) {
      expect({ dir, value, whole: Number.isInteger(value) && value >= 0 && value <= 100 }).toEqual({
        dir,
        value,
        whole: true,
      });
    }
  }
});
