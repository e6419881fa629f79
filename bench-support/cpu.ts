// CPU pinning for benchmarks (not published). On a small shared VM a latency figure swings severalfold with where
// the scheduler puts client and server; pinning both to one CPU takes placement out of the figure. Two ways in:
// `pnpm bench <package> --cpu 0` runs each benchmark process under `taskset -c 0`, and every process it spawns
// (broker, echo floor) inherits the CPU; or a benchmark pins itself, or one child, with the functions below.
import { execFileSync, spawnSync } from "node:child_process";
import { cpus } from "node:os";

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
  pinProcess(process.pid, cpu);
}

/** Pins every thread of the running process `pid` to `cpu` (a server a benchmark spawned, say). */
export function pinProcess(pid: number, cpu: number): void {
  requireTaskset();
  execFileSync("taskset", ["-a", "-p", "-c", String(cpu), String(pid)], { stdio: "ignore" });
}

/**
 * Lets every thread of each running process in `pids` run on any CPU again (after a placement pinned them), so the
 * scheduler places them: for a figure judged as a user's machine runs it. Nothing where taskset cannot run.
 */
export function unpinProcesses(pids: readonly number[]): void {
  if (!tasksetAvailable()) return;
  const all = `0-${Math.max(1, cpus().length) - 1}`;
  for (const pid of pids) execFileSync("taskset", ["-a", "-p", "-c", all, String(pid)], { stdio: "ignore" });
}

/** True where `taskset` can run (Linux with util-linux installed). */
export function tasksetAvailable(): boolean {
  if (process.platform !== "linux") return false;
  return spawnSync("taskset", ["--version"], { stdio: "ignore" }).status === 0;
}

/** Where a latency benchmark runs its client (this process) and its servers for one figure. */
export interface Placement {
  /**
   * "same-cpu": client and servers share one CPU, the figure a target is judged on (a round trip on a small VM is
   * ~3x apart between sharing a CPU and not, and the scheduler picks per run); "cross-cpu": each on its own CPU,
   * reported beside it; "unpinned": taskset cannot run here, so the scheduler places them.
   */
  readonly kind: "same-cpu" | "cross-cpu" | "unpinned";
  readonly clientCpu?: number;
  readonly serverCpu?: number;
  /** Why this placement was not measured (one CPU only); undefined when it can be. */
  readonly unavailable?: string;
  /** Printed beside the figure: where it ran. */
  readonly note: string;
}

/** What {@link latencyPlacements} decides from; each defaults to what this machine and the runner say. */
export interface PlacementOptions {
  /** The runner's `--cpu`, where client and servers share a CPU. Default: {@link benchCpu}, else 0. */
  readonly cpu?: number;
  /** CPUs online. */
  readonly cpuCount?: number;
  /** Whether taskset can run. */
  readonly taskset?: boolean;
}

/**
 * The placements of a latency benchmark: client and servers on one CPU (the runner's `--cpu`, else 0), then the
 * client there and the servers on the next CPU; or one unpinned placement, saying why, where taskset cannot run.
 */
export function latencyPlacements(options: PlacementOptions = {}): Placement[] {
  const taskset = options.taskset ?? tasksetAvailable();
  if (!taskset) {
    return [
      { kind: "unpinned", note: "unpinned: taskset is not available here, so the scheduler placed client and servers" },
    ];
  }
  const cpuCount = options.cpuCount ?? cpus().length;
  const cpu = options.cpu ?? benchCpu() ?? 0;
  const other = (cpu + 1) % Math.max(cpuCount, 1);
  const same: Placement = {
    kind: "same-cpu",
    clientCpu: cpu,
    serverCpu: cpu,
    note: `client and servers on CPU ${cpu}`,
  };
  const cross: Placement =
    cpuCount < 2
      ? { kind: "cross-cpu", note: "client and servers on different CPUs", unavailable: "this machine has one CPU" }
      : { kind: "cross-cpu", clientCpu: cpu, serverCpu: other, note: `client on CPU ${cpu}, servers on CPU ${other}` };
  return [same, cross];
}

/** Moves this process to the placement's client CPU and each of `serverPids` to its server CPU; unpinned: nothing. */
export function applyPlacement(placement: Placement, serverPids: readonly number[]): void {
  const { clientCpu, serverCpu } = placement;
  if (placement.unavailable !== undefined || clientCpu === undefined || serverCpu === undefined) return;
  pinCurrentProcess(clientCpu);
  for (const pid of serverPids) pinProcess(pid, serverCpu);
}
