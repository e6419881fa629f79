// The build every package shares: ESM for Node 20, one .d.ts for src/index.ts (and for each subpath entry, such as
// a package's test doubles under `/testing`), dependencies external, one entry per bin. Each
// packages/<name>/tsup.config.ts passes its bins and subpaths; the broker adds a second, bundled build of its own bin.
// The one package bundled into a library is @orphus/internal (private, source only): its code is copied into each
// package that uses it, and the types of it a public type names into the package's .d.ts, so no published manifest
// or declaration names it.
import type { Options } from "tsup";

/** Options of {@link libraryBuild}. */
export interface LibraryBuildOptions {
  /** Bin entries by output name, e.g. { "bin/roundtable": "src/bin/roundtable.ts" }. */
  readonly bins?: Readonly<Record<string, string>>;
  /** tsup's clean setting; a package with a second build beside this one narrows it. */
  readonly clean?: Options["clean"];
  /**
   * Library entries besides the main one, by output name, each a subpath export with its own .d.ts, e.g.
   * { testing: "src/testing.ts" } for `@orphus/<name>/testing`.
   */
  readonly subpaths?: Readonly<Record<string, string>>;
}

export function libraryBuild(options: LibraryBuildOptions = {}): Options {
  const libraries = { index: "src/index.ts", ...options.subpaths };
  return {
    entry: { ...libraries, ...options.bins },
    format: ["esm"],
    target: "node20",
    platform: "node",
    // A public type may name a type of @orphus/internal (the injected timers): the declaration bundler finds the
    // private package's source by this path (a lookup through node_modules would leave it an import) and inlines it,
    // so the published .d.ts imports nothing that is never installed. tsup's `dts.resolve` cannot do it: it resolves
    // through the symlink in node_modules, and the package's own relative imports then count as external.
    dts: {
      entry: libraries,
      compilerOptions: { rootDir: "..", paths: { "@orphus/internal": ["../internal/src/index.ts"] } },
    },
    sourcemap: true,
    clean: options.clean ?? true,
    // Entries of one library share one copy of each module (a chunk), so that a class is one class whichever entry
    // it is reached through: a test double's error is an instance of the main entry's base class. A package with one
    // library entry stays one file.
    splitting: options.subpaths !== undefined,
    // Every other package of ours stays an import of the installed package, a devDependency included: one copy of
    // each for the whole process, whatever is bundled.
    noExternal: [INTERNAL_PACKAGE],
    // @orphus/internal is left out of the pattern: the declaration bundler takes `external` alone (esbuild lets
    // noExternal win), and inlines the private package's types only when they are not external.
    external: [/^@orphus\/(?!internal$)/],
    esbuildOptions(options) {
      // What is bundled is resolved from source: of our packages that is @orphus/internal alone, which has no build.
      options.conditions = ["@orphus/source"];
    },
  };
}

/** The private package whose source is bundled into each package that imports it (packages/internal). */
export const INTERNAL_PACKAGE = /^@orphus\/internal$/;

/**
 * A program bundled whole into one file (our packages from source, and their dependencies such as zod): a spawned
 * process then parses one file instead of loading a module graph file by file. The broker's bin ships this way;
 * tests and benchmarks bundle their own programs (drivers, bins from source) with the same options.
 */
export function bundledProgramBuild(entry: Readonly<Record<string, string>>): Options {
  return {
    entry: { ...entry },
    format: ["esm"],
    target: "node20",
    platform: "node",
    dts: false,
    sourcemap: false,
    minify: true,
    splitting: false,
    noExternal: [/./],
    // CommonJS dependencies bundled into ESM (ioredis, when a test bundles the broker with its Redis store) call
    // require() for Node's built-ins; esbuild's ESM output has no require of its own, so one is made here.
    banner: {
      js: 'import { createRequire as __bundleCreateRequire } from "node:module"; const require = __bundleCreateRequire(import.meta.url);',
    },
    esbuildOptions(options) {
      options.conditions = ["@orphus/source"];
    },
  };
}
