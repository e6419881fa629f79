// What a client says when it cannot get a connection: a full broker, an agent directory that cannot hold one.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { startBroker } from "@orphus/roundtable-broker";
import {
  AgentDirNotDirectoryError,
  BrokerFullError,
  RoundtableClient,
  connectBrokerSocket,
  createRoundtableClient,
  type SpawnFunction,
} from "@orphus/roundtable-client";
import { tempDir } from "../../../test-support/tmp.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

test("20 clients meeting a full broker each get BrokerFullError saying so, and what helps", async () => {
  const start = await startBroker({ agentDir: tempDir(), registryDir: false, maxConnections: 1 });
  if (start.status !== "listening") throw new Error("expected a listening broker");
  cleanups.push(() => start.broker.close());
  const client = (role: string): RoundtableClient => {
    const made = new RoundtableClient({ role, connector: () => connectBrokerSocket(start.broker.socketPath, 2_000) });
    cleanups.push(() => made.close());
    return made;
  };
  await client("seated").connect();
  const outcomes = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      client(`late-${i}`)
        .join("lobby")
        .catch((error: unknown) => error),
    ),
  );
  for (const outcome of outcomes) {
    expect(outcome).toBeInstanceOf(BrokerFullError);
    expect(outcome).toMatchObject({
      code: "ERR_BROKER_FULL",
      maxConnections: 1,
      brokerPid: process.pid,
      message:
        `The roundtable broker (pid ${process.pid}) is full: it already serves its maximum of 1 connections. Wait ` +
        "for other sessions to finish, or close sessions you no longer need (each holds one connection), then try " +
        "again. The broker and its rooms are fine: do not stop it.",
    });
  }
  expect(start.broker.stats()).toMatchObject({ connections: 1, connectionsRefused: 20 });
});

test("an agent directory that is a file fails the first call with its typed error, and no broker is spawned", async () => {
  const agentDir = join(tempDir(), "agent");
  writeFileSync(agentDir, "");
  let spawns = 0;
  const spawn: SpawnFunction = () => {
    spawns++;
    throw new Error("no broker may be spawned for an agent directory that cannot hold one");
  };
  const client = createRoundtableClient({ agentDir, role: "planner", spawn, onWarning: () => undefined });
  cleanups.push(() => client.close());
  const error = await client.join("lobby").catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AgentDirNotDirectoryError);
  expect(error).toMatchObject({ code: "ERR_AGENT_DIR_NOT_A_DIRECTORY", agentDir, path: agentDir });
  expect(spawns).toBe(0);
});
