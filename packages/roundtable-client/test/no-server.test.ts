// @source-only: it bundles the client's sources to see which modules of ours they load.
import { expect, test } from "vitest";
import { bundledSourceFiles } from "../../../test-support/bundle-inputs.js";

test("the client loads none of the broker's server, only the locator, to find and start a broker", async () => {
  const files = await bundledSourceFiles("packages/roundtable-client/src/index.ts");
  expect(files.filter((file) => file.startsWith("packages/roundtable-broker/"))).toEqual([]);
  // The graph was read: the locator is what the client finds its broker with.
  expect(files).toContain("packages/roundtable-locator/src/paths.ts");
});
