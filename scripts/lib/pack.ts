// Packing the workspace's publishable packages as a release would, and installing them as a user would, for the
// scripts that test what ships (pack:check, test:installed): one tarball per package with `pnpm pack` (workspace:
// and catalog: ranges rewritten, publishConfig applied), each proven clean from the manifest inside it, by publint
// and by Are the Types Wrong, then all of them installed by npm into one project.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { publishedFileFindings, publishedManifestFindings } from "./lint-manifests.js";
import { addonBuilder } from "./native-addons.js";
import { workspacePackages } from "./package-map.js";
import { run, runAsync } from "./run.js";

/** The parts of a package manifest these scripts read. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly bin?: Record<string, string>;
  /** Its entries: "." and any subpath ("./testing"), and "./package.json". */
  readonly exports?: Record<string, unknown>;
}

/** A publishable workspace package and its tarball. */
export interface PackedPackage {
  /** Its folder in the workspace. */
  readonly dir: string;
  readonly manifest: Manifest;
  /** Absolute path of its tarball. */
  readonly tarball: string;
}

/** The subpaths a package exports besides its main entry ("./testing"); "./package.json" is a file, not an entry. */
export function exportedSubpaths(manifest: Pick<Manifest, "exports">): string[] {
  return Object.keys(manifest.exports ?? {}).filter((key) => key !== "." && key !== "./package.json");
}

/** The workspace's publishable packages (not private), sorted by folder; `only` keeps those whose folder it names. */
export function publishablePackages(root: string, only: readonly string[] = []): { dir: string; manifest: Manifest }[] {
  const packagesDir = join(root, "packages");
  return readdirSync(packagesDir)
    .filter((name) => existsSync(join(packagesDir, name, "package.json")))
    .sort()
    .map((name) => ({
      dir: join(packagesDir, name),
      manifest: JSON.parse(readFileSync(join(packagesDir, name, "package.json"), "utf8")) as Manifest,
    }))
    .filter(({ manifest }) => manifest.private !== true)
    .filter(({ dir }) => only.length === 0 || only.some((name) => dir.endsWith(`/${name}`)));
}

/**
 * The rules of Are the Types Wrong (`attw`) the packages do not meet by design, each with its reason
 * (docs/releasing.md, "Types for every resolution"). The packages are ES modules only: from CommonJS, Node (20.19 and
 * later, the oldest line "engines" allows) loads them with `require()`, and TypeScript from 5.8 under
 * `module: "nodenext"` types that call, but attw's bundled TypeScript reports every such resolution as
 * "cjs-resolves-to-esm". Every other rule holds under each resolution attw models (node10, node16 from CJS and from
 * ESM, bundler).
 */
export const ATTW_IGNORED_RULES: readonly string[] = ["cjs-resolves-to-esm"];

/**
 * The attw profile a subpath export (`@orphus/orkeon-crew/testing`) is checked under: "node16", which leaves out the
 * `node10` resolution alone (docs/releasing.md, "Types for every resolution"). node10 predates `exports` and cannot
 * see a subpath at all, so it reports every one as unresolved; Node itself, and TypeScript under node16, nodenext or
 * bundler, resolve it through `exports`. A package's main entry is still checked under every resolution.
 */
export const ATTW_SUBPATH_PROFILE = "node16";

/**
 * The attw runs for a tarball of a package exporting `subpaths`: its main entry under every resolution, then, when it
 * has any, its subpaths under {@link ATTW_SUBPATH_PROFILE}; each ignoring {@link ATTW_IGNORED_RULES}.
 */
export function attwRuns(subpaths: readonly string[]): string[][] {
  const ignored = ATTW_IGNORED_RULES.length > 0 ? ["--ignore-rules", ...ATTW_IGNORED_RULES] : [];
  if (subpaths.length === 0) return [ignored];
  return [
    [...ignored, "--exclude-entrypoints", ...subpaths],
    [...ignored, "--entrypoints", ...subpaths, "--profile", ATTW_SUBPATH_PROFILE],
  ];
}

/**
 * Packs each of `packages` into `tarballs` (created if missing): `pnpm pack`, then the packed manifest checked for a
 * leftover workspace: or catalog: range, an exact version or a source condition and the tarball for a private package
 * named or imported (its code must be bundled in), then publint and attw on the tarball ({@link attwRuns}). Packages
 * must be built.
 * `say` hears one line a package.
 */
export function packPackages(
  root: string,
  packages: readonly { dir: string; manifest: Manifest }[],
  tarballs: string,
  say: (line: string) => void,
): PackedPackage[] {
  mkdirSync(tarballs, { recursive: true });
  const publint = join(root, "node_modules", "publint", "src", "cli.js");
  const attw = join(root, "node_modules", "@arethetypeswrong", "cli", "dist", "index.js");
  const privatePackages = new Set(
    workspacePackages(root)
      .filter((pkg) => pkg.private)
      .map((pkg) => pkg.name),
  );
  return packages.map(({ dir, manifest }) => {
    if (!existsSync(join(dir, "dist", "index.js")))
      throw new Error(`${manifest.name} is not built; run pnpm build first`);
    const before = new Set(readdirSync(tarballs));
    run("pnpm", ["pack", "--pack-destination", tarballs], dir);
    const created = readdirSync(tarballs).find((file) => !before.has(file));
    if (created === undefined) throw new Error(`pnpm pack produced no tarball for ${manifest.name}`);
    const unpacked = mkdtempSync(join(tmpdir(), "orphus-unpacked-"));
    try {
      run("tar", ["-xzf", join(tarballs, created), "-C", unpacked], tarballs);
      const packed = JSON.parse(readFileSync(join(unpacked, "package", "package.json"), "utf8")) as Record<
        string,
        unknown
      >;
      const files = filesUnder(join(unpacked, "package")).map((path) => ({
        path: path.slice(unpacked.length + 1),
        text: readFileSync(path, "utf8"),
      }));
      const leftovers = [
        ...publishedManifestFindings(packed, privatePackages),
        ...publishedFileFindings(files, privatePackages),
      ];
      if (leftovers.length > 0) throw new Error(`${manifest.name}'s packed tarball:\n  ${leftovers.join("\n  ")}`);
    } finally {
      rmSync(unpacked, { recursive: true, force: true });
    }
    run(process.execPath, [publint, "run", join(tarballs, created), "--strict"], tarballs);
    const subpaths = exportedSubpaths(manifest);
    for (const flags of attwRuns(subpaths)) {
      run(
        process.execPath,
        [attw, join(tarballs, created), ...flags, "--format", "ascii", "--no-color", "--no-emoji"],
        tarballs,
      );
    }
    const subpathsNote =
      subpaths.length > 0 ? `; ${subpaths.join(", ")} under the ${ATTW_SUBPATH_PROFILE} profile` : "";
    say(
      `packed ${manifest.name}: ${created}, no workspace: or catalog: ranges or exact versions, no private package named ` +
        `or imported, publint clean, attw clean (ignoring ${ATTW_IGNORED_RULES.join(", ")}${subpathsNote})`,
    );
    return { dir, manifest, tarball: join(tarballs, created) };
  });
}

/** npm `overrides` that make every packed package come from its tarball wherever it is depended on. */
function tarballOverrides(packed: readonly PackedPackage[]): Record<string, string> {
  return Object.fromEntries(packed.map(({ manifest, tarball }) => [manifest.name, `file:${tarball}`]));
}

/**
 * Installs every tarball of `packed` with npm into `project` (created if missing), as one user's project would hold
 * them: each package from its tarball wherever it is depended on, everything else from the registry, install
 * scripts off and native addons given the workspace's own build. Returns the addons built ("better-sqlite3@12.11.1").
 */
export async function installPacked(
  root: string,
  packed: readonly PackedPackage[],
  project: string,
): Promise<string[]> {
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify(
      {
        name: "installed-packages",
        private: true,
        type: "module",
        dependencies: Object.fromEntries(packed.map(({ manifest, tarball }) => [manifest.name, `file:${tarball}`])),
        overrides: tarballOverrides(packed),
      },
      null,
      2,
    ),
  );
  await runAsync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], project);
  return addonBuilder(root)(project);
}

/** True when `project` holds an install made by {@link installPacked} (its package.json and installed packages). */
export function holdsInstall(project: string): boolean {
  return existsSync(join(project, "package.json")) && existsSync(join(project, "node_modules", "@orphus"));
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}
