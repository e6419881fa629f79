// Coverage of each package's src/, measured by `pnpm test` (vitest's v8 provider), against the floors committed in
// coverage-floors.json: one per package and metric, in whole percent, set at the package's level when it was measured
// (rounded down), so a change that lowers a package's coverage fails the run. Raise a floor when a package's coverage
// rises; lower one only with the reason in the commit (docs/contributing.md, "Coverage").
import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

/** The four figures istanbul reports for a file, in the order the table prints them. */
export const METRICS = ["statements", "branches", "functions", "lines"] as const;
export type Metric = (typeof METRICS)[number];

/** Covered and total counts of each metric. */
export type Counts = Record<Metric, { readonly covered: number; readonly total: number }>;

/** What coverage-floors.json holds: where the floors were measured, and each package's floor per metric. */
export interface CoverageFloors {
  /** The Node major and platform the floors were measured on; they are checked there and only reported elsewhere. */
  readonly measuredOn: { readonly node: number; readonly platform: string };
  readonly packages: Readonly<Record<string, Readonly<Record<Metric, number>>>>;
}

/** The part of istanbul's coverage map (what vitest hands a reporter's onCoverage) read here. */
export interface CoverageMapLike {
  files(): string[];
  fileCoverageFor(file: string): { toSummary(): { data: Counts } };
}

/** The file the floors live in, at the repository's root. */
export const FLOORS_FILE = "coverage-floors.json";

/** Reads coverage-floors.json under `root`. */
export function readFloors(root: string): CoverageFloors {
  return JSON.parse(readFileSync(join(root, FLOORS_FILE), "utf8")) as CoverageFloors;
}

/** The package folder (packages/<dir>/src/...) a covered file belongs to, if it is one's source. */
function packageOf(root: string, file: string): string | undefined {
  const parts = relative(root, file).split(sep);
  return parts[0] === "packages" && parts[2] === "src" ? parts[1] : undefined;
}

/** Sums the counts of every source file of each package in `map`, keyed by package folder, sorted by it. */
export function packageCounts(root: string, map: CoverageMapLike): Map<string, Counts> {
  const sums = new Map<string, Counts>();
  for (const file of map.files()) {
    const dir = packageOf(root, file);
    if (dir === undefined) continue;
    const data = map.fileCoverageFor(file).toSummary().data;
    const sum = sums.get(dir);
    const add = (metric: Metric) => ({
      covered: (sum?.[metric].covered ?? 0) + data[metric].covered,
      total: (sum?.[metric].total ?? 0) + data[metric].total,
    });
    sums.set(dir, {
      statements: add("statements"),
      branches: add("branches"),
      functions: add("functions"),
      lines: add("lines"),
    });
  }
  return new Map([...sums].sort(([a], [b]) => a.localeCompare(b)));
}

/** Percent covered, to two decimals, as istanbul reports it (100 when there is nothing to cover). */
export function percent({ covered, total }: { covered: number; total: number }): number {
  return total === 0 ? 100 : Math.floor((covered / total) * 10_000) / 100;
}

/** One line per package and metric below its floor, per package without a floor, and per floor of no package. */
export function floorFindings(measured: ReadonlyMap<string, Counts>, floors: CoverageFloors): string[] {
  const findings: string[] = [];
  for (const [dir, counts] of measured) {
    const floor = floors.packages[dir];
    if (floor === undefined) {
      findings.push(`${dir} has no floor in ${FLOORS_FILE}: add one at its level, rounded down to the whole percent`);
      continue;
    }
    for (const metric of METRICS) {
      const pct = percent(counts[metric]);
      if (pct < floor[metric]) findings.push(`${dir}: ${metric} ${pct}% is below its floor of ${floor[metric]}%`);
    }
  }
  for (const dir of Object.keys(floors.packages)) {
    if (!measured.has(dir)) findings.push(`${FLOORS_FILE} has a floor for ${dir}, which has no source measured`);
  }
  return findings;
}

/**
 * The table `pnpm test` prints: each package's figures with its floor in brackets, and a caret after a figure whose
 * whole percent is above the floor, where the floor can be raised.
 */
export function coverageTable(measured: ReadonlyMap<string, Counts>, floors: CoverageFloors): string {
  const width = Math.max(7, ...[...measured.keys()].map((dir) => dir.length));
  const cell = 18;
  const header = `${"package".padEnd(width)}  ${METRICS.map((metric) => metric.padEnd(cell)).join("")}`.trimEnd();
  const rows = [...measured].map(([dir, counts]) => {
    const cells = METRICS.map((metric) => {
      const pct = percent(counts[metric]);
      const floor = floors.packages[dir]?.[metric];
      const note = floor === undefined ? " [none]" : ` [${floor}]${Math.floor(pct) > floor ? "^" : ""}`;
      return `${pct.toFixed(2)}${note}`.padEnd(cell);
    });
    return `${dir.padEnd(width)}  ${cells.join("")}`.trimEnd();
  });
  return [header, ...rows].join("\n");
}
