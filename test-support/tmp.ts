// Temporary directories for tests: short (a socket path in one must stay well under 108 bytes), under the system's
// temporary folder. Brokers of these tests register in the temporary registry test-support/global-setup.ts names,
// never the home's.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";

/** A short temporary directory; removed by the returned function. */
export function shortTempDir(prefix = "rtc-"): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A short temporary directory, removed once the current test has finished: after its afterEach hooks, so whatever
 * they close (brokers, stores, clients) is gone first. Call it inside a test.
 */
export function tempDir(prefix = "rtt-"): string {
  const { dir, remove } = shortTempDir(prefix);
  onTestFinished(remove);
  return dir;
}
