// The packaging check a user of the libraries would trust. `pnpm pack:check [--project DIR] [package ...]`:
//   1. pack every publishable package with pnpm (workspace: ranges rewritten, publishConfig applied; a private one,
//      such as packages/internal, is bundled into the others and never packed), prove from the manifest inside each
//      tarball that no workspace: range or source condition is left (`npm pack` would leave them) and that no private
//      package is named, prove that no built file imports a private package, and run publint;
//   2. install all the tarballs with npm into one fresh project outside the workspace (each internal dependency from
//      its own tarball, everything else from the registry; native addons get the workspace's own build,
//      scripts/lib/native-addons.ts);
//   3. in that project, for each package: import it, and each subpath it exports (`/testing`), with plain Node (ESM)
//      and require() each from CommonJS (Node 20.19 and later load ES modules so, which is why attw's
//      cjs-resolves-to-esm rule is ignored: docs/releasing.md) and check their exports are there, type-check an import
//      of each from an ES module and a require() of each from a CommonJS one with tsc under NodeNext and strict
//      settings, run every bin it ships with --help, and run its test/pack-smoke.mjs when it has one (a use an import
//      does not cover: a native addon loading, a store opening).
// The same project then serves `pnpm test:installed --project DIR`, which runs the suites against it (CI packs and
// installs once). Each package installed alone, from a registry, with only its own dependencies, is the release
// rehearsal's check (`pnpm release:rehearse`), so it is not repeated here. New packages are covered without editing
// this file. Packages must be built first (`pnpm build`); the project is removed afterwards unless --project names it.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportedSubpaths, installPacked, packPackages, publishablePackages, type Manifest } from "./lib/pack.js";
import { mapLimit, runAsync } from "./lib/run.js";

const root = join(import.meta.dirname, "..");
const say = (line: string): void => void process.stdout.write(`${line}\n`);

const argv = process.argv.slice(2);
const projectAt = argv.indexOf("--project");
const named = projectAt === -1 ? undefined : argv[projectAt + 1];
if (projectAt !== -1 && (named === undefined || named.startsWith("--"))) {
  process.stderr.write("pack:check: --project needs a folder\n");
  process.exit(2);
}
const only = argv.filter((_, index) => projectAt === -1 || (index !== projectAt && index !== projectAt + 1));
const project = named ?? mkdtempSync(join(tmpdir(), "orphus-pack-check-"));
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
const typesNodeVersion = (
  JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  }
).devDependencies["@types/node"];

try {
  const packed = packPackages(root, publishablePackages(root, only), join(project, "tarballs"), say);
  const addons = await installPacked(root, packed, project);
  say(
    `installed ${packed.length} packages from their tarballs into one project${addons.length > 0 ? `, native addons built (${addons.join(", ")})` : ""}`,
  );

  // One type-check of every package's import, from ESM and from CommonJS, in a folder of its own with @types/node.
  const types = join(project, "type-check");
  await runAsync(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--loglevel=error",
      "--prefix",
      types,
      `@types/node@${typesNodeVersion}`,
    ],
    project,
  );
  const typed = packed.flatMap(({ manifest }, index) =>
    entryNames(manifest).map((entry, subpath) => ({ entry, stem: `${index}-${subpath}` })),
  );
  const files = typed.flatMap(({ entry, stem }) => {
    const name = JSON.stringify(entry);
    writeFileSync(
      join(types, `import-${stem}.ts`),
      `import * as api from ${name};\nexport const names: string[] = Object.keys(api);\n`,
    );
    writeFileSync(
      join(types, `require-${stem}.cts`),
      `import api = require(${name});\nconst names: string[] = Object.keys(api);\nexport = names;\n`,
    );
    return [`import-${stem}.ts`, `require-${stem}.cts`];
  });
  writeFileSync(
    join(types, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        module: "NodeNext",
        moduleResolution: "NodeNext",
        target: "ES2022",
        strict: true,
        noEmit: true,
        verbatimModuleSyntax: true,
        types: ["node"],
        typeRoots: [join(types, "node_modules", "@types")],
      },
      files,
    }),
  );
  writeFileSync(join(types, "package.json"), JSON.stringify({ private: true, type: "module" }));
  await runAsync(process.execPath, [tsc, "-p", "tsconfig.json"], types);
  say(
    `tsc (NodeNext, strict) type-checks an import (ESM) and a require() (CommonJS) of each of the ${typed.length} entries of ${packed.length} packages`,
  );

  /** Checks run at once: each is a short Node process. */
  const CONCURRENT_CHECKS = 2;
  const reports = await mapLimit(packed, CONCURRENT_CHECKS, async ({ dir, manifest }) => {
    const stem = manifest.name.replace("/", "__");
    const entries = JSON.stringify(entryNames(manifest));
    const main = JSON.stringify(manifest.name);
    /**
     * Loads every entry of the package (its own name, then each subpath) from a file of its own, `loaded` being the
     * expression that gives the module of `entry`, and returns "<n> exports" for each, a subpath's naming it.
     */
    const load = async (file: string, loaded: string): Promise<string> => {
      writeFileSync(
        join(project, file),
        `const counts = [];\n` +
          `for (const entry of ${entries}) {\n` +
          `  const names = Object.keys(${loaded});\n` +
          `  if (names.length === 0) throw new Error(entry + " has no exports");\n` +
          `  const from = entry === ${main} ? "" : " from " + entry;\n` +
          `  counts.push(names.length + " exports" + from);\n` +
          `}\n` +
          `console.log(counts.join(", "));\n`,
      );
      return (await runAsync(process.execPath, [join(project, file)], project)).trim();
    };
    const imported = await load(`import-${stem}.mjs`, "await import(entry)");
    const required = await load(`require-${stem}.cjs`, "require(entry)");
    const installed = join(project, "node_modules", ...manifest.name.split("/"));
    const bins = Object.entries(manifest.bin ?? {});
    for (const [, path] of bins) await runAsync(process.execPath, [join(installed, path), "--help"], project);
    const smoke = join(dir, "test", "pack-smoke.mjs");
    if (existsSync(smoke)) {
      const copy = join(project, `pack-smoke-${stem}.mjs`);
      copyFileSync(smoke, copy);
      await runAsync(process.execPath, [copy], project);
    }
    return (
      `${manifest.name}: ESM import ok (${imported}), require() ok (${required})` +
      (bins.length > 0 ? `, bins ok (${bins.map(([bin]) => bin).join(", ")})` : "") +
      (existsSync(smoke) ? ", pack-smoke.mjs ok" : "")
    );
  });
  for (const report of reports) say(report);
  say(`pack check: ${reports.length} packages passed`);
} finally {
  if (named === undefined) rmSync(project, { recursive: true, force: true });
}

/** The names a user imports a package by: its own, then one per subpath it exports (`@orphus/orkeon-crew/testing`). */
function entryNames(manifest: Manifest): string[] {
  return [manifest.name, ...exportedSubpaths(manifest).map((key) => `${manifest.name}${key.slice(1)}`)];
}
