// The logic of `pnpm bench`: which benchmark files to run, how to run each in its own process, and the closing
// line that names every missed figure. scripts/bench.ts is the command around it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BENCH_CPU_ENV, parseCpu, pinnedCommand } from "../../bench-support/cpu.js";
import { BENCHMARKS_DOC_PATH, CHARTS_DIR } from "./bench-doc.js";
import { nodeLine, recordedFigure, RECORD_PATH, type RecordedRun } from "./bench-record.js";
import { RESULTS_FILE_ENV, type ReportedFigure, type ReportedLine } from "../../bench-support/report.js";

/** The one-line form, printed after a usage mistake. */
export const BENCH_SYNOPSIS = "usage: pnpm bench [package ...] [--cpu N] [--node PATH] [--record]";

export const BENCH_USAGE =
  `${BENCH_SYNOPSIS}\n` +
  "  package       a folder under packages/ that has bench/*.bench.ts (default: every one)\n" +
  "  --cpu N       run each benchmark process, and what it spawns, on CPU N (taskset -c N)\n" +
  "  --node PATH   run each benchmark process, and the Node processes it spawns, with the Node binary at PATH\n" +
  "                (default: the Node running this command); a figure can depend on the Node version, e.g.\n" +
  "                --node \"$(npx -y -p node@24 sh -c 'command -v node')\"; a package with a native addon needs\n" +
  "                it built for that Node\n" +
  "  --record      append the run to benchmarks/record.jsonl (bounded) and regenerate BENCHMARKS.md and its charts\n" +
  "                (pnpm bench:report regenerates them alone)\n";

/** What the command line asked for. */
export interface BenchArguments {
  readonly packages: readonly string[];
  readonly cpu?: number;
  /** The Node binary to run benchmarks with, as given (checked by `nodeVersionOf`). */
  readonly node?: string;
  /** Whether to append the run to the record and regenerate BENCHMARKS.md. */
  readonly record: boolean;
  readonly help: boolean;
}

/** A command-line mistake: `pnpm bench` exits 2 with this message and the usage. */
export class BenchUsageError extends Error {
  override readonly name = "BenchUsageError";
  readonly code = "ERR_BENCH_USAGE";
}

/** Parses `pnpm bench`'s arguments; throws BenchUsageError on an unknown option or a bad CPU. */
export function parseBenchArguments(argv: readonly string[]): BenchArguments {
  const packages: string[] = [];
  let cpu: number | undefined;
  let node: string | undefined;
  let help = false;
  let record = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--help" || arg === "-h") help = true;
    else if (arg === "--record") record = true;
    else if (arg === "--cpu" || arg.startsWith("--cpu=")) {
      const value = arg === "--cpu" ? argv[++i] : arg.slice("--cpu=".length);
      if (value === undefined) throw new BenchUsageError("--cpu needs a CPU number, e.g. --cpu 0");
      try {
        cpu = parseCpu(value);
      } catch (error) {
        throw new BenchUsageError(`--cpu: ${(error as Error).message}`, { cause: error });
      }
    } else if (arg === "--node" || arg.startsWith("--node=")) {
      node = arg === "--node" ? argv[++i] : arg.slice("--node=".length);
      if (node === undefined || node === "") throw new BenchUsageError("--node needs the path of a Node binary");
    } else if (arg.startsWith("-")) throw new BenchUsageError(`unknown option ${JSON.stringify(arg.slice(0, 40))}`);
    else packages.push(arg);
  }
  return { packages, help, record, ...(cpu === undefined ? {} : { cpu }), ...(node === undefined ? {} : { node }) };
}

/**
 * The Node binary `given` names, as benchmark processes (which run in their package's folder) can start it: a path
 * is made absolute from `cwd`, the folder the command was typed in; a bare name is left for PATH to find.
 */
export function resolveNodeBinary(given: string, cwd: string): string {
  return given.includes("/") || given.includes("\\") ? resolve(cwd, given) : given;
}

/** The version `node` reports (`v24.1.0`); throws BenchUsageError when it does not run as Node. */
export function nodeVersionOf(node: string): string {
  const result = spawnSync(node, ["--version"], { encoding: "utf8", timeout: 30_000 });
  const version = typeof result.stdout === "string" ? result.stdout.trim() : "";
  if (result.status !== 0 || !/^v\d+\.\d+\.\d+/.test(version)) {
    const why = result.error === undefined ? `printed ${JSON.stringify(version.slice(0, 40))}` : result.error.message;
    throw new BenchUsageError(`--node: ${JSON.stringify(node.slice(0, 200))} did not run as Node (${why})`, {
      cause: result.error,
    });
  }
  return version;
}

/** One benchmark file to run. */
export interface BenchFile {
  readonly packageName: string;
  readonly file: string;
  readonly path: string;
}

/** Every packages/<name>/bench/*.bench.ts of the selected packages; throws BenchUsageError for a name that has none. */
export function selectBenchFiles(packagesDir: string, only: readonly string[]): BenchFile[] {
  const all = readdirSync(packagesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(packagesDir, entry.name, "package.json")))
    .map((entry) => entry.name)
    .sort();
  const filesOf = (name: string): BenchFile[] => {
    const dir = join(packagesDir, name, "bench");
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((file) => file.endsWith(".bench.ts"))
      .sort()
      .map((file) => ({ packageName: name, file, path: join(dir, file) }));
  };
  const withBenchmarks = all.filter((name) => filesOf(name).length > 0);
  for (const name of only) {
    if (withBenchmarks.includes(name)) continue;
    const known = `packages with benchmarks: ${withBenchmarks.join(", ")}`;
    throw new BenchUsageError(
      all.includes(name)
        ? `${name} has no benchmarks (no bench/*.bench.ts); ${known}`
        : `no package named ${JSON.stringify(name.slice(0, 60))}; ${known}`,
    );
  }
  return (only.length === 0 ? withBenchmarks : withBenchmarks.filter((name) => only.includes(name))).flatMap(filesOf);
}

/** What one benchmark file did. */
export interface FileOutcome {
  readonly file: BenchFile;
  readonly status: number | null;
  readonly results: readonly ReportedFigure[];
  /** The notes the file declared (`benchNotes`). */
  readonly notes: readonly string[];
}

/** How `runBenchFile` runs a file. */
export interface BenchRun {
  /** The CPU to pin the process (and what it spawns) to; unpinned when undefined. */
  readonly cpu?: number | undefined;
  /** The Node binary; default the one running this code. */
  readonly node?: string | undefined;
  readonly stdio?: "inherit" | "ignore";
}

/**
 * Runs one file in its own process with --expose-gc and workspace packages from source, under `run.node`, pinned
 * when `run.cpu` is set.
 */
export function runBenchFile(file: BenchFile, env: NodeJS.ProcessEnv, run: BenchRun = {}): FileOutcome {
  const { cpu, node = process.execPath, stdio = "inherit" } = run;
  const resultsDir = mkdtempSync(join(tmpdir(), "orphus-bench-results-"));
  const resultsFile = join(resultsDir, "results.jsonl");
  try {
    const tsx = import.meta.resolve("tsx");
    const { command, args } = pinnedCommand(
      node,
      ["--expose-gc", "--conditions=@orphus/source", "--import", tsx, file.path],
      cpu,
    );
    const result = spawnSync(command, args, {
      cwd: join(file.path, "..", ".."),
      stdio,
      env: {
        ...env,
        [RESULTS_FILE_ENV]: resultsFile,
        ...(cpu === undefined ? {} : { [BENCH_CPU_ENV]: String(cpu) }),
      },
    });
    const lines = existsSync(resultsFile) ? readFileSync(resultsFile, "utf8").split("\n").filter(Boolean) : [];
    const reported = lines.map((line) => JSON.parse(line) as ReportedLine);
    return {
      file,
      status: result.status,
      results: reported.filter((line): line is ReportedFigure => line.kind === "figure"),
      notes: reported.flatMap((line) => (line.kind === "note" ? [line.text] : [])),
    };
  } finally {
    rmSync(resultsDir, { recursive: true, force: true });
  }
}

/** The closing line: how many figures met their targets, and the name of every missed figure and failed file. */
export function closingLine(outcomes: readonly FileOutcome[]): { line: string; ok: boolean } {
  const results = outcomes.flatMap((outcome) => outcome.results);
  const targeted = results.filter((result) => result.hasTarget);
  const missed = targeted.filter((result) => !result.met).map((result) => result.name);
  const failed = outcomes
    .filter((outcome) => outcome.results.length === 0 || (outcome.status !== 0 && outcome.results.every((r) => r.met)))
    .map((outcome) => {
      const why = outcome.results.length === 0 ? "reported no figure" : "failed after reporting";
      return `${outcome.file.packageName}/${outcome.file.file} (${why}, exit ${outcome.status ?? "by signal"})`;
    });
  const parts = [
    `${results.length} figures from ${outcomes.length} files`,
    `${targeted.length - missed.length} of ${targeted.length} targets met`,
    missed.length === 0 ? "none missed" : `missed: ${missed.join(", ")}`,
  ];
  if (failed.length > 0) parts.push(`failed: ${failed.join(", ")}`);
  return { line: `bench: ${parts.join("; ")}`, ok: missed.length === 0 && failed.length === 0 };
}

/** The commit a run measures (short), and whether the working tree differs from it. */
export interface TreeState {
  readonly commit: string;
  readonly dirty: boolean;
}

/**
 * The commit checked out at `root` and whether the tree has changes, leaving out the record and what is generated
 * from it (they change with every recorded run and are not what a benchmark measures). Outside git: "unknown".
 */
export function treeState(root: string): TreeState {
  const git = (args: readonly string[]) => spawnSync("git", args, { cwd: root, encoding: "utf8" });
  const head = git(["rev-parse", "--short", "HEAD"]);
  if (head.status !== 0) return { commit: "unknown", dirty: true };
  const outputs = [RECORD_PATH, BENCHMARKS_DOC_PATH, CHARTS_DIR].map((path) => `:(exclude)${path}`);
  const status = git(["status", "--porcelain", "--", ".", ...outputs]);
  return { commit: head.stdout.trim(), dirty: status.status !== 0 || status.stdout.trim() !== "" };
}

/** What a finished run is recorded from. */
export interface RunFacts extends TreeState {
  readonly date: Date;
  readonly nodeVersion: string;
  readonly cpu: number | undefined;
  readonly outcomes: readonly FileOutcome[];
  /** Host steal per file, in percent, in the order of `outcomes`; undefined where not known. */
  readonly steals: readonly (number | undefined)[];
}

/** The record's entry for a finished run. */
export function recordedRun(facts: RunFacts): RecordedRun {
  return {
    date: facts.date.toISOString().replace(/\.\d{3}Z$/, "Z"),
    commit: facts.commit,
    dirty: facts.dirty,
    node: facts.nodeVersion,
    line: nodeLine(facts.nodeVersion),
    cpu: facts.cpu ?? null,
    files: facts.outcomes.map((outcome, i) => {
      const steal = facts.steals[i];
      return {
        package: outcome.file.packageName,
        file: outcome.file.file,
        status: outcome.status,
        steal: steal === undefined ? null : Math.round(steal * 10) / 10,
        figures: outcome.results.map(recordedFigure),
        notes: [...outcome.notes],
      };
    }),
  };
}
