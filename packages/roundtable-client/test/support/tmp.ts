import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REGISTRY_DIR_ENV } from "@orphus/roundtable-broker";

// Brokers of these tests (embedded, and the bins they spawn, which inherit the environment) register in a registry
// of this test process, never in the user's home.
const registryDir = mkdtempSync(join(tmpdir(), "rtc-reg-"));
process.env[REGISTRY_DIR_ENV] = registryDir;
process.on("exit", () => rmSync(registryDir, { recursive: true, force: true }));

/** A short temporary directory (socket paths must stay well under 108 bytes); removed by the returned function. */
export function shortTempDir(prefix = "rtc-"): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Polls a condition every few milliseconds until it holds (the test's own timeout bounds it). */
export async function until(condition: () => boolean | Promise<boolean>, everyMs = 5): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, everyMs));
}
