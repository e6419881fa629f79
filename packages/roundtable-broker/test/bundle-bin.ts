// Bundles src/bin/broker.ts with everything it imports (workspace packages from source, zod) into one ESM file
// that plain node runs. A bundled start costs a fifth of a start through tsx, which is what lets the start-up race
// run sixteen real brokers at once on a small machine; the cold-start benchmark spawns the same bundle.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "tsup";
import { brokerSourceBinPath } from "@orphus/roundtable-broker";

/** Builds the bundle into a fresh temporary directory and returns the file's path. */
export async function bundleBrokerBin(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), "rt-bin-"));
  await build({
    entry: { broker: brokerSourceBinPath() },
    format: ["esm"],
    platform: "node",
    target: "node20",
    outDir,
    noExternal: [/./],
    dts: false,
    silent: true,
    config: false,
    sourcemap: false,
    splitting: false,
    esbuildOptions(options) {
      options.conditions = ["@orphus/source"];
    },
  });
  return join(outDir, "broker.js");
}
