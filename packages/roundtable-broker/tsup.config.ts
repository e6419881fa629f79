import { defineConfig, type Options } from "tsup";
import { bundledProgramBuild, libraryBuild } from "../../tsup.base.js";

/** The library: dependencies stay external, as a library's should. Both builds run at once, so the library's
 * clean must not race the bin's output. */
const library = libraryBuild({ clean: ["**/*", "!bin/**"] });

const program = bundledProgramBuild({ "bin/broker": "src/bin/broker.ts" });

/**
 * The bin that clients spawn, self-contained: every dependency is bundled (our packages from source, zod, and the
 * Redis store with its Redis client), and nothing is imported from beside it. A bin that bundled some packages and
 * imported others would load two copies of the packages they share (it once classified the installed
 * `@orphus/rooms-redis`'s errors against its own copy of `@orphus/rooms` and answered every store refusal as
 * ERR_INTERNAL). One file for the broker itself, because loading zod's module graph file by file costs a spawned
 * broker about three times what parsing one bundle does; the Redis store and ioredis go to a chunk of their own
 * under `bin/chunks/`, which only a broker configured for Redis loads, so the default broker's cold start does not
 * pay for them. Shared with the tests and benchmarks (test/bundle-bin.ts).
 */
export const binBuild: Options = {
  ...program,
  splitting: true,
  esbuildOptions(options, context) {
    program.esbuildOptions?.(options, context);
    options.chunkNames = "bin/chunks/[name]-[hash]";
  },
};

export default defineConfig([library, { ...binBuild, clean: false }]);
