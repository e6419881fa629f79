import { readFileSync } from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat's start time: USER_HZ, 100 on every Linux build in use. */
const USER_HZ = 100;

/** Slack when comparing a process's start with a registry entry's: /proc/stat's boot time has whole seconds. */
const START_SLACK_MS = 2_000;

/** What /proc says of process `pid`: its state letter and when it started (epoch ms); undefined without /proc. */
function procStat(pid: number): { state: string; startedMs: number } | undefined {
  try {
    const bootSeconds = /^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1];
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces and parentheses) start at its last ")": the state is
    // field 3, the start time in clock ticks since boot field 22.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const [state, startTicks] = [fields[0], fields[19]];
    if (bootSeconds === undefined || state === undefined || startTicks === undefined) return undefined;
    return { state, startedMs: Number(bootSeconds) * 1000 + (Number(startTicks) * 1000) / USER_HZ };
  } catch {
    return undefined;
  }
}

/**
 * Whether the broker process a registry entry names still runs: a process with its pid exists (signal 0; EPERM
 * also means it exists) and, where /proc tells, it is no zombie (a killed process its parent has not reaped) and it
 * started before the entry was written, so a pid the system gave to a newer process does not pass for the broker.
 */
export function isBrokerProcessAlive(pid: number, registeredAt: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const stat = procStat(pid);
  if (stat === undefined) return true;
  return stat.state !== "Z" && stat.state !== "X" && stat.startedMs <= registeredAt + START_SLACK_MS;
}
