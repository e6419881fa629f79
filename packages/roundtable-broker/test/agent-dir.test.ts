// An agent directory the broker cannot use fails its start with the locator's typed error (the mapping of each errno
// is pinned by @orphus/roundtable-locator's test/agent-dir.test.ts).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { startBroker } from "@orphus/roundtable-broker";
import { AgentDirNotDirectoryError } from "@orphus/roundtable-locator";
import { tempDir } from "../../../test-support/tmp.js";

describe("an agent directory the broker cannot use", () => {
  test("an agent directory that is a regular file: ERR_AGENT_DIR_NOT_A_DIRECTORY naming it and the fix", async () => {
    const parent = tempDir();
    const agentDir = join(parent, "agent");
    writeFileSync(agentDir, "not a directory\n");
    const attempt = startBroker({ agentDir, registryDir: false });
    await expect(attempt).rejects.toThrow(AgentDirNotDirectoryError);
    await expect(attempt).rejects.toMatchObject({
      code: "ERR_AGENT_DIR_NOT_A_DIRECTORY",
      agentDir,
      path: agentDir,
      message:
        `The agent directory ${agentDir} cannot hold the broker folder (${agentDir} is not a directory): the broker ` +
        `keeps its socket, pid file and log there. Move it away (mv ${agentDir} ${agentDir}.moved), or point ` +
        "ORPHUS_CODING_AGENT_DIR (or --agent-dir) at a writable directory of your own (e.g. ~/.orphus/agent).",
    });
  });
});
