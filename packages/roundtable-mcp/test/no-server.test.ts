// @source-only: it bundles the MCP server's sources to see which modules of ours they load.
import { expect, test } from "vitest";
import { bundledSourceFiles } from "../../../test-support/bundle-inputs.js";

test("the MCP server's bin loads none of the broker's server, only the locator, through its client", async () => {
  const files = await bundledSourceFiles("packages/roundtable-mcp/src/bin/mcp.ts");
  expect(files.filter((file) => file.startsWith("packages/roundtable-broker/"))).toEqual([]);
  expect(files).toContain("packages/roundtable-locator/src/paths.ts");
});
