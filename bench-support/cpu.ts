// CPU pinning for benchmarks (not published). On a small shared VM a latency figure swings severalfold with where
// the scheduler puts client and server; pinning both to one CPU takes placement out of the figure. Two ways in:
// `pnpm bench <package> --cpu 0` runs each benchmark process under `taskset -c 0`, and every process it spawns
// (broker, echo floor) inherits the CPU; or a benchmark pins itself, or one child, with the functions below.
import { execFileSync } from "node:child_process";

/** Set by `pnpm bench --cpu N` for the benchmark processes it starts: the CPU they run on. */
export const BENCH_CPU_ENV = "ORPHUS_BENCH_CPU";

/** Parses a CPU number as `taskset -c` takes it; throws on anything else. */
export function parseCpu(text: string): number {
  const cpu = Number(text);
  if (!/^\d{1,4}$/.test(text) || !Number.isSafeInteger(cpu)) {
    throw new RangeError(`a CPU is a number such as 0, got ${JSON.stringify(text.slice(0, 20))}`);
  }
  return cpu;
}

/** The CPU this benchmark was pinned to by the runner, or undefined when it runs unpinned. */
export function benchCpu(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const value = env[BENCH_CPU_ENV];
  return value === undefined || value === "" ? undefined : parseCpu(value);
}

function requireTaskset(): void {
  if (process.platform !== "linux") {
    throw new Error(`pinning to a CPU needs taskset (Linux); this is ${process.platform}`);
  }
}

/** `command args` run on `cpu` (through `taskset -c`), or unchanged when `cpu` is undefined. */
export function pinnedCommand(
  command: string,
  args: readonly string[],
  cpu: number | undefined = benchCpu(),
): { command: string; args: string[] } {
  if (cpu === undefined) return { command, args: [...args] };
  requireTaskset();
  return { command: "taskset", args: ["-c", String(cpu), command, ...args] };
}

/** Pins every thread of this process to `cpu`; processes it spawns afterwards inherit the CPU. */
export function pinCurrentProcess(cpu: number): void {
  requireTaskset();
  execFileSync("taskset", ["-a", "-p", "-c", String(cpu), String(process.pid)], { stdio: "ignore" });
}
