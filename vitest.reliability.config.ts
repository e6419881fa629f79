import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { installedExclusions, packageDirs, targetResolve, testFilesOf } from "./test-support/vitest-target.js";

// `pnpm test:reliability`: load, fault and hostile-input scenarios against real brokers in real processes.
// Kept apart from `pnpm test` because each scenario runs for seconds; every scenario is bounded in count and time
// and talks only over Unix sockets in temporary directories.
export default defineConfig({
  ...targetResolve(),
  test: {
    include: ["packages/*/test/reliability/**/*.test.ts"],
    // An installed run (`pnpm test:installed`) leaves out the files that test internals (test-support/vitest-target.ts).
    exclude: installedExclusions(
      import.meta.dirname,
      packageDirs(import.meta.dirname).flatMap((dir) => testFilesOf(dir, "reliability")),
    ),
    globalSetup: [join(import.meta.dirname, "test-support/global-setup.ts")],
    setupFiles: [join(import.meta.dirname, "test-support/fast-check-seed.ts")],
    reporters: ["default", join(import.meta.dirname, "test-support/summary-reporter.ts")],
    // Scenarios spawn dozens of processes on a 2-core machine; run files one at a time so they do not skew each other.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
