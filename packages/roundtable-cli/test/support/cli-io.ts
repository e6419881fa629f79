import { REGISTRY_DIR_ENV } from "@orphus/roundtable-locator";
import type { CliIo } from "../../src/cli/run.js";
import { TEST_IDLE_MS, type useAgentDir } from "../../../../test-support/brokers.js";

/** What a CLI run wrote, beside the io it ran with. */
export type RecordedCliIo = CliIo & { out: () => string; err: () => string };

/**
 * Io for an in-process CLI run against `agent`'s directory: stdout and stderr recorded, brokers it spawns bundled,
 * short-lived and killed after the test.
 */
export function cliIo(agent: ReturnType<typeof useAgentDir>, extra: Partial<CliIo> = {}): RecordedCliIo {
  let out = "";
  let err = "";
  return {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    // The registry variable too (set by support/tmp.ts): a broker spawned with this environment must not register in
    // the user's home.
    env: { ORPHUS_CODING_AGENT_DIR: agent.dir(), [REGISTRY_DIR_ENV]: process.env[REGISTRY_DIR_ENV] },
    clientOptions: {
      brokerIdleMs: TEST_IDLE_MS,
      brokerCommand: agent.brokerCommand(),
      onSpawn: (broker) => {
        if (broker.pid !== undefined) agent.spawned.push(broker.pid);
      },
    },
    out: () => out,
    err: () => err,
    ...extra,
  };
}
