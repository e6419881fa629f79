// Brokers for the tests: the shared broker support (test-support/brokers.ts: a temporary agent directory per test,
// the broker bin bundled once per file, every spawned broker killed afterwards), as extension options.
import type { RoundtableExtensionOptions } from "@orphus/pi-roundtable";
import { useAgentDir } from "../../../../test-support/brokers.js";

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
