// pnpm's hooks for this workspace. `beforePacking` edits the manifest that `pnpm pack` and `pnpm publish` (which
// `changeset publish` runs) put in a tarball, never the package.json on disk.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const packagesDir = fileURLToPath(new URL("packages", import.meta.url));

/** The workspace's private packages (packages/internal): each user bundles their source, and no registry holds them. */
function privatePackages() {
  return new Set(
    readdirSync(packagesDir)
      .map((dir) => join(packagesDir, dir, "package.json"))
      .filter((path) => existsSync(path))
      .map((path) => JSON.parse(readFileSync(path, "utf8")))
      .filter((manifest) => manifest.private === true)
      .map((manifest) => manifest.name),
  );
}

export const hooks = {
  /** Drops the private packages from a packed manifest's devDependencies, where they would name what nobody can install. */
  beforePacking(manifest) {
    const dev = manifest.devDependencies;
    if (dev === undefined) return manifest;
    for (const name of privatePackages()) delete dev[name];
    if (Object.keys(dev).length === 0) delete manifest.devDependencies;
    return manifest;
  },
};
