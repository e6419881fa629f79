// Programs bundled into one file each with the build the broker's bin ships with (tsup.base.ts): spawned with plain
// node they start in a fraction of the time tsx needs to load the sources.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "tsup";
import { brokerSourceBinPath } from "@orphus/roundtable-broker";
import { bundledProgramBuild } from "../../../../tsup.base.js";

/**
 * Bundles each entry (name → source file) into `<dir>/<name>.js` in a fresh temporary directory; returns the
 * directory and the function that removes it.
 */
export async function bundlePrograms(entry: Record<string, string>, prefix = "rtc-bin-"): Promise<{ dir: string; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  await build({ ...bundledProgramBuild(entry), outDir: dir, silent: true, config: false });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Bundles the broker bin into a fresh temporary directory; returns its path and the function that removes it. */
export async function bundleBrokerBin(): Promise<{ bin: string; remove: () => void }> {
  const { dir, remove } = await bundlePrograms({ broker: brokerSourceBinPath() });
  return { bin: join(dir, "broker.js"), remove };
}
