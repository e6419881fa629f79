import { readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import type { PidFileContents } from "@orphus/roundtable-locator";

/** Writes the pid file atomically (a sibling file renamed into place), so a reader never sees half of it. */
export function writePidFile(file: string, contents: PidFileContents): void {
  const temporary = `${file}.${contents.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(contents)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
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
