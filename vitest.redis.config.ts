import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { installedExclusions, packageDirs, targetResolve, testFilesOf } from "./test-support/vitest-target.js";

// `pnpm test:redis`: every test that needs a real redis-server (Debian's `redis-server` package): the Redis room
// store's own tests, the room-store contract on Redis, brokers of two "hosts" sharing one Redis, and the Redis
// reliability scenarios. Each file starts its own servers on free loopback ports in temporary directories. Kept out
// of `pnpm test`, which must run on a machine with only Node and npm; this run fails at once, saying how to install
// redis-server, when it is missing (.ci/run installs it).
export default defineConfig({
  ...targetResolve(),
  test: {
    root: import.meta.dirname,
    include: ["packages/*/test/redis/**/*.test.ts"],
    // An installed run (`pnpm test:installed`) leaves out the files that test internals (test-support/vitest-target.ts).
    exclude: installedExclusions(
      import.meta.dirname,
      packageDirs(import.meta.dirname).flatMap((dir) => testFilesOf(dir, "redis")),
    ),
    globalSetup: [
      join(import.meta.dirname, "test-support/redis-required.ts"),
      join(import.meta.dirname, "test-support/global-setup.ts"),
    ],
    setupFiles: [join(import.meta.dirname, "test-support/fast-check-seed.ts")],
    reporters: ["default", join(import.meta.dirname, "test-support/summary-reporter.ts")],
    // Brokers, clients and servers in real processes on a 2-core machine: one file at a time, so the scenarios that
    // stop Redis for seconds or count lost posts do not skew each other.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
