// `pnpm lint`'s own part: the house rules of docs/contributing.md that no standard tool checks (ESLint takes `any`,
// promises, type imports, node: imports, cycles, `export *` and default exports; Prettier the layout). Type errors are
// `pnpm typecheck`'s; packaging is `pnpm pack:check`'s. Prints every finding and exits 1 when there is one.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import {
  linkFindings,
  packageMentionFindings,
  pathMentionFindings,
  readmePerformanceFindings,
  unquotedTildeFindings,
} from "./lib/lint-docs.js";
import {
  duplicateErrorCodeFindings,
  foreignInstanceofFindings,
  type LineFinding,
  type SourceText,
} from "./lib/lint-errors.js";
import { parse as parseYaml } from "yaml";
import {
  bundledPackageFindings,
  catalogDependencyFindings,
  catalogFindings,
  privatePackageFindings,
  publishedMetadataFindings,
  repositoryHome,
  workspaceCatalogs,
} from "./lib/lint-manifests.js";
import { packageMapFindings } from "./lib/lint-architecture.js";
import { LEAVES, workspacePackages } from "./lib/package-map.js";
import { testImportFindings } from "./lib/lint-tests.js";
import { actionlintFindings, matrixFindings, nodeMajors } from "./lib/lint-workflows.js";

const root = join(import.meta.dirname, "..");
const packagesDir = join(root, "packages");
const findings: string[] = [];
const finding = (file: string, message: string): void => {
  findings.push(`${relative(root, file)}: ${message}`);
};
const lineFinding = ({ file, line, message }: LineFinding): void => {
  findings.push(`${file}:${line}: ${message}`);
};

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (entry === "node_modules" || entry === "dist") return [];
    return statSync(path).isDirectory() ? walk(path) : path.endsWith(".ts") ? [path] : [];
  });
}

const rootManifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown>;
const home = repositoryHome(rootManifest);
const packageDirs = readdirSync(packagesDir)
  .filter((name) => existsSync(join(packagesDir, name, "package.json")))
  .sort();

// Third-party versions are stated once, as ranges, in pnpm-workspace.yaml's catalogs.
const workspaceFile = join(root, "pnpm-workspace.yaml");
const catalogs = workspaceCatalogs(parseYaml(readFileSync(workspaceFile, "utf8")) as Record<string, unknown>);
for (const message of catalogFindings(catalogs)) finding(workspaceFile, message);

/** Private packages (packages/internal): source only, bundled into each package that uses them, never published. */
const privatePackages = new Set(
  workspacePackages(root)
    .filter((pkg) => pkg.private)
    .map((pkg) => pkg.name),
);
/** Every package's source files, for the rules that look across packages (one code per error class). */
const sources: SourceText[] = [];

const importPattern = /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

for (const name of packageDirs) {
  const dir = join(packagesDir, name);
  const manifestPath = join(dir, "package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, unknown>;
  const isPrivate = manifest["private"] === true;
  if (!isPrivate) {
    for (const message of publishedMetadataFindings(manifest, name, rootManifest)) finding(manifestPath, message);
  } else {
    for (const message of privatePackageFindings(manifest, existsSync(join(dir, "tsup.config.ts"))))
      finding(manifestPath, message);
  }
  for (const message of bundledPackageFindings(manifest, privatePackages)) finding(manifestPath, message);
  for (const message of catalogDependencyFindings(manifest, catalogs)) finding(manifestPath, message);
  const deps = Object.keys((manifest["dependencies"] as Record<string, string> | undefined) ?? {});
  // An optional peer is declared too: a source file may import it (dynamically, falling back when it is absent).
  const peers = Object.keys((manifest["peerDependencies"] as Record<string, string> | undefined) ?? {});
  const devDeps = Object.keys((manifest["devDependencies"] as Record<string, string> | undefined) ?? {});

  if (!existsSync(join(dir, "README.md"))) finding(dir, "has no README.md");
  if (manifest["sideEffects"] !== false) finding(manifestPath, 'must declare "sideEffects": false');
  if (!isPrivate && JSON.stringify(manifest["files"]) !== '["dist"]')
    finding(manifestPath, 'must publish "files": ["dist"] only');
  // Every entry a package exports ("." and a subpath such as "./testing"; "./package.json" is a file, not an entry)
  // resolves to source in the workspace and to its built .d.ts first where it is published.
  const exported = (manifest["exports"] as Record<string, Record<string, string> | string> | undefined) ?? {};
  const publishedExports = (
    manifest["publishConfig"] as { exports?: Record<string, Record<string, string> | string> } | undefined
  )?.exports;
  const entries = ["."].concat(Object.keys(exported).filter((key) => key !== "." && key !== "./package.json"));
  for (const entry of entries) {
    const conditions = Object.keys(exported[entry] ?? {});
    if (conditions[0] !== "@orphus/source" || conditions[1] !== "types") {
      finding(manifestPath, `exports["${entry}"] must list "@orphus/source" then "types" first`);
    }
    const published = publishedExports?.[entry];
    if (
      !isPrivate &&
      (typeof published !== "object" || Object.keys(published)[0] !== "types" || "@orphus/source" in published)
    ) {
      finding(manifestPath, `publishConfig.exports["${entry}"] must start with "types" and drop the source condition`);
    }
  }
  // A private package is bundled (a devDependency), so a leaf that uses it still depends on no package of ours.
  if (LEAVES.has(name) && deps.some((d) => d.startsWith("@orphus/"))) {
    finding(manifestPath, "is a leaf and must not depend on another @orphus package");
  }

  const index = join(dir, "src", "index.ts");
  if (!existsSync(index)) finding(dir, "has no src/index.ts");
  else if (!readFileSync(index, "utf8").trimStart().startsWith("/**")) finding(index, "must open with a package doc");

  for (const file of [...walk(join(dir, "src")), ...walk(join(dir, "test")), ...walk(join(dir, "bench"))]) {
    const text = readFileSync(file, "utf8");
    const isSource = file.startsWith(join(dir, "src"));
    for (const found of testImportFindings({ file: relative(root, file).split("\\").join("/"), text }))
      lineFinding(found);
    if (isSource) {
      const source = { file: relative(root, file), text };
      sources.push(source);
      for (const found of foreignInstanceofFindings(source)) lineFinding(found);
    }
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2] ?? "";
      // A test reaches its package's public API by name: `pnpm test:installed` then resolves it to the installed
      // package (test-support/vitest-target.ts), where a path into src/ would test the sources again.
      if (!isSource && /^(\.\.\/)+src\/index\.js$/.test(specifier)) {
        finding(file, `imports "${specifier}"; import "@orphus/${name}" so that an installed run tests what ships`);
      }
      if (isSource && specifier.startsWith("@orphus/")) {
        const target = specifier.split("/").slice(0, 2).join("/");
        if (privatePackages.has(target)) {
          if (target !== `@orphus/${name}` && !devDeps.includes(target)) {
            finding(
              file,
              `imports ${target}, which package.json does not list in devDependencies (it is bundled at build time)`,
            );
          }
        } else if (target !== `@orphus/${name}` && !deps.includes(target) && !peers.includes(target)) {
          finding(file, `imports ${target}, which package.json does not declare`);
        }
      }
    }
  }

  for (const file of walk(join(dir, "bench")).filter((f) => f.endsWith(".bench.ts"))) {
    if (!readFileSync(file, "utf8").includes("bench-support/harness.js")) {
      finding(file, "must measure with the block harness (bench-support/harness.ts), subject and floor alternating");
    }
  }

  const errors = join(dir, "src", "errors.ts");
  if (existsSync(errors)) {
    const text = readFileSync(errors, "utf8");
    for (const match of text.matchAll(/export\s+class\s+(\w+)\s+extends\s+\w+/g)) {
      const body = text.slice(match.index, text.indexOf("\n}", match.index));
      const isAbstract = /abstract\s+class/.test(text.slice(Math.max(0, match.index - 10), match.index + 20));
      if (!isAbstract && !/code\s*=\s*"ERR_[A-Z0-9_]+"/.test(body))
        finding(errors, `${match[1]} has no stable ERR_ code`);
      if (!isAbstract && !/name\s*=\s*"/.test(body)) finding(errors, `${match[1]} sets no name`);
      const docStart = text.lastIndexOf("*/", match.index);
      if (docStart === -1 || text.slice(docStart, match.index).trim() !== "*/") {
        finding(errors, `${match[1]} has no doc comment stating when it is thrown`);
      }
    }
  }
}

// test-support/ is the one home of what the tests of several packages share; it reaches packages by name.
for (const file of walk(join(root, "test-support"))) {
  for (const found of testImportFindings({
    file: relative(root, file).split("\\").join("/"),
    text: readFileSync(file, "utf8"),
  })) {
    lineFinding(found);
  }
}

// Two error classes with one code would pass for each other wherever errors are classified by code.
for (const found of duplicateErrorCodeFindings(sources)) lineFinding(found);

// --- Markdown: links, paths and packages named, shell lines that store `~` -----------------------------------------
const folders = new Set<string>();
/** Every file and folder of the repository, repository-relative, without dependencies, build output or git. */
function repositoryPaths(dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if ([".git", "node_modules", "dist", ".tmp", "coverage"].includes(entry.name)) return [];
    const path = join(dir, entry.name);
    const rel = relative(root, path).split("\\").join("/");
    if (!entry.isDirectory()) return [rel];
    folders.add(rel);
    return [rel, ...repositoryPaths(path)];
  });
}
const paths = repositoryPaths();
const pathSet = new Set(paths);
/** A path ending in "/" asks for a folder. */
const exists = (path: string): boolean => (path.endsWith("/") ? folders.has(path.slice(0, -1)) : pathSet.has(path));
const packageNames = new Set(
  packageDirs.map((dir) =>
    (JSON.parse(readFileSync(join(packagesDir, dir, "package.json"), "utf8")) as { name: string }).name.replace(
      "@orphus/",
      "",
    ),
  ),
);
const readmes = new Set(packageDirs.map((dir) => `packages/${dir}/README.md`));
const markdown = paths.filter((p) => p.endsWith(".md") && !p.endsWith("CHANGELOG.md"));
for (const doc of markdown) {
  const text = readFileSync(join(root, doc), "utf8");
  const file = join(root, doc);
  const published = readmes.has(doc);
  for (const message of linkFindings(text, doc, home, exists, published)) finding(file, message);
  for (const message of packageMentionFindings(text, packageNames)) finding(file, message);
  for (const message of unquotedTildeFindings(text)) finding(file, message);
  if (published) {
    const benchDir = join(root, doc, "..", "bench");
    const hasBenchmarks = existsSync(benchDir) && readdirSync(benchDir).some((file) => file.endsWith(".bench.ts"));
    for (const message of readmePerformanceFindings(text, hasBenchmarks)) finding(file, message);
  }
  // The repository's own pages name repository paths; package READMEs also name a user's files (`.mcp.json`).
  if (!doc.startsWith(".changeset/") && !doc.startsWith("packages/")) {
    for (const message of pathMentionFindings(text, paths)) finding(file, message);
  }
}

// ARCHITECTURE.md's package map names, for each package, exactly the packages of ours its manifest depends on.
const declaredImports = new Map(
  packageDirs.map((dir) => {
    const manifest = JSON.parse(readFileSync(join(packagesDir, dir, "package.json"), "utf8")) as Record<
      string,
      unknown
    >;
    const deps = Object.keys({
      ...((manifest["dependencies"] as Record<string, string> | undefined) ?? {}),
      ...((manifest["peerDependencies"] as Record<string, string> | undefined) ?? {}),
    });
    return [dir, new Set(deps.filter((dep) => dep.startsWith("@orphus/")).map((dep) => dep.slice("@orphus/".length)))];
  }),
);
const architecture = join(root, "ARCHITECTURE.md");
for (const message of packageMapFindings(readFileSync(architecture, "utf8"), declaredImports))
  finding(architecture, message);

// --- GitHub Actions workflows -----------------------------------------------------------------------------------
const workflowsDir = join(root, ".github", "workflows");
const workflows = existsSync(workflowsDir)
  ? readdirSync(workflowsDir)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()
  : [];
for (const required of ["ci.yml", "release.yml"]) {
  if (!workflows.includes(required)) finding(join(workflowsDir, required), "is missing");
}
for (const workflow of workflows) {
  const file = join(workflowsDir, workflow);
  const text = readFileSync(file, "utf8");
  for (const message of await actionlintFindings(text, relative(root, file))) finding(file, message);
  if (workflow === "ci.yml") {
    const engines = (rootManifest["engines"] as { node: string }).node;
    for (const message of matrixFindings(text, nodeMajors(engines))) finding(file, message);
  }
}

for (const line of findings) process.stdout.write(`${line}\n`);
process.stdout.write(findings.length === 0 ? "lint: clean\n" : `lint: ${findings.length} finding(s)\n`);
if (findings.length > 0) process.exitCode = 1;
