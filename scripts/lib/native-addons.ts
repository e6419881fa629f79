// Native addons (a package with a binding.gyp, such as better-sqlite3 under @orphus/memory) in the projects that
// pack:check and the release rehearsal install tarballs into. Those installs run with scripts off, like the rest, and
// each addon is then given a build: the workspace's own build of the same version when there is one (the workspace
// install compiled it from source, the path a machine without prebuilt binaries takes, for the Node that runs these
// scripts), else `npm rebuild` in the first project that needs it. One build per addon version per run, so a check
// that installs the addon in several projects compiles it at most once.
import { cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runAsync } from "./run.js";

/** One installed package that builds a native addon. */
export interface NativeAddon {
  /** Its folder, e.g. <project>/node_modules/better-sqlite3. */
  readonly dir: string;
  readonly name: string;
  readonly version: string;
}

/** The packages directly under `nodeModules` (scoped ones included) that build a native addon. */
export function nativeAddons(nodeModules: string): NativeAddon[] {
  if (!existsSync(nodeModules)) return [];
  return readdirSync(nodeModules)
    .filter((name) => !name.startsWith("."))
    .flatMap((name) =>
      name.startsWith("@")
        ? readdirSync(join(nodeModules, name)).map((inner) => join(nodeModules, name, inner))
        : [join(nodeModules, name)],
    )
    .filter((dir) => existsSync(join(dir, "binding.gyp")) && existsSync(join(dir, "package.json")))
    .map((dir) => ({
      dir,
      ...(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string; version: string }),
    }));
}

/** The workspace's own build of an addon version, from its install (pnpm keeps one copy per version), if it has one. */
export function workspaceBuild(root: string, addon: Pick<NativeAddon, "name" | "version">): string | undefined {
  const build = join(
    root,
    "node_modules",
    ".pnpm",
    `${addon.name.replace("/", "+")}@${addon.version}`,
    "node_modules",
    addon.name,
    "build",
  );
  return existsSync(join(build, "Release")) ? build : undefined;
}

/**
 * Returns a function that gives every native addon installed in a project a build (see the top of this file) and
 * names them, e.g. ["better-sqlite3@12.11.1"]. Concurrent projects needing the same version wait for one build.
 */
export function addonBuilder(root: string): (project: string) => Promise<string[]> {
  const builds = new Map<string, Promise<string>>();
  const buildOf = (addon: NativeAddon, project: string): Promise<string> => {
    const key = `${addon.name}@${addon.version}`;
    let build = builds.get(key);
    if (build === undefined) {
      const fromWorkspace = workspaceBuild(root, addon);
      build =
        fromWorkspace !== undefined
          ? Promise.resolve(fromWorkspace)
          : runAsync("npm", ["rebuild", addon.name, "--loglevel=error"], project).then(() => {
              if (!existsSync(join(addon.dir, "build")))
                throw new Error(`npm rebuild ${key} built nothing in ${project}`);
              return join(addon.dir, "build");
            });
      builds.set(key, build);
    }
    return build;
  };
  return async (project) => {
    const addons = nativeAddons(join(project, "node_modules"));
    for (const addon of addons) {
      const from = await buildOf(addon, project);
      // A copy, never a link: the workspace's files are hard links into the pnpm store, shared by every checkout.
      if (from !== join(addon.dir, "build")) cpSync(from, join(addon.dir, "build"), { recursive: true });
    }
    return addons.map((addon) => `${addon.name}@${addon.version}`);
  };
}
