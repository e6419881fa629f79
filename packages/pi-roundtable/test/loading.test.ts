// pi loads the package the way `pi install` leaves it: a directory whose manifest names the entry in `pi.extensions`,
// imported by pi's own loader (jiti) for its default export. The package is bundled whole into a temporary directory
// with its manifest, since the tests run before any build.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { bundlePrograms } from "../../roundtable-client/test/support/bundle.js";
import { createRoundtableExtension } from "../src/index.js";
import { useBroker } from "./support/broker.js";
import { callRoundtable, useSessions } from "./support/pi.js";

const broker = useBroker();
const openSession = useSessions();

let packageDir = "";
let remove: (() => void) | undefined;
beforeAll(async () => {
  const bundle = await bundlePrograms({ index: fileURLToPath(new URL("../src/index.ts", import.meta.url)) }, "rtpi-pkg-");
  remove = bundle.remove;
  packageDir = join(bundle.dir, "pi-roundtable");
  mkdirSync(join(packageDir, "dist"), { recursive: true });
  renameSync(join(bundle.dir, "index.js"), join(packageDir, "dist", "index.js"));
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as Record<string, unknown>;
  writeFileSync(join(packageDir, "package.json"), JSON.stringify({ name: manifest["name"], type: "module", pi: manifest["pi"] }));
});
afterAll(() => remove?.());

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
  const session = await openSession({ extensions: [], extensionPaths: [packageDir], flags: { "roundtable-role": "planner" } });
  expect(session.session.resourceLoader.getExtensions().errors).toEqual([]);
  expect(session.session.extensionRunner.getAllRegisteredTools().map((tool) => tool.definition.name)).toEqual(["roundtable"]);
  await session.prompt("Join.", [callRoundtable({ action: "join", room: "design" })]);
  expect(session.storedMessages().at(-2)).toMatchObject({
    role: "toolResult",
    isError: false,
    text: 'Joined "design" as planner. Members: critic, planner. Nothing unread.',
  });
});

test("loaded by its manifest and again by a factory, the session keeps the first copy only", async () => {
  process.env["ORPHUS_CODING_AGENT_DIR"] = broker.dir();
  const session = await openSession({ extensions: [createRoundtableExtension(broker.extensionOptions())], extensionPaths: [packageDir] });
  const runner = session.session.extensionRunner;
  expect(runner.getRegisteredCommands().map((command) => command.invocationName)).toEqual(["roundtable"]);
  expect(runner.getAllRegisteredTools()[0]?.sourceInfo.path).toContain(packageDir);
  expect(session.session.resourceLoader.getExtensions().errors).toEqual([]);
});
