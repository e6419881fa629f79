// A full broker and a crowd at its door. At its 256-connection limit the broker answers each newcomer's hello with
// ERR_TOO_MANY_CONNECTIONS before closing, so every one of them reads why (before, most met a bare EPIPE); the
// client names it BrokerFullError (what the doctor says of a full broker is tried in @orphus/roundtable-cli's
// reliability suite). A burst of 300 past the broker's 64 pending refusals meets refusals sent at once, before its
// hello: each client tries again after a jittered pause, listening before it speaks, and reads BrokerFullError
// (before, a third of them reported a ConnectionLostError for the EPIPE of their hello). Then 1000 connects at once while the broker is briefly stopped: its accept queue overflows
// (EAGAIN), and every connect still succeeds.
import { join } from "node:path";
import { expect, test } from "vitest";
import {
  BrokerFullError,
  connectBrokerSocket,
  createRoundtableClient,
  openBrokerSocket,
  type RoundtableClient,
} from "@orphus/roundtable-client";
import { until } from "../../../../test-support/poll.js";
import { bounded, onCleanup, report, spawnBroker, useHarness } from "../../../../test-support/reliability/harness.js";
import { tempDir } from "../../../../test-support/tmp.js";

const harness = useHarness();

const LIMIT = 256;
const LATE = 64;
const LATE_BURST = 300;
const BURST = 1000;

function seat(agentDir: string, role: string): RoundtableClient {
  const client = createRoundtableClient({ agentDir, role, spawnBroker: false, onWarning: () => undefined });
  onCleanup(() => client.close());
  return client;
}

test(`${LATE} clients meeting a full broker all read the refusal`, async () => {
  const bundles = harness.bundles();
  const agentDir = tempDir();
  const broker = await spawnBroker(bundles, agentDir, ["--idle-ms", "60000"]);
  const seated: RoundtableClient[] = [];
  for (let batch = 0; batch < LIMIT / 32; batch++) {
    const clients = Array.from({ length: 32 }, (_, i) => seat(agentDir, `seat-${batch * 32 + i}`));
    await Promise.all(clients.map((c) => c.connect()));
    seated.push(...clients);
  }
  expect(await seated[0]?.status()).toMatchObject({ connections: LIMIT });

  const outcomes = await bounded(
    "every late client hears back",
    30_000,
    Promise.all(
      Array.from({ length: LATE }, (_, i) =>
        seat(agentDir, `late-${i}`)
          .join("lobby")
          .catch((e: unknown) => e),
      ),
    ),
  );
  const refused = outcomes.filter((o) => o instanceof BrokerFullError);
  const kinds = [...new Set(outcomes.map((o) => (o as { code?: string }).code))];
  expect(kinds).toEqual(["ERR_BROKER_FULL"]);
  expect(refused[0]).toMatchObject({ maxConnections: LIMIT, brokerPid: broker.pid });

  // A seat freed is a seat taken, once the broker has seen it go.
  seated.pop()?.close();
  const next = seat(agentDir, "next");
  await until(
    () =>
      next.connect().then(
        () => true,
        () => false,
      ),
    {
      timeoutMs: 10_000,
      everyMs: 50,
      what: "a freed seat is taken",
    },
  );
  expect(next.broker).toMatchObject({ brokerPid: broker.pid });
  report("full broker", {
    maxConnections: LIMIT,
    lateClients: LATE,
    refusalsReceived: refused.length,
    otherOutcomes: LATE - refused.length,
    seatFreedThenTaken: true,
  });
});

test(`a burst of ${LATE_BURST} at a full broker, past its pending refusals: every one reads BrokerFullError`, async () => {
  const bundles = harness.bundles();
  const agentDir = tempDir();
  const broker = await spawnBroker(bundles, agentDir, ["--idle-ms", "60000"]);
  for (let batch = 0; batch < LIMIT / 32; batch++) {
    await Promise.all(Array.from({ length: 32 }, (_, i) => seat(agentDir, `seat-${batch * 32 + i}`).connect()));
  }
  const outcomes = await bounded(
    "every client of the burst hears back",
    60_000,
    Promise.all(
      Array.from({ length: LATE_BURST }, (_, i) =>
        seat(agentDir, `burst-${i}`)
          .connect()
          .catch((e: unknown) => e),
      ),
    ),
  );
  const codes = outcomes.map((o) => (o as { code?: string }).code ?? "connected");
  const tally = Object.fromEntries([...new Set(codes)].map((code) => [code, codes.filter((c) => c === code).length]));
  expect(tally).toEqual({ ERR_BROKER_FULL: LATE_BURST });
  expect(outcomes[0]).toMatchObject({ maxConnections: LIMIT, brokerPid: broker.pid });
  report("full broker burst", { maxConnections: LIMIT, burst: LATE_BURST, ...tally });
});

test(`${BURST} connects at once into an overflowing accept queue: EAGAIN is retried, every one connects`, async () => {
  const bundles = harness.bundles();
  const agentDir = tempDir();
  const broker = await spawnBroker(bundles, agentDir, ["--idle-ms", "60000"]);
  const socketPath = join(agentDir, "roundtable", "broker.sock");
  let eagain = 0;
  const metEagain = new Set<number>();
  // Stopped, the broker accepts nothing: the kernel queues up to its listen backlog and refuses the rest (EAGAIN).
  process.kill(broker.pid, "SIGSTOP");
  let resumed = false;
  const resume = (): void => {
    if (!resumed) process.kill(broker.pid, "SIGCONT");
    resumed = true;
  };
  onCleanup(resume);
  const connects = Array.from({ length: BURST }, (_, i) =>
    openBrokerSocket({
      socketPath,
      spawn: false,
      connect: (path, timeoutMs, timers) =>
        connectBrokerSocket(path, timeoutMs, timers).catch((error: NodeJS.ErrnoException) => {
          if (error.code === "EAGAIN") {
            eagain++;
            metEagain.add(i);
          }
          throw error;
        }),
    }).then(
      (socket) => {
        socket.destroy();
        return "connected";
      },
      (error: { code?: string }) => error.code ?? "error",
    ),
  );
  // Stopped until the queue has overflowed: some connect met EAGAIN (and is retrying), however slow the machine.
  const stoppedAt = performance.now();
  await until(() => metEagain.size > 0, { everyMs: 5, what: "a connect meets the full accept queue" });
  const stoppedMs = Math.round(performance.now() - stoppedAt);
  resume();
  const outcomes = await bounded("every connect settles", 30_000, Promise.all(connects));
  const tally = Object.fromEntries([...new Set(outcomes)].map((o) => [o, outcomes.filter((x) => x === o).length]));
  expect(tally).toEqual({ connected: BURST });
  // The scenario only shows something if the queue did overflow.
  expect(metEagain.size).toBeGreaterThan(0);
  report("connect burst", {
    connects: BURST,
    brokerStoppedMs: stoppedMs,
    connectsThatMetEagain: metEagain.size,
    eagainRetries: eagain,
    connected: tally["connected"] ?? 0,
  });
});
