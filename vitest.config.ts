import { readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

// One project per package, discovered from the folder so a new package is tested without editing this file.
// Workspace imports resolve to src/ through the "@orphus/source" export condition: no build before tests.
// `pnpm test` needs nothing but Node: tests that need a redis-server live in test/redis/ and run under
// `pnpm test:redis` (vitest.redis.config.ts); scenarios that run for seconds live in test/reliability/.
const packagesDir = join(import.meta.dirname, "packages");
const packageNames = readdirSync(packagesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(packagesDir, entry.name, "package.json")))
  .map((entry) => entry.name)
  .sort();

export default defineConfig({
  resolve: { conditions: ["@orphus/source"] },
  ssr: { resolve: { conditions: ["@orphus/source"] } },
  test: {
    globalSetup: [join(import.meta.dirname, "test-support/global-setup.ts")],
    setupFiles: [join(import.meta.dirname, "test-support/fast-check-seed.ts")],
    reporters: ["default", join(import.meta.dirname, "test-support/summary-reporter.ts")],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      ...packageNames.map((name) => ({
        extends: true as const,
        test: {
          name,
          root: join(packagesDir, name),
          include: ["test/**/*.test.ts"],
          exclude: ["test/reliability/**", "test/redis/**"],
        },
      })),
      // The repository's own tooling: the benchmark harness and runner, the release and lint scripts.
      {
        extends: true as const,
        test: {
          name: "tooling",
          root: import.meta.dirname,
          include: ["bench-support/test/**/*.test.ts", "scripts/test/**/*.test.ts", "test-support/test/**/*.test.ts"],
        },
      },
    ],
  },
});
