// Where a client looks for its broker and what it starts there by default: the bin of the @orphus/roundtable-broker
// it depends on, found through that package's manifest (the server itself is never loaded, test/no-server.test.ts).
import { join } from "node:path";
import { expect, test } from "vitest";
import { locateBroker } from "@orphus/roundtable-client";
import { packageDir, testTarget } from "../../../test-support/target.js";

test("the default command runs the broker package's own bin: its source in the workspace, its build when installed", () => {
  const { agentDir, socketPath, spawn } = locateBroker({ agentDir: "/srv/agent", brokerIdleMs: 250, env: {} });
  expect([agentDir, socketPath]).toEqual(["/srv/agent", "/srv/agent/roundtable/broker.sock"]);
  const broker = packageDir("roundtable-broker");
  const bin =
    testTarget() === "installed" ? join(broker, "dist", "bin", "broker.js") : join(broker, "src", "bin", "broker.ts");
  expect(spawn?.command.command).toBe(process.execPath);
  expect(spawn?.command.args.slice(-5)).toEqual([bin, "--agent-dir", "/srv/agent", "--idle-ms", "250"]);
  expect(spawn?.logPath).toBe("/srv/agent/roundtable/broker.log");
});
