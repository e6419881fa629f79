// @source-only: it bundles the CLI's sources to see which modules of ours they load.
import { expect, test } from "vitest";
import { bundledSourceFiles } from "../../../test-support/bundle-inputs.js";

test("the roundtable bin, the doctor included, loads none of the broker's server, only the locator", async () => {
  const files = await bundledSourceFiles("packages/roundtable-cli/src/bin/roundtable.ts");
  expect(files.filter((file) => file.startsWith("packages/roundtable-broker/"))).toEqual([]);
  // The graph was read: the doctor reads the registry, and the client finds its broker, through the locator.
  expect(files).toEqual(
    expect.arrayContaining([
      "packages/roundtable-cli/src/doctor/fleet.ts",
      "packages/roundtable-locator/src/registry.ts",
    ]),
  );
});
