// Brokers for the tests: the roundtable client's own test support (a temporary agent directory per test, the
// broker bin bundled once per file, every spawned broker killed afterwards), reused rather than copied.
import { useAgentDir } from "../../../roundtable-client/test/support/brokers.js";
import type { RoundtableExtensionOptions } from "@orphus/pi-roundtable";

export { alive, gone, TEST_IDLE_MS } from "../../../roundtable-client/test/support/brokers.js";
export { until } from "../../../roundtable-client/test/support/tmp.js";

/** Per test: a temporary agent directory, and extension options whose client spawns its broker there. */
export function useBroker(): {
  readonly dir: () => string;
  readonly spawned: number[];
  readonly extensionOptions: (extra?: Partial<RoundtableExtensionOptions>) => RoundtableExtensionOptions;
  readonly observer: ReturnType<typeof useAgentDir>["client"];
} {
  const agent = useAgentDir();
  return {
    dir: agent.dir,
    spawned: agent.spawned,
    observer: agent.client,
    extensionOptions: (extra = {}) => ({
      agentDir: agent.dir(),
      env: { ...process.env, ORPHUS_ROUNDTABLE_ROLE: undefined },
      ...extra,
      client: {
        brokerCommand: agent.brokerCommand(),
        brokerLogPath: false,
        ...extra.client,
        onSpawn: (broker) => {
          if (broker.pid !== undefined) agent.spawned.push(broker.pid);
          extra.client?.onSpawn?.(broker);
        },
      },
    }),
  };
}
