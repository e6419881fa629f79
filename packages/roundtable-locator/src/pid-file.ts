import { readFileSync } from "node:fs";

/** What the diagnostic pid file says. A broker writes it after listening and never reads it as a lock. */
export interface PidFileContents {
  readonly pid: number;
  readonly socketPath: string;
  readonly version: string;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  /** Random per broker, so two brokers of one process (embedded in a test) tell their pid files apart. */
  readonly instance: string;
}

/** The pid the pid file names, or undefined when it is missing or unreadable (it is diagnostic only). */
export function readPidFilePid(file: string): number | undefined {
  try {
    const pid = (JSON.parse(readFileSync(file, "utf8")) as Partial<PidFileContents>).pid;
    return typeof pid === "number" && Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
