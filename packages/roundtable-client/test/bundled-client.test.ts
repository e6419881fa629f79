// @source-only: the client is bundled from source into a temporary folder outside any install, which is the point.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, test } from "vitest";
import { bundlePrograms } from "../../../test-support/target.js";

test("a client bundled away from @orphus/roundtable-broker says a brokerCommand is needed, before anything starts", async () => {
  const bundle = await bundlePrograms(
    { locate: join(import.meta.dirname, "support", "locate-program.ts") },
    { prefix: "rt-locate-" },
  );
  try {
    // Without NODE_PATH, which pnpm's bin scripts (vitest's among them) set to folders holding every workspace package.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "NODE_PATH"));
    const run = spawnSync(process.execPath, [join(bundle.dir, "locate.js")], { encoding: "utf8", env });
    expect(run.stdout).toBe(
      "ERR_CLIENT_INVALID_OPTION: Invalid roundtable client option brokerCommand: expected a command, since " +
        "@orphus/roundtable-broker cannot be found from the client to run its bin, got undefined\n",
    );
  } finally {
    bundle.remove();
  }
});
