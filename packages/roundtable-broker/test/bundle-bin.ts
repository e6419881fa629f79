// Builds the bin exactly as the package build does (tsup.config.ts's binBuild: one file, dependencies included),
// into a temporary directory, so tests and benchmarks spawn what a published install spawns without a full build.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, type Options } from "tsup";
import { brokerSourceBinPath } from "@orphus/roundtable-broker";
import { binBuild } from "../tsup.config.js";

/** Builds the bundled bin into a fresh temporary directory and returns the path of `bin/broker.js`. */
export function bundleBrokerBin(): Promise<string> {
  return bundleProgram("bin/broker", brokerSourceBinPath());
}

/**
 * Bundles the program at `entryPath` (absolute) exactly as the bin is bundled (or with the build options `base`),
 * into a fresh temporary directory, and returns the path of `<name>.js` there.
 */
export async function bundleProgram(name: string, entryPath: string, base: Options = binBuild): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), "rt-bin-"));
  // The entry is absolute: tsup resolves relative ones from the working directory, which is not this package here.
  await build({ ...base, entry: { [name]: entryPath }, outDir, silent: true, config: false, sourcemap: false });
  return join(outDir, `${name}.js`);
}
