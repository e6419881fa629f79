// `pnpm bench [package ...] [--cpu N] [--node PATH] [--record]`: runs every packages/*/bench/*.bench.ts in its own
// process (so one benchmark's heap and JIT state cannot colour another's), resolving workspace packages from source,
// then prints one closing line naming every missed figure. With --record it appends the run to the benchmark record
// and regenerates BENCHMARKS.md from it. Exit 0 when every target was met, 1 when one was missed or a file failed, 2
// for a usage mistake (an unknown package or option).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeBenchmarksDoc } from "./lib/bench-doc.js";
import { appendRun, RECORD_PATH } from "./lib/bench-record.js";
import {
  BENCH_SYNOPSIS,
  BENCH_USAGE,
  BenchUsageError,
  closingLine,
  nodeVersionOf,
  parseBenchArguments,
  recordedRun,
  resolveNodeBinary,
  runBenchFile,
  selectBenchFiles,
  treeState,
  type FileOutcome,
} from "./lib/bench-runner.js";
import { readCpuTicks, stealLine, stealShare } from "./lib/host-steal.js";

const root = join(import.meta.dirname, "..");
const packagesDir = join(root, "packages");
let files;
let cpu: number | undefined;
let record = false;
let node = process.execPath;
let nodeVersion = process.version;
try {
  const args = parseBenchArguments(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(BENCH_USAGE);
    process.exit(0);
  }
  cpu = args.cpu;
  record = args.record;
  if (args.node !== undefined) {
    // pnpm runs scripts from the workspace root; INIT_CWD is where the command was typed.
    node = resolveNodeBinary(args.node, process.env.INIT_CWD ?? process.cwd());
    nodeVersion = nodeVersionOf(node);
  }
  files = selectBenchFiles(packagesDir, args.packages);
} catch (error) {
  if (!(error instanceof BenchUsageError)) throw error;
  process.stderr.write(`bench: ${error.message}\n${BENCH_SYNOPSIS} (pnpm bench --help says more)\n`);
  process.exit(2);
}

// The commit measured, read before the run: a commit made while it runs is not what ran.
const tree = record ? treeState(root) : undefined;
// Brokers started by benchmarks register in a temporary directory, never in the real home's registry.
const registryDir = mkdtempSync(join(tmpdir(), "orphus-bench-registry-"));
const env = { ...process.env, ORPHUS_ROUNDTABLE_REGISTRY_DIR: registryDir };
const outcomes: FileOutcome[] = [];
const steals: (number | undefined)[] = [];
try {
  for (const file of files) {
    const where = cpu === undefined ? nodeVersion : `on CPU ${cpu}, ${nodeVersion}`;
    process.stdout.write(`\n# ${file.packageName}/${file.file} (${where})\n`);
    const before = readCpuTicks(cpu);
    outcomes.push(runBenchFile(file, env, { cpu, node }));
    const after = readCpuTicks(cpu);
    steals.push(stealShare(before, after));
    process.stdout.write(`${stealLine(before, after, cpu)}\n`);
  }
} finally {
  rmSync(registryDir, { recursive: true, force: true });
}
const { line, ok } = closingLine(outcomes);
process.stdout.write(`\n${line}\n`);
if (tree !== undefined) {
  const run = recordedRun({ date: new Date(), ...tree, nodeVersion, cpu, outcomes, steals });
  const kept = appendRun(join(root, RECORD_PATH), run);
  writeBenchmarksDoc(root);
  process.stdout.write(`bench: recorded in ${RECORD_PATH} (${kept.length} runs kept); BENCHMARKS.md regenerated\n`);
}
if (!ok) process.exitCode = 1;
