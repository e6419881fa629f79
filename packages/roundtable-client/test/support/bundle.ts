// Programs bundled into one file each (our packages from source, zod included), as the broker's package build ships
// its bin: spawned with plain node they start in a fraction of the time tsx needs to load the sources.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "tsup";
import { brokerSourceBinPath } from "@orphus/roundtable-broker";

/**
 * Bundles each entry (name → source file) into `<dir>/<name>.js` in a fresh temporary directory; returns the
 * directory and the function that removes it.
 */
export async function bundlePrograms(entry: Record<string, string>, prefix = "rtc-bin-"): Promise<{ dir: string; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  await build({
    entry,
    outDir: dir,
    format: ["esm"],
    target: "node20",
    platform: "node",
    noExternal: [/./],
    esbuildOptions(options) {
      options.conditions = ["@orphus/source"];
    },
    dts: false,
    sourcemap: false,
    splitting: false,
    silent: true,
    config: false,
  });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Bundles the broker bin into a fresh temporary directory; returns its path and the function that removes it. */
export async function bundleBrokerBin(): Promise<{ bin: string; remove: () => void }> {
  const { dir, remove } = await bundlePrograms({ broker: brokerSourceBinPath() });
  return { bin: join(dir, "broker.js"), remove };
}
