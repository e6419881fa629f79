// How much of a CPU the host took for other guests while a benchmark ran ("steal" in /proc/stat). On a shared VM
// the same benchmark's absolute times swing by a third between runs with it, and its ratios widen; printing it
// beside each file's figures says which runs a reader should trust less.
import { readFileSync } from "node:fs";

/** Cumulative times of one CPU from /proc/stat, in clock ticks: all of them, and the host's steal. */
export interface CpuTicks {
  readonly total: number;
  readonly steal: number;
}

/**
 * The ticks of `cpu` (a number) or of all CPUs together (undefined) in a /proc/stat text; undefined when the line
 * is missing or has no steal column (kernels before 2.6.11).
 */
export function cpuTicks(procStat: string, cpu: number | undefined): CpuTicks | undefined {
  const label = cpu === undefined ? "cpu" : `cpu${cpu}`;
  const line = procStat.split("\n").find((row) => row.startsWith(`${label} `));
  if (line === undefined) return undefined;
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal [guest guest_nice]; guest time is already in user and nice.
  const steal = fields[7];
  if (steal === undefined || fields.some((value) => !Number.isFinite(value))) return undefined;
  const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
  return { total, steal };
}

/** Reads the ticks of `cpu` now; undefined where /proc/stat cannot say (not Linux). */
export function readCpuTicks(cpu: number | undefined): CpuTicks | undefined {
  try {
    return cpuTicks(readFileSync("/proc/stat", "utf8"), cpu);
  } catch {
    return undefined;
  }
}

/** The host's share of the CPU between two readings, in percent; undefined when not known or no time passed. */
export function stealShare(before: CpuTicks | undefined, after: CpuTicks | undefined): number | undefined {
  if (before === undefined || after === undefined) return undefined;
  const elapsed = after.total - before.total;
  return elapsed <= 0 ? undefined : (100 * (after.steal - before.steal)) / elapsed;
}

/** The line printed after a benchmark file: the host's share of the CPU between two readings. */
export function stealLine(before: CpuTicks | undefined, after: CpuTicks | undefined, cpu: number | undefined): string {
  const where = cpu === undefined ? "all CPUs" : `CPU ${cpu}`;
  if (before === undefined || after === undefined) return `host steal on ${where}: not known here (no /proc/stat)`;
  const share = stealShare(before, after);
  if (share === undefined) return `host steal on ${where}: no time passed`;
  return `host steal on ${where}: ${share.toFixed(1)}% of its time during this file (the host's other guests)`;
}
