import { defineConfig, type Options } from "tsup";
import { bundledProgramBuild, libraryBuild } from "../../tsup.base.js";

/** The library: dependencies stay external, as a library's should. Both builds run at once, so the library's
 * clean must not race the bin's output. */
const library = libraryBuild({ clean: ["**/*", "!bin/**"] });

/** The bin build with the chunks it splits off written to `chunks` (a folder relative to its output folder). */
function binBuildWithChunksIn(chunks: string, entry: Readonly<Record<string, string>>): Options {
  const program = bundledProgramBuild(entry);
  return {
    ...program,
    splitting: true,
    esbuildOptions(options, context) {
      program.esbuildOptions?.(options, context);
      options.chunkNames = `${chunks}/[name]-[hash]`;
    },
  };
}

/**
 * The bin that clients spawn, self-contained: every dependency is bundled (our packages from source, zod, and the
 * Redis store with its Redis client), and nothing is imported from beside it. A bin that bundled some packages and
 * imported others would load two copies of the packages they share (it once classified the installed
 * `@orphus/rooms-redis`'s errors against its own copy of `@orphus/rooms` and answered every store refusal as
 * ERR_INTERNAL). One file for the broker itself, because loading zod's module graph file by file costs a spawned
 * broker about three times what parsing one bundle does; the Redis store and ioredis go to a chunk of their own
 * under `bin/chunks/`, which only a broker configured for Redis loads, so the default broker's cold start does not
 * pay for them. Shared with the tests and benchmarks (test-support/target.ts's brokerBin, bench/support.ts), which
 * build it into a temporary folder of their own.
 */
export const binBuild: Options = binBuildWithChunksIn("bin/chunks", { "bin/broker": "src/bin/broker.ts" });

/**
 * The same bin as the package ships it, written into dist/bin/ and cleaning that folder alone before it builds, so a
 * chunk of an earlier build (its name carries the hash of its content) is never left to pile up or be packed. tsup's
 * clean always starts from every file of the output folder (a pattern can only narrow it by exclusion), so the bin
 * gets a folder of its own rather than a pattern inside dist/, where it would remove the library's files as they
 * are written.
 */
const shippedBin: Options = {
  ...binBuildWithChunksIn("chunks", { broker: "src/bin/broker.ts" }),
  outDir: "dist/bin",
  clean: true,
};

export default defineConfig([library, shippedBin]);
