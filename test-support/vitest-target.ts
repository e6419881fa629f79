// The part of every vitest config that decides what a run tests (see target.ts): the sources through the
// "@orphus/source" condition, or, with ORPHUS_TEST_INSTALLED set, the packages installed from their tarballs. An
// installed run resolves each @orphus/* import to the installed package's own entry (its published exports), which
// vitest leaves to Node since it lies under node_modules: the test then drives exactly the files a user's install
// holds, and their own imports resolve as Node resolves them there. It runs the test files that reach packages only
// through their public entries; a file that imports a module from a src/ folder tests internals and stays a source
// test (sourceOnlyFiles).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { AliasOptions } from "vite";
import { installedEntries, installedProject } from "./target.js";

/** `resolve` and `ssr.resolve` of a vitest config for this run. */
export function targetResolve(): {
  resolve: { conditions: string[]; alias: AliasOptions };
  ssr: { resolve: { conditions: string[] } };
} {
  const project = installedProject();
  // The condition stays in an installed run too: a private workspace package that is bundled into the published
  // ones, never installed, still resolves to its source when a test imports it.
  const conditions = ["@orphus/source"];
  return {
    resolve: { conditions, alias: project === undefined ? [] : installedAliases(project) },
    ssr: { resolve: { conditions } },
  };
}

/** Every installed @orphus package's entry, as an exact alias of its name. */
export function installedAliases(project: string): { find: RegExp; replacement: string }[] {
  return Object.entries(installedEntries(project)).map(([name, entry]) => ({
    find: new RegExp(`^${name}$`),
    replacement: entry,
  }));
}

/**
 * Relative import specifiers of a TypeScript file that load code: static imports and re-exports (not `import type`
 * or `export type`, which the compiler erases), side-effect imports, and dynamic imports of literals.
 */
function relativeImports(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(type\s+)?[^;"]*?\bfrom\s+"(\.{1,2}\/[^"]+)"/g)) {
    if (match[1] === undefined) found.push(match[2] as string);
  }
  for (const match of text.matchAll(
    /(?:^|\n)\s*import\s+"(\.{1,2}\/[^"]+)"|\bimport\s*\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g,
  )) {
    found.push((match[1] ?? match[2]) as string);
  }
  return found;
}

/**
 * True when `file` lies in a private workspace package (packages/internal): never installed, its source bundled into
 * the packages that use it, so every run, installed or not, uses that source.
 */
function inPrivatePackage(file: string): boolean {
  const match = /^(.*[\\/]packages[\\/][^\\/]+)[\\/]/.exec(file);
  if (match === null) return false;
  const manifest = join(match[1] as string, "package.json");
  return existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { private?: boolean }).private === true;
}

/** The marker a test file carries, as a line of its own with the reason after it, when it tests nothing installed. */
export const SOURCE_ONLY_MARKER = "// @source-only:";

/**
 * The test files among `files` (absolute) that import, directly or through test helpers they import, a module in a
 * `src/` folder (tests of a package's internals, which an installed run cannot load from an install), or that carry
 * {@link SOURCE_ONLY_MARKER} (what they run is not shipped, such as the demo).
 */
export function sourceOnlyFiles(files: readonly string[]): Set<string> {
  const verdicts = new Map<string, boolean>();
  const reachesSource = (file: string, seen: Set<string>): boolean => {
    const known = verdicts.get(file);
    if (known !== undefined) return known;
    if (seen.has(file) || !existsSync(file)) return false;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    let verdict = text.split("\n").some((line) => line.startsWith(SOURCE_ONLY_MARKER));
    for (const specifier of verdict ? [] : relativeImports(text)) {
      const target = resolve(dirname(file), specifier.replace(/\.js$/, ".ts"));
      if (/[\\/]src[\\/]/.test(target) && !inPrivatePackage(target)) {
        verdict = true;
        break;
      }
      if (target.endsWith(".ts") && reachesSource(target, seen)) {
        verdict = true;
        break;
      }
    }
    verdicts.set(file, verdict);
    return verdict;
  };
  return new Set(files.filter((file) => reachesSource(file, new Set())));
}

/**
 * The test files (`*.test.ts`, absolute) of package folder `dir`: those under test/<folder> when a folder is named
 * ("redis", "reliability"), else those under test/ outside those two and test/browser/ (`pnpm test:browser`).
 */
export function testFilesOf(dir: string, folder?: "redis" | "reliability"): string[] {
  const root = join(dir, "test", folder ?? "");
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter(
      (file) => file.endsWith(".test.ts") && (folder !== undefined || !/^(reliability|redis|browser)[\\/]/.test(file)),
    )
    .map((file) => join(root, file));
}

/**
 * What an installed run leaves out of `files`, as globs relative to the config's `root`: the source-only ones (an
 * empty list in a source run).
 */
export function installedExclusions(root: string, files: readonly string[]): string[] {
  if (installedProject() === undefined) return [];
  return [...sourceOnlyFiles(files)].map((file) => relative(root, file));
}

/** Package folders of the workspace (`<root>/packages/*` with a package.json), sorted. */
export function packageDirs(root: string): string[] {
  const packages = join(root, "packages");
  return readdirSync(packages, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(packages, entry.name, "package.json")))
    .map((entry) => join(packages, entry.name))
    .sort();
}
