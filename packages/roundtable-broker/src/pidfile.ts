import { readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";

/** What the diagnostic pid file says. It is written after listening and never read as a lock. */
export interface PidFileContents {
  readonly pid: number;
  readonly socketPath: string;
  readonly version: string;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  /** Random per broker, so two brokers of one process (embedded in a test) tell their pid files apart. */
  readonly instance: string;
}

/** Writes the pid file atomically (a sibling file renamed into place), so a reader never sees half of it. */
export function writePidFile(file: string, contents: PidFileContents): void {
  const temporary = `${file}.${contents.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(contents)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
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

/** Removes the pid file if it is still this broker's (a successor's is left alone); never throws. */
export function removePidFile(file: string, own: Pick<PidFileContents, "pid" | "instance">): void {
  try {
    const contents = JSON.parse(readFileSync(file, "utf8")) as Partial<PidFileContents>;
    if (contents.pid === own.pid && contents.instance === own.instance) unlinkSync(file);
  } catch {
    // Missing or unreadable: nothing of ours to remove.
  }
}
