import { basename, join } from "node:path";
import { defineConfig } from "vitest/config";
import { installedProject } from "./test-support/target.js";
import { installedExclusions, packageDirs, targetResolve, testFilesOf } from "./test-support/vitest-target.js";

// One project per package, discovered from the folder so a new package is tested without editing this file.
// Workspace imports resolve to src/ through the "@orphus/source" export condition: no build before tests.
// `pnpm test` needs nothing but Node: tests that need a redis-server live in test/redis/ and run under
// `pnpm test:redis` (vitest.redis.config.ts); scenarios that run for seconds live in test/reliability/; pages driven
// in a real Chromium live in test/browser/ and run under `pnpm test:browser` (vitest.browser.config.ts).
// With ORPHUS_TEST_INSTALLED set (`pnpm test:installed`), the integration tests of the packages users run as
// programs (broker, client, CLI, MCP server, pi extension, and the locator they find the broker with) run against the
// packages installed from their tarballs instead, every file but those that test internals
// (test-support/vitest-target.ts).
const packageNames = packageDirs(import.meta.dirname).map((dir) => basename(dir));
const packagesDir = join(import.meta.dirname, "packages");

/**
 * The packages whose tests an installed run repeats: the ones that ship programs, the client they share, the
 * locator the client finds and starts the broker's bin with, and the viewer `roundtable view` serves (its page and
 * assets must ship in its tarball).
 */
const INSTALLED_PACKAGES = [
  "roundtable-locator",
  "roundtable-broker",
  "roundtable-client",
  "roundtable-cli",
  "roundtable-mcp",
  "roundtable-viewer",
  "pi-roundtable",
];
const installed = installedProject() !== undefined;

export default defineConfig({
  ...targetResolve(),
  test: {
    globalSetup: [join(import.meta.dirname, "test-support/global-setup.ts")],
    setupFiles: [join(import.meta.dirname, "test-support/fast-check-seed.ts")],
    reporters: [
      "default",
      // With --coverage (`pnpm test`): each package's coverage against its floor in coverage-floors.json.
      [join(import.meta.dirname, "test-support/coverage-reporter.ts"), { projects: [...packageNames, "tooling"] }],
      join(import.meta.dirname, "test-support/summary-reporter.ts"),
    ],
    // `vitest run --coverage`: V8's own counters over every package's src/ (never tests, benchmarks, dist/ or
    // test-support/), the files no test loads included at 0%. Code run in a child process (a bin a test starts) is
    // not counted. The reporter above prints the figures; coverage/ gets an HTML report to find what is uncovered.
    coverage: {
      provider: "v8",
      include: ["packages/*/src/**/*.ts"],
      exclude: ["**/*.test.ts", "**/*.bench.ts", "**/*.d.ts"],
      reporter: ["html"],
    },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      ...packageNames
        .filter((name) => !installed || INSTALLED_PACKAGES.includes(name))
        .map((name) => {
          const root = join(packagesDir, name);
          return {
            extends: true as const,
            test: {
              name,
              root,
              include: ["test/**/*.test.ts"],
              exclude: [
                "test/reliability/**",
                "test/redis/**",
                "test/browser/**",
                ...installedExclusions(root, testFilesOf(root)),
              ],
            },
          };
        }),
      // The repository's own tooling: the benchmark harness and runner, the release and lint scripts.
      ...(installed
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: "tooling",
                root: import.meta.dirname,
                include: [
                  "bench-support/test/**/*.test.ts",
                  "scripts/test/**/*.test.ts",
                  "test-support/test/**/*.test.ts",
                ],
              },
            },
          ]),
    ],
  },
});
