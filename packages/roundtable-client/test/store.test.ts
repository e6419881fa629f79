// The room store as a session meets it, without a Redis: a spawned broker that cannot open its store fails the call
// with its code, the store masked. (The doctor's and status's view: roundtable-cli's test/store.test.ts.)
import { afterEach, expect, test } from "vitest";
import { BrokerStartError, createRoundtableClient } from "@orphus/roundtable-client";
import { tempDir } from "../../../test-support/tmp.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const env = { ORPHUS_ROUNDTABLE_ROLE: "planner" };

test("a spawned broker that cannot reach its Redis fails the call at once, with its code and the store masked", async () => {
  const agentDir = tempDir();
  // Port 1 on loopback: nothing listens, so the broker's connection is refused and it exits 1.
  const asking = { ...process.env, ...env, ORPHUS_ROUNDTABLE_STORE: "redis://orphus:hunter2@127.0.0.1:1/0" };
  const client = createRoundtableClient({ agentDir, env: asking, onWarning: () => undefined });
  cleanups.push(() => client.close());
  const error = await client.join("lobby").catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(BrokerStartError);
  expect(error).toMatchObject({ code: "ERR_BROKER_START_FAILED", brokerCode: "ERR_BROKER_STORE_OPEN_FAILED" });
  expect((error as Error).message).toMatch(/exited with code 1 before it answered/);
  expect((error as Error).message).toContain(
    "Cannot open the room store redis://orphus:***@127.0.0.1:1/0 (ERR_STORE_UNAVAILABLE)",
  );
  expect((error as Error).message).not.toContain("hunter2");
});
