// pi loads the package the way `pi install` leaves it: a directory whose manifest names the entry in `pi.extensions`,
// imported by pi's own loader (jiti) for its default export. The package is bundled whole into a temporary
// node_modules with its manifest, since the tests run before any build: everything but @orphus/memory, the optional
// peer, which stays an import as in the published build. Alone, the peer is not found (as when nobody installed it);
// in a second layout it is installed beside it (bundled from source, with the workspace's better-sqlite3 addon).
// An installed run (`pnpm test:installed`) loads the installed package instead: beside @orphus/memory where the
// packages were installed, and alone in a copy of that install with the peer left out.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "tsup";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { bundledProgramBuild } from "../../../tsup.base.js";
import { installedProject, packageDir as testedPackageDir } from "../../../test-support/target.js";
import { createRoundtableExtension, memoryUnavailableText } from "@orphus/pi-roundtable";
import { useBroker } from "./support/broker.js";
import { callRoundtable, callTool, useSessions } from "./support/pi.js";

const broker = useBroker();
const openSession = useSessions();

/** The extension installed alone. */
let packageDir = "";
/** The layout of `npm install -g` with the optional peer: @orphus/pi-roundtable and @orphus/memory side by side. */
let installedDir = "";
const removals: (() => void)[] = [];
afterAll(() => {
  for (const remove of removals) remove();
});

/** `<root>/node_modules/<name>`: a package of a manifest and one bundled file, as an install leaves it. */
async function installBundle(root: string, name: string, source: string, external: readonly string[]): Promise<string> {
  const dir = join(root, "node_modules", ...name.split("/"));
  mkdirSync(join(dir, "dist"), { recursive: true });
  const options = bundledProgramBuild({ index: fileURLToPath(new URL(source, import.meta.url)) });
  const bundled = new RegExp(`^(?!(${external.join("|")})$)`); // these names hold nothing a pattern reads specially
  await build({
    ...options,
    noExternal: [bundled],
    external: [...external],
    outDir: join(dir, "dist"),
    silent: true,
    config: false,
  });
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as Record<
    string,
    unknown
  >;
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      name,
      type: "module",
      exports: "./dist/index.js",
      ...(name === manifest["name"] ? { pi: manifest["pi"] } : {}),
    }),
  );
  return dir;
}

/**
 * The installed extension without its optional peer: a node_modules holding a copy of the installed package and
 * links to everything else installed beside it but @orphus/memory (and its addon).
 */
function installedAlone(project: string): string {
  const root = mkdtempSync(join(tmpdir(), "rtpi-alone-"));
  removals.push(() => rmSync(root, { recursive: true, force: true }));
  const from = join(project, "node_modules");
  const leftOut = new Set(["@orphus/memory", "@orphus/pi-roundtable", "better-sqlite3"]);
  for (const name of readdirSync(from)) {
    const names = name.startsWith("@") ? readdirSync(join(from, name)).map((inner) => `${name}/${inner}`) : [name];
    for (const entry of names.filter((entry) => !leftOut.has(entry) && !entry.startsWith("."))) {
      mkdirSync(dirname(join(root, "node_modules", entry)), { recursive: true });
      symlinkSync(join(from, entry), join(root, "node_modules", entry), "dir");
    }
  }
  const dir = join(root, "node_modules", "@orphus", "pi-roundtable");
  cpSync(testedPackageDir("pi-roundtable"), dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  const project = installedProject();
  if (project !== undefined) {
    packageDir = installedAlone(project);
    installedDir = testedPackageDir("pi-roundtable");
    return;
  }
  const alone = mkdtempSync(join(tmpdir(), "rtpi-pkg-"));
  removals.push(() => rmSync(alone, { recursive: true, force: true }));
  packageDir = await installBundle(alone, "@orphus/pi-roundtable", "../src/index.ts", ["@orphus/memory"]);
  const root = mkdtempSync(join(tmpdir(), "rtpi-global-"));
  removals.push(() => rmSync(root, { recursive: true, force: true }));
  installedDir = await installBundle(root, "@orphus/pi-roundtable", "../src/index.ts", ["@orphus/memory"]);
  await installBundle(root, "@orphus/memory", "../../memory/src/index.ts", ["better-sqlite3"]);
  // The native addon as the workspace built it, where the memory package resolves it.
  symlinkSync(
    dirname(
      createRequire(import.meta.url).resolve("better-sqlite3/package.json", {
        paths: [fileURLToPath(new URL("../../memory/", import.meta.url))],
      }),
    ),
    join(root, "node_modules", "better-sqlite3"),
    "dir",
  );
});

// The default export reads its agent directory from the environment, as it does under pi.
const saved = process.env["ORPHUS_CODING_AGENT_DIR"];
afterEach(() => {
  if (saved === undefined) delete process.env["ORPHUS_CODING_AGENT_DIR"];
  else process.env["ORPHUS_CODING_AGENT_DIR"] = saved;
});

test("pi finds the entry through the manifest and seats the session with the default export", async () => {
  process.env["ORPHUS_CODING_AGENT_DIR"] = broker.dir();
  const observer = broker.observer({ role: "critic" }); // the broker this test spawned; the bundle starts none
  await observer.join("design");
  const session = await openSession({
    extensions: [],
    extensionPaths: [packageDir],
    flags: { "roundtable-role": "planner" },
  });
  expect(session.session.resourceLoader.getExtensions().errors).toEqual([]);
  expect(session.session.extensionRunner.getAllRegisteredTools().map((tool) => tool.definition.name)).toEqual([
    "roundtable",
    "memory",
  ]);
  await session.prompt("Join.", [callRoundtable({ action: "join", room: "design" })]);
  expect(session.storedMessages().at(-2)).toMatchObject({
    role: "toolResult",
    isError: false,
    text: 'Joined "design" as planner. Members: critic, planner. Nothing unread.',
  });
  // The optional peer is not installed here: the memory tool is there, and says so and how to install it.
  await session.prompt("Search memory.", [callTool("memory", { action: "query", query: "release" })]);
  expect(session.storedMessages().at(-2)).toMatchObject({
    role: "toolResult",
    isError: true,
    text: memoryUnavailableText("@orphus/memory is not installed beside @orphus/pi-roundtable"),
  });
});

test("loaded by its manifest and again by a factory, the session keeps the first copy only", async () => {
  process.env["ORPHUS_CODING_AGENT_DIR"] = broker.dir();
  const session = await openSession({
    extensions: [createRoundtableExtension(broker.extensionOptions())],
    extensionPaths: [packageDir],
  });
  const runner = session.session.extensionRunner;
  expect(runner.getRegisteredCommands().map((command) => command.invocationName)).toEqual(["roundtable"]);
  expect(runner.getAllRegisteredTools()[0]?.sourceInfo.path).toContain(packageDir);
  expect(session.session.resourceLoader.getExtensions().errors).toEqual([]);
});

test("installed beside @orphus/memory, pi's own loader gives every session the memory tool on a real store", async () => {
  process.env["ORPHUS_CODING_AGENT_DIR"] = broker.dir();
  const librarian = await openSession({
    extensions: [],
    extensionPaths: [installedDir],
    flags: { "roundtable-role": "librarian" },
  });
  expect(librarian.session.resourceLoader.getExtensions().errors).toEqual([]);
  await librarian.prompt("Note it.", [
    callTool("memory", {
      action: "ingest",
      title: "Release policy",
      body: "We release with changesets.",
      tags: ["release"],
    }),
  ]);
  expect(librarian.storedMessages().at(-2)).toMatchObject({
    role: "toolResult",
    isError: false,
    text: expect.stringContaining("1 new source"),
  });
  await librarian.shutdown();
  const critic = await openSession({
    extensions: [],
    extensionPaths: [installedDir],
    flags: { "roundtable-role": "critic" },
  });
  await critic.prompt("Look it up.", [callTool("memory", { action: "query", query: "changesets" })]);
  expect(critic.storedMessages().at(-2)).toMatchObject({
    role: "toolResult",
    isError: false,
    text: expect.stringMatching(
      new RegExp(
        `^\\[memory ${broker.dir()}/memory/memory\\.db\\] hits 1–1 of 1 for "changesets"[^\\n]*\\n\\[#1\\] Release policy · note:`,
      ),
    ),
  });
});
