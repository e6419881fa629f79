// Brokers for the tests of the packages that run one: a short temporary agent directory per test, clients that
// spawn the broker bin (bundled once per file, or the installed one in `pnpm test:installed`), and clean-up that
// closes the clients and kills every broker still running.
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import {
  createRoundtableClient,
  type BrokerCommand,
  type CreateRoundtableClientOptions,
  type RoundtableClient,
} from "@orphus/roundtable-client";
import { brokerBin, type BrokerBin } from "./target.js";
import { shortTempDir } from "./tmp.js";

/** Idle time of the brokers the tests spawn: short, so a finished test leaves nothing running for long. */
export const TEST_IDLE_MS = 400;

/**
 * Per-test: a short temporary agent directory, clients of its broker (real sockets, real spawned broker processes),
 * and clean-up that closes the clients and kills any broker still running. Clients spawn the broker bin bundled
 * once per file (fast to start); `{ fromSource: true }` on a client spawns the default command instead.
 */
export function useAgentDir(): {
  readonly dir: () => string;
  readonly spawned: number[];
  readonly brokerCommand: (idleMs?: number) => BrokerCommand;
  client: (options?: CreateRoundtableClientOptions & { fromSource?: boolean }) => RoundtableClient;
} {
  let bundle: BrokerBin | undefined;
  beforeAll(async () => {
    bundle = await brokerBin();
  });
  afterAll(() => bundle?.remove());
  let temp: ReturnType<typeof shortTempDir> | undefined;
  const spawned: number[] = [];
  const clients: RoundtableClient[] = [];
  beforeEach(() => {
    temp = shortTempDir("rta-");
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
    for (const pid of spawned.splice(0)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already exited
      }
    }
    temp?.remove();
  });
  const dir = (): string => (temp as { dir: string }).dir;
  const brokerCommand = (idleMs = TEST_IDLE_MS): BrokerCommand => ({
    command: process.execPath,
    args: [(bundle as { bin: string }).bin, "--agent-dir", dir(), "--idle-ms", String(idleMs)],
  });
  return {
    dir,
    spawned,
    brokerCommand,
    client: ({ fromSource, ...options } = {}) => {
      const client = createRoundtableClient({
        agentDir: dir(),
        brokerIdleMs: TEST_IDLE_MS,
        onWarning: () => undefined,
        ...(fromSource === true ? {} : { brokerCommand: brokerCommand(options.brokerIdleMs) }),
        ...options,
        onSpawn: (broker) => {
          if (broker.pid !== undefined) spawned.push(broker.pid);
          options.onSpawn?.(broker);
        },
      });
      clients.push(client);
      return client;
    },
  };
}
