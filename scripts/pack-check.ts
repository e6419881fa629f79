// The packaging check a user of a single library would trust. For every publishable package:
//   1. pack it with pnpm (workspace: ranges rewritten, publishConfig applied) and run publint on the tarball;
//   2. install that tarball alone into a fresh project outside the workspace (internal dependencies come from their
//      own tarballs, everything else from the registry), with install scripts off, then build the native addons in
//      the tree (a package with a binding.gyp, such as better-sqlite3) with `npm rebuild`, as a user's install
//      would: the first consumer of an addon compiles it, later consumers of the same version in this run get that
//      build copied in, as a prebuilt binary would be;
//   3. import it there with plain Node (ESM) and check the export names are there;
//   4. type-check an import with tsc under NodeNext and strict settings;
//   5. run every bin it ships with --help;
//   6. run the package's test/pack-smoke.mjs there, when it has one: a use of the installed package that an import
//      does not cover (a native addon loading, a store opening).
// New packages are covered without editing this file. Packages must be built first (`pnpm build`).
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  bin?: Record<string, string>;
}

const root = join(import.meta.dirname, "..");
/** `pnpm pack:check framing rooms` checks only those; no argument checks every package. */
const only = process.argv.slice(2);
const packagesDir = join(root, "packages");
const work = mkdtempSync(join(tmpdir(), "orphus-pack-check-"));
const tarballs = join(work, "tarballs");
mkdirSync(tarballs);
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
const publint = join(root, "node_modules", "publint", "src", "cli.js");
const typesNodeVersion = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  devDependencies: Record<string, string>;
}).devDependencies["@types/node"];

function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}\n${failure.stdout ?? ""}\n${failure.stderr ?? ""}`, {
      cause: error,
    });
  }
}

const manifests = readdirSync(packagesDir)
  .filter((name) => existsSync(join(packagesDir, name, "package.json")))
  .sort()
  .map((dir) => ({ dir: join(packagesDir, dir), manifest: JSON.parse(readFileSync(join(packagesDir, dir, "package.json"), "utf8")) as Manifest }))
  .filter(({ manifest }) => manifest.private !== true)
  .filter(({ dir }) => only.length === 0 || only.some((name) => dir.endsWith(`/${name}`)));

const tarballOf = new Map<string, string>();
for (const { dir, manifest } of manifests) {
  if (!existsSync(join(dir, "dist", "index.js"))) throw new Error(`${manifest.name} is not built; run pnpm build first`);
  const before = new Set(readdirSync(tarballs));
  run("pnpm", ["pack", "--pack-destination", tarballs], dir);
  const created = readdirSync(tarballs).find((f) => !before.has(f));
  if (created === undefined) throw new Error(`pnpm pack produced no tarball for ${manifest.name}`);
  tarballOf.set(manifest.name, join(tarballs, created));
  run(process.execPath, [publint, "run", join(tarballs, created), "--strict"], work);
  process.stdout.write(`packed ${manifest.name}: ${created}, publint clean\n`);
}

/** The native addons installed under `nodeModules` (packages with a binding.gyp), scoped ones included. */
function nativeAddons(nodeModules: string): { dir: string; name: string; version: string }[] {
  if (!existsSync(nodeModules)) return [];
  const dirs = readdirSync(nodeModules)
    .filter((name) => !name.startsWith("."))
    .flatMap((name) => (name.startsWith("@") ? readdirSync(join(nodeModules, name)).map((inner) => join(nodeModules, name, inner)) : [join(nodeModules, name)]));
  return dirs
    .filter((dir) => existsSync(join(dir, "binding.gyp")) && existsSync(join(dir, "package.json")))
    .map((dir) => ({ dir, ...(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string; version: string }) }));
}

/** Where each addon version was built in this run, so it is compiled once. */
const builtAddons = new Map<string, string>();

const overrides = Object.fromEntries([...tarballOf].map(([name, file]) => [name, `file:${file}`]));
let checked = 0;
for (const { dir, manifest } of manifests) {
  const consumer = join(work, "consumers", manifest.name.replace("/", "__"));
  mkdirSync(consumer, { recursive: true });
  writeFileSync(
    join(consumer, "package.json"),
    JSON.stringify(
      {
        name: "consumer",
        private: true,
        type: "module",
        dependencies: { [manifest.name]: `file:${tarballOf.get(manifest.name)}` },
        devDependencies: { "@types/node": typesNodeVersion },
        overrides,
      },
      null,
      2,
    ),
  );
  run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], consumer);
  const addons = nativeAddons(join(consumer, "node_modules"));
  for (const addon of addons) {
    const key = `${addon.name}@${addon.version}`;
    const built = builtAddons.get(key);
    if (built !== undefined) cpSync(built, join(addon.dir, "build"), { recursive: true });
    else {
      run("npm", ["rebuild", addon.name, "--loglevel=error"], consumer);
      if (!existsSync(join(addon.dir, "build"))) throw new Error(`npm rebuild ${key} built nothing in ${consumer}`);
      builtAddons.set(key, join(addon.dir, "build"));
    }
  }

  writeFileSync(
    join(consumer, "import-check.mjs"),
    `import * as api from ${JSON.stringify(manifest.name)};\n` +
      `const names = Object.keys(api);\n` +
      `if (names.length === 0) throw new Error("no exports");\n` +
      `console.log(names.length + " exports");\n`,
  );
  const imported = run(process.execPath, ["import-check.mjs"], consumer).trim();

  writeFileSync(
    join(consumer, "type-check.ts"),
    `import * as api from ${JSON.stringify(manifest.name)};\nexport const names: string[] = Object.keys(api);\n`,
  );
  writeFileSync(
    join(consumer, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        module: "NodeNext",
        moduleResolution: "NodeNext",
        target: "ES2022",
        strict: true,
        noEmit: true,
        verbatimModuleSyntax: true,
        types: ["node"],
      },
      files: ["type-check.ts"],
    }),
  );
  run(process.execPath, [tsc, "-p", "tsconfig.json"], consumer);

  const installedManifest = join(consumer, "node_modules", ...manifest.name.split("/"));
  const bins = Object.entries(manifest.bin ?? {});
  for (const [bin, path] of bins) {
    run(process.execPath, [join(installedManifest, path), "--help"], consumer);
  }
  const smoke = join(dir, "test", "pack-smoke.mjs");
  if (existsSync(smoke)) {
    copyFileSync(smoke, join(consumer, "pack-smoke.mjs"));
    run(process.execPath, ["pack-smoke.mjs"], consumer);
  }
  checked++;
  process.stdout.write(
    `consumer of ${manifest.name}: installed alone, ESM import ok (${imported}), tsc ok` +
      (addons.length > 0 ? `, native addons built (${addons.map((a) => `${a.name}@${a.version}`).join(", ")})` : "") +
      (bins.length > 0 ? `, bins ok (${bins.map(([b]) => b).join(", ")})` : "") +
      (existsSync(smoke) ? ", pack-smoke.mjs ok" : "") +
      "\n",
  );
}
rmSync(work, { recursive: true, force: true });
process.stdout.write(`pack check: ${checked} packages passed\n`);
