// The rounds of a connect: a connection that ends before hello's reply is tried again after a jittered pause on the
// client's own timers, and the next round listens before it speaks, so a full broker's refusal sent at once (what a
// broker past its pending refusals does) is read as BrokerFullError instead of being lost to EPIPE.
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { encodeFrame } from "@orphus/framing";
import { BrokerFullError, ConnectionLostError, RoundtableClient, connectBrokerSocket } from "@orphus/roundtable-client";
import { manualTimers } from "../../../test-support/manual-timers.js";
import { until } from "../../../test-support/poll.js";
import { tempDir } from "../../../test-support/tmp.js";

/** A connection the test server accepted, and the bytes the client wrote on it. */
interface Accepted {
  readonly socket: Socket;
  readonly received: () => number;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A server on a real Unix socket doing `onConnection` with each connection; `accepted` lists them in order. */
async function server(
  onConnection: (accepted: Accepted, index: number) => void,
): Promise<{ path: string; accepted: Accepted[] }> {
  const path = join(tempDir(), "s.sock");
  const accepted: Accepted[] = [];
  const listening = createServer((socket) => {
    let bytes = 0;
    socket.on("data", (chunk: Buffer) => (bytes += chunk.length));
    socket.on("error", () => undefined);
    const entry = { socket, received: () => bytes };
    accepted.push(entry);
    onConnection(entry, accepted.length - 1);
  });
  servers.push(listening);
  await new Promise<void>((resolve) => listening.listen(path, resolve));
  return { path, accepted };
}

const fullRefusal = {
  id: null,
  ok: false,
  error: {
    code: "ERR_TOO_MANY_CONNECTIONS",
    message: "The broker (pid 4100) already serves its maximum of 8 connections; wait for sessions to finish",
    details: { maxConnections: 8, brokerPid: 4100 },
  },
};

test("a connection lost before hello's reply is retried after a jittered pause, listening first: a full broker is read as full", async () => {
  const { path, accepted } = await server((connection, index) => {
    // The first connection ends before any reply, as a broker past its pending refusals looks when its refusal is
    // lost; the second stays silent until the test has the broker speak.
    if (index === 0) connection.socket.destroy();
  });
  const timers = manualTimers();
  const client = new RoundtableClient({
    role: "planner",
    connector: () => connectBrokerSocket(path, 2000),
    timers,
    random: () => 0.5,
  });
  const outcome = client.connect().catch((error: unknown) => error);
  // The pause before the second round waits on the client's timers: 50 ms with jitter, here three quarters of it.
  await until(() => timers.pending().some((timer) => timer.ms === 38), { what: "the pause before the second round" });
  expect(accepted).toHaveLength(1);
  timers.fire(38);
  // The second round connects and listens before it writes hello.
  await until(() => accepted.length === 2 && timers.pending().some((timer) => timer.ms === 100), {
    what: "the second round listening first",
  });
  const second = accepted[1] as Accepted;
  second.socket.end(encodeFrame(fullRefusal), () => second.socket.destroy());
  const error = await outcome;
  expect(error).toBeInstanceOf(BrokerFullError);
  expect(error).toMatchObject({ code: "ERR_BROKER_FULL", maxConnections: 8, brokerPid: 4100 });
  // It heard the refusal without writing into the closing socket.
  expect(second.received()).toBe(0);
  client.close();
});

test("three rounds at most, each pause doubling with jitter; a broker that answers after listening is served", async () => {
  const lost = await server((connection) => connection.socket.destroy());
  const timers = manualTimers();
  const client = new RoundtableClient({
    role: "planner",
    connector: () => connectBrokerSocket(lost.path, 2000),
    timers,
    random: () => 0,
  });
  const outcome = client.connect().catch((error: unknown) => error);
  // Half of 50, then half of 100: the least the jitter gives.
  await until(() => timers.pending().some((timer) => timer.ms === 25), { what: "the first pause" });
  timers.fire(25);
  await until(() => timers.pending().some((timer) => timer.ms === 50), { what: "the second pause" });
  timers.fire(50);
  const error = await outcome;
  expect(error).toBeInstanceOf(ConnectionLostError);
  expect(lost.accepted).toHaveLength(3);
  client.close();

  // A broker that is not full says nothing until hello: the listening round writes hello once its wait is over.
  let first = true;
  const slow = await server((connection) => {
    if (first) {
      first = false;
      connection.socket.destroy();
      return;
    }
    connection.socket.once("data", () =>
      connection.socket.write(
        encodeFrame({
          id: 1,
          ok: true,
          op: "hello",
          result: {
            protocol: "orphus-roundtable",
            version: 2,
            role: "planner",
            brokerPid: 4100,
            brokerVersion: "0.0.0",
            store: "memory",
          },
        }),
      ),
    );
  });
  const served = new RoundtableClient({
    role: "planner",
    connector: () => connectBrokerSocket(slow.path, 2000),
    timers,
    random: () => 1,
  });
  const hello = served.connect();
  await until(() => timers.pending().some((timer) => timer.ms === 50), { what: "the pause at its longest jitter" });
  timers.fire(50);
  await until(() => slow.accepted.length === 2 && timers.pending().some((timer) => timer.ms === 100), {
    what: "the second round listening",
  });
  expect(slow.accepted[1]?.received()).toBe(0);
  timers.fire(100);
  await expect(hello).resolves.toMatchObject({ brokerPid: 4100 });
  served.close();
});
