import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { targetResolve } from "./test-support/vitest-target.js";

// `pnpm test:browser`: the pages the packages serve, in a real Chromium (Debian's `chromium` package, driven by
// playwright-core through its executable path; no browser is downloaded). Kept out of `pnpm test`, which must run on a
// machine with only Node and npm; this run fails at once, saying how to install chromium, when it is missing
// (.ci/run installs it), so a missing browser never reads as a suite that passed.
export default defineConfig({
  ...targetResolve(),
  test: {
    root: import.meta.dirname,
    include: ["packages/*/test/browser/**/*.test.ts"],
    globalSetup: [
      join(import.meta.dirname, "test-support/chromium-required.ts"),
      join(import.meta.dirname, "test-support/global-setup.ts"),
    ],
    setupFiles: [join(import.meta.dirname, "test-support/fast-check-seed.ts")],
    reporters: ["default", join(import.meta.dirname, "test-support/summary-reporter.ts")],
    // One browser at a time on a 2-core machine.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
