// `pnpm release:rehearse`: the release, rehearsed end to end against a throwaway registry, as a maintainer would
// release and a user would install. Nothing here touches the working copy or the npm registry:
//   1. copies the repository (tracked and untracked, not ignored) into a scratch folder, installs it there from the
//      pnpm store, and versions the packages with `changeset version`, as the release pull request would;
//   2. builds there (the version is inlined at build time, so the build comes after versioning);
//   3. starts Verdaccio (scripts/release-rehearsal/registry, pinned by its lockfile) on 127.0.0.1 and a free port;
//   4. publishes every package with `changeset publish`, the command the release workflow runs, and checks each
//      published manifest: the new version, no workspace: range, no private package of the workspace named (those are
//      bundled and never published), internal dependencies at the versions just published;
//   5. in fresh folders with nothing but npm, as a user would: installs each package alone from that registry
//      (@orphus/* from it, everything else from the public registry; install scripts off, and a native addon given
//      the workspace's build, as pack:check does, so better-sqlite3 is not compiled again), runs its import-and-call
//      script (scripts/release-rehearsal/calls/<package>.mjs; every leaf, the client and the CLI have one) or imports
//      it, and runs every bin: `npx <bin> --help`, `npx <bin> --version` (every bin has it, and it must print the
//      published version: `npx roundtable --version` among them), and `npx <package> --help` in an empty folder for a
//      package with one bin;
//   6. stops the registry and removes every folder it made (`--keep` leaves them, for a look after a failure).
// One difference from the real release: provenance needs GitHub's OIDC token, so the scratch manifests drop
// publishConfig.provenance before publishing here.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { publishedManifestFindings } from "./lib/lint-manifests.js";
import { addonBuilder } from "./lib/native-addons.js";
import { workspacePackages, type WorkspacePackage } from "./lib/package-map.js";
import { callScripts, offersVersionFlag, planBinChecks, type BinCheck } from "./lib/rehearsal.js";
import {
  addRegistryUser,
  ensureRegistryInstalled,
  startRegistry,
  type LocalRegistry,
} from "./lib/rehearsal-registry.js";
import { mapLimit, run, runAsync } from "./lib/run.js";
import { copyWorkingTree } from "./lib/working-tree.js";

const root = join(import.meta.dirname, "..");
const toolDir = join(root, "scripts", "release-rehearsal", "registry");
const callsDir = join(root, "scripts", "release-rehearsal", "calls");
const keep = process.argv.includes("--keep");
/** npm installs at once in the user-side checks: they wait on the network more than on the CPU. */
const CONCURRENT_INSTALLS = 3;
const unknown = process.argv.slice(2).filter((arg) => arg !== "--keep");
if (unknown.length > 0) {
  process.stderr.write(
    `release:rehearse: unknown argument ${JSON.stringify(unknown[0])}\nusage: pnpm release:rehearse [--keep]\n`,
  );
  process.exit(2);
}

const started = performance.now();
const seconds = (): string => `${((performance.now() - started) / 1000).toFixed(0)}s`;
const say = (line: string): void => void process.stdout.write(`${line}\n`);
const step = (title: string): void => say(`\n== ${title} (${seconds()})`);

const work = mkdtempSync(join(tmpdir(), "orphus-release-rehearsal-"));
const scratch = join(work, "repository");
let registry: LocalRegistry | undefined;
let checks = 0;
try {
  // --- 1. a scratch copy, versioned -------------------------------------------------------------------------------
  step("scratch copy: install from the pnpm store, version with changesets");
  const files = copyWorkingTree(root, scratch);
  say(`copied ${files.length} files`);
  run("pnpm", ["install", "--frozen-lockfile", "--prefer-offline"], scratch);
  const pending = files.filter((f) => /^\.changeset\/(?!README\.md$)[^/]+\.md$/.test(f)).length;
  run("pnpm", ["exec", "changeset", "version"], scratch);
  // A private package (packages/internal) is bundled into the others: changesets neither versions nor publishes it.
  const workspace = workspacePackages(scratch);
  const packages = workspace.filter((pkg) => !pkg.private);
  const privatePackages = new Set(workspace.filter((pkg) => pkg.private).map((pkg) => pkg.name));
  say(`applied ${pending} changesets: ${packages.map((pkg) => `${pkg.name}@${pkg.version}`).join(", ")}`);
  const unversioned = packages.filter((pkg) => pkg.version === "0.0.0");
  if (unversioned.length > 0) {
    throw new Error(
      `no changeset versions ${unversioned.map((pkg) => pkg.name).join(", ")}; nothing new would be published`,
    );
  }
  for (const pkg of packages) {
    const path = join(scratch, "packages", pkg.dir, "package.json");
    const manifest = JSON.parse(readFileSync(path, "utf8")) as { publishConfig?: Record<string, unknown> };
    delete manifest.publishConfig?.["provenance"];
    writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
  }

  // --- 2. build, while the registry's dependencies install (one waits on the CPU, the other on the network) -------
  step("build the versioned packages; install the registry meanwhile");
  const registryInstall = ensureRegistryInstalled(toolDir);
  registryInstall.catch(() => undefined); // awaited below; a failed build must not leave it unhandled
  await runAsync("pnpm", ["build"], scratch);
  say(`built; registry dependencies ${await registryInstall} (npm ci in scripts/release-rehearsal/registry)`);

  // --- 3. the registry ---------------------------------------------------------------------------------------------
  step("local registry: Verdaccio on 127.0.0.1");
  registry = await startRegistry(toolDir, join(work, "registry"));
  const token = await addRegistryUser(registry, "rehearsal");
  say(`listening at ${registry.url} (pid ${registry.pid})`);

  // --- 4. publish as the release workflow does ---------------------------------------------------------------------
  step("publish every package with changeset publish");
  appendFileSync(join(scratch, ".npmrc"), `\nregistry=${registry.url}\n${registry.authKey}:_authToken=${token}\n`);
  const publishEnv = { ...process.env, npm_config_registry: registry.url };
  const publishLog = run("pnpm", ["exec", "changeset", "publish", "--no-git-tag"], scratch, publishEnv);
  const versions = new Map(packages.map((pkg) => [pkg.name, pkg.version]));
  for (const pkg of packages) {
    const view = JSON.parse(
      run("npm", ["view", `${pkg.name}@${pkg.version}`, "--json", "--registry", registry.url], work),
    ) as Record<string, unknown>;
    const problems = publishedManifestFindings(view, privatePackages);
    for (const [dep, range] of Object.entries((view["dependencies"] as Record<string, string> | undefined) ?? {})) {
      const published = versions.get(dep);
      if (published !== undefined && range !== `^${published}`)
        problems.push(`depends on ${dep}@${range}, not ^${published}`);
    }
    if (problems.length > 0)
      throw new Error(`${pkg.name}@${pkg.version} as published:\n  ${problems.join("\n  ")}\n${publishLog}`);
    checks++;
  }
  say(`published ${packages.length} packages; each manifest names the versions just published and no workspace: range`);

  // --- 5. install and use it as a user would -------------------------------------------------------------------------
  step("install each package alone with npm, import and call it, run its bins");
  const userConfig = join(work, "user.npmrc");
  writeFileSync(
    userConfig,
    // ignore-scripts: no prebuilt binary can be fetched here, so an addon's install script would compile it again
    // for every install (and for npx's own); the projects get the workspace's build instead (native-addons.ts).
    `@orphus:registry=${registry.url}\nfund=false\naudit=false\nupdate-notifier=false\nprefer-offline=true\nignore-scripts=true\n`,
  );
  const userEnv: NodeJS.ProcessEnv = {
    ...process.env,
    // Only npm's own settings and a cache of its own: nothing from the workspace, nothing left in the real cache
    // (npx keeps what it installs there, keyed by the package name alone).
    npm_config_userconfig: userConfig,
    npm_config_cache: join(work, "npm-cache"),
    ORPHUS_ROUNDTABLE_REGISTRY_DIR: join(work, "broker-registry"),
  };
  for (const key of Object.keys(userEnv)) {
    if (key.startsWith("npm_") && !["npm_config_userconfig", "npm_config_cache"].includes(key)) delete userEnv[key];
  }
  const calls = callScripts(packages, callsDir);
  const consumerOf = new Map(packages.map((pkg) => [pkg.name, join(work, "consumers", pkg.dir)]));
  const buildAddons = addonBuilder(root);
  // Installs wait on the network, so a few run at once; each package still gets a folder of its own.
  const outcomes = await mapLimit(packages, CONCURRENT_INSTALLS, async (pkg) => {
    const consumer = consumerOf.get(pkg.name) as string;
    mkdirSync(consumer, { recursive: true });
    writeFileSync(
      join(consumer, "package.json"),
      JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2),
    );
    await runAsync("npm", ["install", `${pkg.name}@${pkg.version}`], consumer, userEnv);
    const addons = await buildAddons(consumer);
    const script = calls.get(pkg.dir);
    let outcome: string;
    if (script !== undefined) {
      cpSync(script, join(consumer, "call.mjs"));
      outcome = (await runAsync(process.execPath, ["call.mjs"], consumer, userEnv)).trim();
    } else {
      const source = `const api = await import(${JSON.stringify(pkg.name)}); console.log(Object.keys(api).length);`;
      outcome = `${(await runAsync(process.execPath, ["--input-type=module", "-e", source], consumer, userEnv)).trim()} exports imported`;
    }
    checks++;
    const built = addons.length > 0 ? ` (native addons: the workspace's build of ${addons.join(", ")})` : "";
    return `${pkg.name}@${pkg.version}: installed alone${built}; ${outcome}`;
  });
  for (const outcome of outcomes) say(outcome);
  const binNotes = await mapLimit(planBinChecks(packages), CONCURRENT_INSTALLS, (check) =>
    runBinCheck(check, packages, consumerOf, userEnv),
  );
  for (const note of binNotes) say(note);
} catch (error) {
  process.stderr.write(`\nrelease rehearsal FAILED (${seconds()}): ${(error as Error).message}\n`);
  if (keep) process.stderr.write(`kept ${work}\n`);
  process.exitCode = 1;
} finally {
  await registry?.stop();
  if (!keep) rmSync(work, { recursive: true, force: true });
}
if (process.exitCode !== 1) {
  say(`\nrelease rehearsal: ${checks} checks passed in ${seconds()}${keep ? `; kept ${work}` : ""}`);
}

/** Runs one bin the way a user would; returns the line that says what was checked. */
async function runBinCheck(
  check: BinCheck,
  packages: readonly WorkspacePackage[],
  consumerOf: ReadonlyMap<string, string>,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const version = packages.find((pkg) => pkg.name === check.packageName)?.version as string;
  let cwd = consumerOf.get(check.packageName) as string;
  let command = check.bin;
  let npxArgs = ["--no-install"];
  if (check.how === "npx-package") {
    cwd = join(work, "empty", check.packageName.replace("/", "__"));
    mkdirSync(cwd, { recursive: true });
    command = check.packageName;
    npxArgs = ["--yes"];
  }
  const shown = `npx ${command}`;
  const help = await runAsync("npx", [...npxArgs, command, "--help"], cwd, env);
  if (!/usage/i.test(help)) throw new Error(`${shown} --help printed no usage:\n${help.slice(0, 500)}`);
  checks++;
  if (!offersVersionFlag(help)) {
    throw new Error(`${shown} --help lists no --version; every bin prints its version:\n${help.slice(0, 500)}`);
  }
  const printed = (await runAsync("npx", [...npxArgs, command, "--version"], cwd, env)).trim();
  if (!printed.split(/\s+/).includes(version)) {
    throw new Error(
      `${shown} --version printed ${JSON.stringify(printed.slice(0, 100))}, not the published ${version}`,
    );
  }
  checks++;
  return `${shown} --help: usage printed; --version: ${printed}`;
}
