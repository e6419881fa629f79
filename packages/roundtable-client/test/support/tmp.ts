import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Brokers of these tests register in the temporary registry test-support/global-setup.ts names, never the home's.

/** A short temporary directory (socket paths must stay well under 108 bytes); removed by the returned function. */
export function shortTempDir(prefix = "rtc-"): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Polls a condition every few milliseconds until it holds (the test's own timeout bounds it). */
export async function until(condition: () => boolean | Promise<boolean>, everyMs = 5): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, everyMs));
}
