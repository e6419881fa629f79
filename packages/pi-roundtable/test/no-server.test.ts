// @source-only: it bundles the extension's sources to see which modules of ours they load.
import { expect, test } from "vitest";
import { bundledSourceFiles } from "../../../test-support/bundle-inputs.js";

test("the pi extension, /roundtable doctor included, loads none of the broker's server, only the locator", async () => {
  const files = await bundledSourceFiles("packages/pi-roundtable/src/index.ts");
  expect(files.filter((file) => file.startsWith("packages/roundtable-broker/"))).toEqual([]);
  expect(files).toContain("packages/roundtable-locator/src/paths.ts");
});
