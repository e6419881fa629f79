// The packaging check a user of a single library would trust. For every publishable package (a private one, such as
// packages/internal, is bundled into the others and never packed):
//   1. pack it with pnpm (workspace: ranges rewritten, publishConfig applied), prove from the manifest inside the
//      tarball that no workspace: range or source condition is left (`npm pack` would leave them) and that no
//      private package is named, prove that no built file imports a private package (its code is bundled in), and
//      run publint;
//   2. install that tarball alone into a fresh project outside the workspace (internal dependencies come from their
//      own tarballs, everything else from the registry);
//   3. import it there with plain Node (ESM) and check the export names are there;
//   4. type-check an import with tsc under NodeNext and strict settings;
//   5. run every bin it ships with --help;
//   6. run the package's test/pack-smoke.mjs there, when it has one: a use of the installed package that an import
//      does not cover (a native addon loading, a store opening).
// Native addons (a package with a binding.gyp, such as better-sqlite3) are installed with scripts off like the rest,
// then given the workspace's own build (scripts/lib/native-addons.ts).
// New packages are covered without editing this file. Packages must be built first (`pnpm build`).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { publishedFileFindings, publishedManifestFindings } from "./lib/lint-manifests.js";
import { addonBuilder } from "./lib/native-addons.js";
import { workspacePackages } from "./lib/package-map.js";
import { mapLimit, run, runAsync } from "./lib/run.js";

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

const privatePackages = new Set(workspacePackages(root).filter((pkg) => pkg.private).map((pkg) => pkg.name));
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
  const unpacked = join(work, "unpacked", created);
  mkdirSync(unpacked, { recursive: true });
  run("tar", ["-xzf", join(tarballs, created), "-C", unpacked], work);
  const packed = JSON.parse(readFileSync(join(unpacked, "package", "package.json"), "utf8")) as Record<string, unknown>;
  const files = filesUnder(join(unpacked, "package")).map((path) => ({
    path: path.slice(unpacked.length + 1),
    text: readFileSync(path, "utf8"),
  }));
  const leftovers = [...publishedManifestFindings(packed, privatePackages), ...publishedFileFindings(files, privatePackages)];
  if (leftovers.length > 0) throw new Error(`${manifest.name}'s packed tarball:\n  ${leftovers.join("\n  ")}`);
  run(process.execPath, [publint, "run", join(tarballs, created), "--strict"], work);
  process.stdout.write(
    `packed ${manifest.name}: ${created}, no workspace: ranges, no private package named or imported, publint clean\n`,
  );
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

const overrides = Object.fromEntries([...tarballOf].map(([name, file]) => [name, `file:${file}`]));
const buildAddons = addonBuilder(root);

/** Consumers checked at once: their npm installs wait on the network, the rest is short. */
const CONCURRENT_CONSUMERS = 3;
const reports = await mapLimit(manifests, CONCURRENT_CONSUMERS, async ({ dir, manifest }) => {
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
  await runAsync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], consumer);
  const addons = await buildAddons(consumer);

  writeFileSync(
    join(consumer, "import-check.mjs"),
    `import * as api from ${JSON.stringify(manifest.name)};\n` +
      `const names = Object.keys(api);\n` +
      `if (names.length === 0) throw new Error("no exports");\n` +
      `console.log(names.length + " exports");\n`,
  );
  const imported = (await runAsync(process.execPath, ["import-check.mjs"], consumer)).trim();

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
  await runAsync(process.execPath, [tsc, "-p", "tsconfig.json"], consumer);

  const installedManifest = join(consumer, "node_modules", ...manifest.name.split("/"));
  const bins = Object.entries(manifest.bin ?? {});
  for (const [, path] of bins) {
    await runAsync(process.execPath, [join(installedManifest, path), "--help"], consumer);
  }
  const smoke = join(dir, "test", "pack-smoke.mjs");
  if (existsSync(smoke)) {
    copyFileSync(smoke, join(consumer, "pack-smoke.mjs"));
    await runAsync(process.execPath, ["pack-smoke.mjs"], consumer);
  }
  return (
    `consumer of ${manifest.name}: installed alone, ESM import ok (${imported}), tsc ok` +
    (addons.length > 0 ? `, native addons built (${addons.join(", ")})` : "") +
    (bins.length > 0 ? `, bins ok (${bins.map(([b]) => b).join(", ")})` : "") +
    (existsSync(smoke) ? ", pack-smoke.mjs ok" : "")
  );
});
for (const report of reports) process.stdout.write(`${report}\n`);
rmSync(work, { recursive: true, force: true });
process.stdout.write(`pack check: ${reports.length} packages passed\n`);
