// The broker bin bundled into one file (our packages from source, zod included), as the broker's package build
// ships it: spawned with plain node it starts in a fraction of the time tsx needs to load the sources.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "tsup";
import { brokerSourceBinPath } from "@orphus/roundtable-broker";

/** Bundles the broker bin into a fresh temporary directory; returns its path and the function that removes it. */
export async function bundleBrokerBin(): Promise<{ bin: string; remove: () => void }> {
  const outDir = mkdtempSync(join(tmpdir(), "rtc-bin-"));
  await build({
    entry: { broker: brokerSourceBinPath() },
    outDir,
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
  return { bin: join(outDir, "broker.js"), remove: () => rmSync(outDir, { recursive: true, force: true }) };
}
