import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ExtensionFactory } from "@mariozechner/pi-coding-agent";
import { afterAll, beforeAll, expect, test } from "vitest";
import { bundlePrograms, installedProject, packageDir } from "../../../test-support/target.js";
import { createRoundtableExtension, sharedClientCount, type RoundtableExtensionOptions } from "@orphus/pi-roundtable";
import { manualTimers } from "../../../test-support/manual-timers.js";
import { useBroker } from "./support/broker.js";
import { callRoundtable, caughtUp, useSessions, pingsOf } from "./support/pi.js";

const broker = useBroker();
const openSession = useSessions();

/** The ping window, on manual timers: it passes when the test advances them, after every event has arrived. */
const WINDOW_MS = 500;

/**
 * A second copy of the package, as pi gets when the extension is installed twice (global and project), or loaded
 * again by jiti, which keeps no module cache: the package bundled whole (the client inside it too) into a file of
 * its own, so nothing but globalThis is shared with the copy the test imports.
 */
let copy: typeof import("@orphus/pi-roundtable") | undefined;
let removeCopy: (() => void) | undefined;
beforeAll(async () => {
  // The package's entry as this run tests it: its source, or the installed dist/index.js, bundled whole either way.
  const entry =
    installedProject() === undefined
      ? fileURLToPath(new URL("../src/index.ts", import.meta.url))
      : join(packageDir("pi-roundtable"), "dist", "index.js");
  const bundle = await bundlePrograms({ copy: entry }, { prefix: "rtpi-copy-", whole: true });
  removeCopy = bundle.remove;
  copy = (await import(pathToFileURL(join(bundle.dir, "copy.js")).href)) as typeof import("@orphus/pi-roundtable");
});
afterAll(() => removeCopy?.());

function secondCopy(options: RoundtableExtensionOptions): ExtensionFactory {
  if (copy === undefined || copy.createRoundtableExtension === createRoundtableExtension)
    throw new Error("no second copy");
  return copy.createRoundtableExtension(options);
}

test("loaded twice into one session: one tool, one command, one client, one ping per window", async () => {
  const clock = manualTimers();
  const options = broker.extensionOptions({ pingWindowMs: WINDOW_MS, timers: clock });
  const planner = await openSession({
    extensions: [createRoundtableExtension(options), secondCopy(options)],
    name: "planner",
  });
  const runner = planner.session.extensionRunner;
  expect(runner.getAllRegisteredTools().map((tool) => tool.definition.name)).toEqual(["roundtable", "memory"]);
  expect(runner.getRegisteredCommands().map((command) => command.invocationName)).toEqual(["roundtable"]);
  expect(planner.session.resourceLoader.getExtensions().errors).toEqual([]); // no conflict reported either

  await planner.prompt("Join.", [callRoundtable({ action: "join", room: "design" })]);
  expect(sharedClientCount()).toBe(1);
  const critic = broker.observer({ role: "critic" });
  expect((await critic.status()).connections).toBe(2);
  await critic.join("design");
  await Promise.all([critic.post("design", "one"), critic.post("design", "two")]);
  await caughtUp(planner);
  clock.advance(WINDOW_MS);
  expect(pingsOf(planner.storedMessages())).toEqual(["[roundtable] design: 2 new from critic — digest to read"]);
  clock.advance(WINDOW_MS * 3);
  expect(pingsOf(planner.storedMessages())).toEqual(["[roundtable] design: 2 new from critic — digest to read"]);
});

test("two sessions of one process speaking as the same role share one client; each gets its pings", async () => {
  const clock = manualTimers();
  const options = broker.extensionOptions({ pingWindowMs: WINDOW_MS, timers: clock });
  const first = await openSession({ extensions: [createRoundtableExtension(options)], name: "planner" });
  const second = await openSession({ extensions: [secondCopy(options)], name: "planner" });
  for (const session of [first, second])
    await session.prompt("Join.", [callRoundtable({ action: "join", room: "design" })]);
  expect(sharedClientCount()).toBe(1);
  const critic = broker.observer({ role: "critic" });
  expect((await critic.status()).connections).toBe(2);
  await critic.join("design");
  await critic.post("design", "hello planners");
  await caughtUp(first); // the one client the two sessions share has heard it
  clock.advance(WINDOW_MS);
  for (const session of [first, second]) {
    expect(pingsOf(session.storedMessages())).toEqual(["[roundtable] design: 1 new from critic — digest to read"]);
  }

  await first.shutdown(); // the other session still holds the client
  expect(sharedClientCount()).toBe(1);
  await second.prompt("Digest.", [callRoundtable({ action: "digest", room: "design" })]);
  expect(second.storedMessages().at(-2)).toMatchObject({
    role: "toolResult",
    isError: false,
    text: "[#1 critic] hello planners",
  });
  await second.shutdown();
  expect(sharedClientCount()).toBe(0);
});
