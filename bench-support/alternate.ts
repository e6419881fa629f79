// Shared by the latency benchmarks that compare a subject with a floor measured in the same run: both pinned to one
// CPU (a latency figure here swings 3x with CPU placement), measured in alternating blocks so neither always runs
// second, each block reduced to its p50.
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { quantile } from "./report.js";

const PINNED_ENV = "ORPHUS_BENCH_PINNED";

/**
 * Runs this benchmark again pinned to CPU 0 with taskset, unless it already is (the children it spawns inherit the
 * pin), and exits with that run's status. Returns taskset's path, or "" where there is none (then nothing is pinned).
 */
export function pinToCpu0(): string {
  const taskset = spawnSync("sh", ["-c", "command -v taskset"], { encoding: "utf8" }).stdout.trim();
  if (taskset !== "" && process.env[PINNED_ENV] === undefined) {
    const pinned = spawnSync(taskset, ["-c", "0", process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
      stdio: "inherit",
      env: { ...process.env, [PINNED_ENV]: "1" },
    });
    process.exit(pinned.status ?? 1);
  }
  return taskset;
}

/** Per block, the p50 of the subject, of the floor, and their ratio. */
export interface AlternatedBlocks {
  readonly subject: number[];
  readonly floor: number[];
  readonly ratios: number[];
}

/** Times `perBlock` sequential calls of each, in `blocks` blocks alternating which goes first, after `warmup` of each. */
export async function alternate(
  subject: () => Promise<void>,
  floor: () => Promise<void>,
  options: { readonly blocks: number; readonly perBlock: number; readonly warmup: number },
): Promise<AlternatedBlocks> {
  const block = async (action: () => Promise<void>): Promise<number> => {
    const samples: number[] = [];
    for (let i = 0; i < options.perBlock; i++) {
      const start = performance.now();
      await action();
      samples.push(performance.now() - start);
    }
    return quantile(samples, 0.5);
  };
  for (let i = 0; i < options.warmup; i++) {
    await subject();
    await floor();
  }
  const result: AlternatedBlocks = { subject: [], floor: [], ratios: [] };
  for (let b = 0; b < options.blocks; b++) {
    const subjectFirst = b % 2 === 0;
    const one = await block(subjectFirst ? subject : floor);
    const two = await block(subjectFirst ? floor : subject);
    const [s, f] = subjectFirst ? [one, two] : [two, one];
    result.subject.push(s);
    result.floor.push(f);
    result.ratios.push(s / f);
  }
  return result;
}
