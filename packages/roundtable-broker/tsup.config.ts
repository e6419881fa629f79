import { defineConfig, type Options } from "tsup";

/** The library: dependencies stay external, as a library's should. */
const library: Options = {
  entry: { index: "src/index.ts" },
  format: ["esm"],
  target: "node20",
  platform: "node",
  dts: { entry: { index: "src/index.ts" } },
  sourcemap: true,
  // Both builds run at once: the library's clean must not race the bin's output.
  clean: ["**/*", "!bin/**"],
  splitting: false,
};

/**
 * The bin that clients spawn, bundled whole (our packages from source, and zod) into one file: loading zod's module
 * graph file by file costs a spawned broker about three times what parsing one bundle does, and a broker is started
 * cold whenever the first session of a fleet needs it. Shared with the tests and benchmarks (test/bundle-bin.ts).
 */
export const binBuild: Options = {
  entry: { "bin/broker": "src/bin/broker.ts" },
  format: ["esm"],
  target: "node20",
  platform: "node",
  dts: false,
  sourcemap: false,
  minify: true,
  splitting: false,
  noExternal: [/./],
  esbuildOptions(options) {
    options.conditions = ["@orphus/source"];
  },
};

export default defineConfig([library, { ...binBuild, clean: false }]);
