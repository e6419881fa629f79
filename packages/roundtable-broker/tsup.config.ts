import { defineConfig, type Options } from "tsup";
import { bundledProgramBuild, libraryBuild } from "../../tsup.base.js";

/** The library: dependencies stay external, as a library's should. Both builds run at once, so the library's
 * clean must not race the bin's output. */
const library = libraryBuild({ clean: ["**/*", "!bin/**"] });

const program = bundledProgramBuild({ "bin/broker": "src/bin/broker.ts" });

/**
 * The bin that clients spawn, bundled whole (our packages from source, and zod) into one file: loading zod's module
 * graph file by file costs a spawned broker about three times what parsing one bundle does, and a broker is started
 * cold whenever the first session of a fleet needs it. Shared with the tests and benchmarks (test/bundle-bin.ts).
 * `@orphus/rooms-redis` stays out: it is an optional peer, imported only by a broker configured for Redis and resolved
 * beside the installed broker, so the bin carries no Redis client.
 */
export const binBuild: Options = {
  ...program,
  esbuildOptions(options, context) {
    program.esbuildOptions?.(options, context);
    options.external = [...(options.external ?? []), "@orphus/rooms-redis"];
  },
};

export default defineConfig([library, { ...binBuild, clean: false }]);
