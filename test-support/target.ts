// What a test run exercises, in one place. By default the sources: workspace packages resolve to src/ through the
// "@orphus/source" export condition, bins run from their TypeScript source (or are bundled from it, as the broker's
// is shipped), and nothing needs building. With ORPHUS_TEST_INSTALLED=<project> (set by `pnpm test:installed`, see
// scripts/test-installed.ts) the same suites run against what users install: every @orphus package installed by npm
// from its packed tarball into <project>/node_modules, imports of @orphus/* resolved there (vitest-target.ts), and
// every bin the installed package's own dist/bin/*.js. Test files reach packages and bins only through here, so
// one switch decides which of the two a whole run tests.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Options } from "tsup";
import { bundledProgramBuild } from "../tsup.base.js";

/** The variable naming the project the packages were installed into; unset for a run against the sources. */
export const INSTALLED_ENV = "ORPHUS_TEST_INSTALLED";

const repositoryRoot = join(import.meta.dirname, "..");

/** The project whose node_modules hold the installed packages, or undefined when this run tests the sources. */
export function installedProject(): string | undefined {
  const project = process.env[INSTALLED_ENV];
  return project === undefined || project === "" ? undefined : project;
}

/** What this run tests, for a test's own wording or a rare branch: "source" or "installed". */
export function testTarget(): "source" | "installed" {
  return installedProject() === undefined ? "source" : "installed";
}

/** The folder of workspace package `name` ("roundtable-cli") as this run tests it: packages/<name> or the install. */
export function packageDir(name: string): string {
  const project = installedProject();
  return project === undefined
    ? join(repositoryRoot, "packages", name)
    : join(project, "node_modules", "@orphus", name);
}

/**
 * The entry file of every @orphus package installed in `project`, by name: the file `import "@orphus/<name>"`
 * loads there under Node's conditions (its manifest's exports["."].import, else .default), and likewise the file of
 * each subpath it exports (`@orphus/<name>/testing`).
 */
export function installedEntries(project: string): Record<string, string> {
  const scope = join(project, "node_modules", "@orphus");
  if (!existsSync(scope))
    throw new Error(`${scope} does not exist: install the packed packages first (pnpm test:installed)`);
  const entries: Record<string, string> = {};
  for (const name of readdirSync(scope).sort()) {
    const dir = join(scope, name);
    const { exports } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      exports?: Record<string, unknown>;
    };
    for (const [subpath, target] of Object.entries(exports ?? {})) {
      if (subpath === "./package.json") continue;
      const entry =
        typeof target === "string"
          ? target
          : typeof target === "object" && target !== null
            ? ((target as Record<string, unknown>)["import"] ?? (target as Record<string, unknown>)["default"])
            : undefined;
      if (typeof entry !== "string") {
        throw new Error(`@orphus/${name}'s installed manifest names no import entry for "${subpath}"`);
      }
      entries[`@orphus/${name}${subpath.slice(1)}`] = join(dir, entry);
    }
    if (entries[`@orphus/${name}`] === undefined) {
      throw new Error(`@orphus/${name}'s installed manifest names no import entry for "."`);
    }
  }
  return entries;
}

/** A program and its arguments, ready for spawn. */
export interface Command {
  readonly command: string;
  readonly args: readonly string[];
}

/** tsx's ESM loader, resolved from the repository (a source run's bins are TypeScript). */
export function tsxLoader(): string {
  return pathToFileURL(createRequire(join(repositoryRoot, "package.json")).resolve("tsx")).href;
}

/**
 * The command that runs bin `bin` of package `name` (its file name without extension: "roundtable" for
 * src/bin/roundtable.ts and dist/bin/roundtable.js) with `args`: from source through tsx, as the root scripts run it,
 * or the installed package's built bin with plain node, as a user's install runs it.
 */
export function binCommand(name: string, bin: string, args: readonly string[] = []): Command {
  const dir = packageDir(name);
  if (installedProject() !== undefined)
    return { command: process.execPath, args: [join(dir, "dist", "bin", `${bin}.js`), ...args] };
  return {
    command: process.execPath,
    args: ["--conditions=@orphus/source", "--import", tsxLoader(), join(dir, "src", "bin", `${bin}.ts`), ...args],
  };
}

/** Programs bundled into a temporary folder, and the function that removes it. */
export interface BundledPrograms {
  readonly dir: string;
  remove(): void;
}

/** Options of {@link bundlePrograms}. */
export interface BundleOptions {
  /** Prefix of the temporary folder's name. */
  readonly prefix?: string;
  /** Build options in place of the default program build (the broker's own bin build, for one). */
  readonly base?: Options;
  /**
   * Bundle our packages in even in an installed run (from the installed files): a program that must share nothing
   * with the test's own imports but globalThis, such as a second copy of a package, or one copied where the
   * installed packages cannot be read.
   */
  readonly whole?: boolean;
}

/**
 * Bundles test programs (name → absolute entry file) into `<dir>/<name>.js`, each one file that plain node starts
 * fast. From source, everything is bundled in (our packages from src/, as the broker's bin ships). In an installed
 * run, @orphus/* stay imports and the folder is made inside the installed project, so node resolves them to the
 * installed packages: the program then runs what users run.
 */
export async function bundlePrograms(
  entry: Readonly<Record<string, string>>,
  options: BundleOptions = {},
): Promise<BundledPrograms> {
  const project = installedProject();
  const prefix = options.prefix ?? "rt-bin-";
  let dir: string;
  let settings: Options = {
    ...(options.base ?? bundledProgramBuild({})),
    entry: { ...entry },
    silent: true,
    config: false,
    sourcemap: false,
  };
  if (project === undefined) {
    dir = mkdtempSync(join(tmpdir(), prefix));
  } else {
    const programs = join(project, "programs");
    mkdirSync(programs, { recursive: true });
    dir = mkdtempSync(join(programs, prefix));
    if (options.whole !== true) {
      settings = { ...settings, noExternal: [/^(?!@orphus\/)/], external: [/^@orphus\//] };
    } else {
      // Bundled in from the installed files, wherever the entry is: each name resolves to the installed entry.
      // esbuild's aliases are package names (a subpath import follows its package's alias), so subpaths stay out.
      const packages = Object.entries(installedEntries(project)).filter(([name]) => name.split("/").length === 2);
      const alias = Object.fromEntries(packages);
      const base = settings.esbuildOptions;
      settings = {
        ...settings,
        esbuildOptions(esbuild, context) {
          base?.(esbuild, context);
          esbuild.alias = { ...esbuild.alias, ...alias };
        },
      };
    }
  }
  await build({ ...settings, outDir: dir });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The broker bin a run spawns, and the function that removes what was built for it (nothing, when installed). */
export interface BrokerBin {
  readonly bin: string;
  remove(): void;
}

/**
 * The broker's bin as it ships: in a source run, built from src/bin/broker.ts with the package's own bin build (one
 * bundle, the Redis store in a chunk of its own) into a temporary folder; in an installed run, the installed
 * package's dist/bin/broker.js itself.
 */
export async function brokerBin(): Promise<BrokerBin> {
  if (installedProject() !== undefined) {
    return { bin: join(packageDir("roundtable-broker"), "dist", "bin", "broker.js"), remove: () => undefined };
  }
  // Loaded here, not at the top: an installed run never builds the bin, and needs no tsup config of the sources.
  const { binBuild } = await import("../packages/roundtable-broker/tsup.config.js");
  const source = join(repositoryRoot, "packages", "roundtable-broker", "src", "bin", "broker.ts");
  const { dir, remove } = await bundlePrograms({ "bin/broker": source }, { prefix: "rt-broker-", base: binBuild });
  return { bin: join(dir, "bin", "broker.js"), remove };
}
