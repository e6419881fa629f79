// `pnpm test:installed [unit] [redis] [reliability] [--project DIR]`: the suites against what users install, not
// against the sources. Every publishable package is packed and installed by npm into one project (scripts/lib/pack.ts:
// internal dependencies from their tarballs, the rest from the registry, native addons given the workspace's own
// build), and the chosen suites run with ORPHUS_TEST_INSTALLED naming that project: the integration tests of the
// locator, broker, client, CLI, MCP server and pi extension (unit), the Redis suite (redis) and the reliability suite
// (reliability), every bin they start the installed one. No suite named runs all three. Packages must be built
// first (`pnpm build`). With --project DIR, an install already there (left by `pnpm pack:check --project DIR`, as CI
// does, so it packs and installs once) is used as it is; otherwise one is made there, or in a temporary folder that
// is removed afterwards.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INSTALLED_ENV } from "../test-support/target.js";
import { holdsInstall, installPacked, packPackages, publishablePackages } from "./lib/pack.js";

const SUITES = {
  unit: "vitest.config.ts",
  redis: "vitest.redis.config.ts",
  reliability: "vitest.reliability.config.ts",
} as const;
type Suite = keyof typeof SUITES;

const root = join(import.meta.dirname, "..");
const say = (line: string): void => void process.stdout.write(`${line}\n`);

/** The command line: suites, and the two folders. Exits 2 on anything else. */
function parse(argv: readonly string[]): { suites: Suite[]; project?: string } {
  const suites: Suite[] = [];
  const folders: { project?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--project") {
      const value = argv[++i];
      if (value === undefined || value.startsWith("--")) usage(`${arg} needs a folder`);
      folders.project = value;
    } else if (arg in SUITES) {
      suites.push(arg as Suite);
    } else {
      usage(`unknown argument ${JSON.stringify(arg)}`);
    }
  }
  return { suites: suites.length === 0 ? (Object.keys(SUITES) as Suite[]) : suites, ...folders };
}

function usage(problem: string): never {
  process.stderr.write(
    `test:installed: ${problem}\nusage: pnpm test:installed [unit] [redis] [reliability] [--project DIR]\n`,
  );
  process.exit(2);
}

const options = parse(process.argv.slice(2));
const project = options.project ?? mkdtempSync(join(tmpdir(), "orphus-installed-"));
let failed = false;
try {
  if (holdsInstall(project)) {
    say(`using the packages installed in ${project}`);
  } else {
    const packed = packPackages(root, publishablePackages(root), join(project, "tarballs"), say);
    const addons = await installPacked(root, packed, project);
    say(
      `installed ${packed.length} packages from their tarballs${addons.length > 0 ? `, native addons built (${addons.join(", ")})` : ""}`,
    );
  }
  const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
  for (const suite of options.suites) {
    say(`\n== ${suite} tests against the installed packages`);
    const env = { ...process.env, [INSTALLED_ENV]: project };
    const result = spawnSync(process.execPath, [vitest, "run", "--config", SUITES[suite]], {
      cwd: root,
      env,
      stdio: "inherit",
    });
    if (result.status !== 0) failed = true;
  }
} finally {
  if (options.project === undefined && existsSync(project)) rmSync(project, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
