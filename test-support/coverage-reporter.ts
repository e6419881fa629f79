import type { Reporter, TestModule, Vitest } from "vitest/node";
import {
  type CoverageMapLike,
  coverageTable,
  FLOORS_FILE,
  floorFindings,
  packageCounts,
  readFloors,
} from "./coverage-floors.js";

/**
 * With coverage on (`pnpm test` runs `vitest run --coverage`), prints the coverage of each package's src/ beside its
 * floor (coverage-floors.json) and fails the run when a package falls below one. The floors hold for the whole suite
 * on the Node line and platform they were measured on: a run of some projects or files, a run with failed tests (its
 * coverage is partial) or a run elsewhere (another Node line covers other branches, such as memory's SQLite drivers)
 * prints the table and checks nothing.
 */
export default class CoverageFloorReporter implements Reporter {
  private vitest: Vitest | undefined;
  private coverage: CoverageMapLike | undefined;
  /** Every project of the whole suite (vitest.config.ts names them): `--project` leaves the others out of a run. */
  private readonly projects: readonly string[];
  /** How many test files each project of this run has, by name (globbed before the end, which then prints in order). */
  private readonly testFiles = new Map<string, number>();

  constructor(options: { projects: readonly string[] }) {
    this.projects = options.projects;
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  async onCoverage(coverage: unknown): Promise<void> {
    this.coverage = coverage as CoverageMapLike;
    for (const project of this.vitest?.projects ?? []) {
      this.testFiles.set(project.name, (await project.globTestFiles()).testFiles.length);
    }
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (this.coverage === undefined || this.vitest === undefined) return;
    const root = this.vitest.config.root;
    const floors = readFloors(root);
    const measured = packageCounts(root, this.coverage);
    const say = (line: string): void => void process.stdout.write(`${line}\n`);
    say(`\ncoverage of each package's src/ in % (floor from ${FLOORS_FILE} in brackets; ^: the floor can rise)`);
    say(coverageTable(measured, floors));

    const unchecked = this.uncheckedBecause(testModules, floors.measuredOn);
    if (unchecked !== undefined) {
      say(`coverage floors not checked: ${unchecked}`);
      return;
    }
    const findings = floorFindings(measured, floors);
    for (const finding of findings) say(`coverage floor: ${finding}`);
    if (findings.length > 0) {
      say(
        `coverage floors: ${findings.length} finding(s); docs/contributing.md, "Coverage", says when a floor may move`,
      );
      process.exitCode = 1;
    } else {
      say(`coverage floors: every package at or above its floor`);
    }
  }

  /** Why this run's figures cannot be held to the floors, or undefined when they can. */
  private uncheckedBecause(
    testModules: ReadonlyArray<TestModule>,
    measuredOn: { node: number; platform: string },
  ): string | undefined {
    const node = Number(process.versions.node.split(".")[0]);
    if (node !== measuredOn.node || process.platform !== measuredOn.platform) {
      return `they were measured on Node ${measuredOn.node} on ${measuredOn.platform}, this is Node ${node} on ${process.platform}`;
    }
    if (testModules.some((module) => module.state() === "failed")) return "tests failed, so the coverage is partial";
    const left = this.projects.filter((name) => !this.testFiles.has(name));
    if (left.length > 0)
      return `a partial run (projects ${left.join(", ")} left out); the floors hold for the whole suite`;
    for (const [name, all] of this.testFiles) {
      const ran = testModules.filter((module) => module.project.name === name).length;
      if (ran < all)
        return `a partial run (project ${name}: ${ran} of ${all} files); the floors hold for the whole suite`;
    }
    return undefined;
  }
}
