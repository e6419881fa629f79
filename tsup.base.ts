// The build every package shares: ESM for Node 20, one .d.ts for src/index.ts, dependencies external, one entry per
// bin. Each packages/<name>/tsup.config.ts passes its bins; the broker adds a second, bundled build of its own bin.
import type { Options } from "tsup";

/** Options of {@link libraryBuild}. */
export interface LibraryBuildOptions {
  /** Bin entries by output name, e.g. { "bin/roundtable": "src/bin/roundtable.ts" }. */
  readonly bins?: Readonly<Record<string, string>>;
  /** tsup's clean setting; a package with a second build beside this one narrows it. */
  readonly clean?: Options["clean"];
}

export function libraryBuild(options: LibraryBuildOptions = {}): Options {
  return {
    entry: { index: "src/index.ts", ...options.bins },
    format: ["esm"],
    target: "node20",
    platform: "node",
    dts: { entry: { index: "src/index.ts" } },
    sourcemap: true,
    clean: options.clean ?? true,
    splitting: false,
  };
}
