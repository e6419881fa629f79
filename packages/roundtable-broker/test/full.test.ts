// A broker at its connection limit: every peer past it reads ERR_TOO_MANY_CONNECTIONS, the reply to its first
// request, before the connection closes; nobody is left with a bare EPIPE.
import { describe, expect, test } from "vitest";
import { startBroker } from "@orphus/roundtable-broker";
import { RawPeer, frame, hello, startTestBroker } from "./helpers.js";
import { until } from "../../../test-support/poll.js";
import { manualTimers } from "../../../test-support/manual-timers.js";

/** How long a refused connection has to send its first request (internal to the broker, not exported). */
const FULL_REFUSAL_WAIT_MS = 2000;

const REFUSAL = {
  code: "ERR_TOO_MANY_CONNECTIONS",
  message:
    `The broker (pid ${process.pid}) already serves its maximum of 2 connections; wait for sessions to finish, or ` +
    "close sessions you no longer need, and connect again",
  details: { maxConnections: 2, brokerPid: process.pid },
};

describe("a full broker", () => {
  test("20 peers that write hello at once each read the refusal answering it, then the connection closes", async () => {
    const broker = await startTestBroker({ maxConnections: 2 });
    await RawPeer.hello(broker.socketPath, "a");
    await RawPeer.hello(broker.socketPath, "b");
    const late = Array.from({ length: 20 }, () => new RawPeer(broker.socketPath));
    const writes = late.map(async (peer, i) => {
      await peer.connected;
      // The client's order: hello goes out before anything is read.
      return peer.write(frame(hello(7 + i, `late-${i}`))).then(
        () => "written",
        (error: NodeJS.ErrnoException) => error.code,
      );
    });
    expect(await Promise.all(writes)).toEqual(late.map(() => "written"));
    await Promise.all(late.map((peer) => peer.closed));
    expect(late.map((peer) => peer.frames)).toEqual(
      late.map((_, i) => [{ id: 7 + i, ok: false, op: "hello", error: REFUSAL }]),
    );
    expect(broker.stats()).toMatchObject({ connections: 2, connectionsRefused: 20 });
  });

  test("a peer that sends nothing gets the refusal unprompted once the wait runs out", async () => {
    const timers = manualTimers();
    const broker = await startTestBroker({ maxConnections: 2, timers, idleMs: 60_000 });
    await RawPeer.hello(broker.socketPath, "a");
    await RawPeer.hello(broker.socketPath, "b");
    const silent = new RawPeer(broker.socketPath);
    await silent.connected;
    await until(() => broker.stats().connectionsRefused === 1);
    expect(timers.fire(FULL_REFUSAL_WAIT_MS)).toBe(1);
    await silent.closed;
    expect(silent.frames).toEqual([{ id: null, ok: false, error: REFUSAL }]);
  });

  test("the start-up probe of a full broker counts as an answer, with the broker's pid", async () => {
    const broker = await startTestBroker({ maxConnections: 1 });
    await RawPeer.hello(broker.socketPath, "a");
    expect(await startBroker({ agentDir: broker.agentDir })).toEqual({
      status: "stood-down",
      socketPath: broker.socketPath,
      reason: "answered",
      peer: { state: "answered", pid: process.pid },
    });
  });

  test("closing the broker ends the refused connections still waiting for their first frame", async () => {
    const timers = manualTimers();
    const broker = await startTestBroker({ maxConnections: 1, timers });
    await RawPeer.hello(broker.socketPath, "a");
    const waiting = new RawPeer(broker.socketPath);
    await waiting.connected;
    await until(() => broker.stats().connectionsRefused === 1);
    expect(await broker.close()).toEqual({ reason: "close" });
    await waiting.closed;
  });

  test("once a session leaves, the next connection is served", async () => {
    const broker = await startTestBroker({ maxConnections: 1 });
    const first = await RawPeer.hello(broker.socketPath, "a");
    const refused = new RawPeer(broker.socketPath);
    await refused.write(frame(hello(1, "b")));
    await refused.closed;
    first.socket.destroy();
    await until(() => broker.stats().connections === 0);
    const next = await RawPeer.hello(broker.socketPath, "b");
    expect(await next.request({ id: 2, op: "status" })).toMatchObject({ ok: true, result: { connections: 1 } });
  });
});
