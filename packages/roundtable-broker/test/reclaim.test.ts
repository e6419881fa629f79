// The socket path after the claim: a broker whose path is taken from it closes, and a socket that accepts but never
// answers is refused as occupied. The claim's forced interleavings with a rival are claim-interleavings.test.ts.
import { renameSync, unlinkSync, writeFileSync, mkdirSync, linkSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { SocketPathUnresponsiveError, startBroker } from "@orphus/roundtable-broker";
import { probeBroker } from "@orphus/roundtable-locator";
import { RawPeer, capturingLogger, inodeAt, onCleanup, startTestBroker } from "./helpers.js";
import { tempDir } from "../../../test-support/tmp.js";
import { manualTimers } from "../../../test-support/manual-timers.js";

describe("the path watch", () => {
  test("a broker whose socket file is removed closes within its path check and says why", async () => {
    const timers = manualTimers();
    const logger = capturingLogger();
    const broker = await startTestBroker({ timers, logger, pathCheckMs: 1000, idleMs: 60_000 });
    const peer = await RawPeer.hello(broker.socketPath, "planner");
    expect(timers.fire(1000)).toBe(1);
    expect(broker.stats().connections).toBe(1);
    unlinkSync(broker.socketPath);
    expect(timers.fire(1000)).toBe(1);
    expect(timers.fire(100)).toBe(1);
    expect(await broker.closed).toEqual({ reason: "path-lost" });
    // Its clients see the connection end, loudly, rather than talk on to a broker nobody else can reach.
    await peer.closed;
    expect(logger.lines).toContain(
      "error the socket path no longer names this broker's socket; closing, since nobody can reach it there",
    );
  });

  test("a socket moved aside and put back between two checks does not close the broker", async () => {
    const timers = manualTimers();
    const broker = await startTestBroker({ timers, pathCheckMs: 1000 });
    const aside = join(broker.socketPath, "..", ".aside.sk");
    renameSync(broker.socketPath, aside);
    expect(timers.fire(1000)).toBe(1); // a miss
    linkSync(aside, broker.socketPath);
    unlinkSync(aside);
    expect(timers.fire(100)).toBe(1); // not confirmed: the watch goes on
    expect(timers.pending().map((t) => t.ms)).toContain(1000);
    const peer = await RawPeer.hello(broker.socketPath, "planner");
    expect(await peer.request({ id: 2, op: "status" })).toMatchObject({ ok: true });
  });

  test("the check runs on the injected timers at pathCheckMs, which is checked with the other options", async () => {
    const timers = manualTimers();
    await startTestBroker({ timers, pathCheckMs: 250 });
    expect(timers.pending().map((t) => t.ms)).toContain(250);
    await expect(startBroker({ agentDir: "/nonexistent/x", pathCheckMs: 0 })).rejects.toThrow(
      /Invalid broker option pathCheckMs: expected an integer from 1 to 2147483647, got 0/,
    );
  });
});

describe("a socket that accepts but never answers", () => {
  /** A listener that accepts connections and never says a word, linked into the socket path. */
  async function silentListener(socketPath: string): Promise<Server> {
    mkdirSync(join(socketPath, ".."), { recursive: true, mode: 0o700 });
    const accepted = new Set<Socket>();
    const server = createServer((socket) => accepted.add(socket));
    const privatePath = `${socketPath}.silent`;
    await new Promise<void>((resolve) => server.listen(privatePath, resolve));
    linkSync(privatePath, socketPath);
    onCleanup(() => {
      for (const socket of accepted) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return server;
  }

  test("is refused as occupied, naming the path and the pid file's pid, and left in place", async () => {
    const agentDir = tempDir();
    const socketPath = join(agentDir, "roundtable", "broker.sock");
    await silentListener(socketPath);
    writeFileSync(join(agentDir, "roundtable", "broker.pid"), JSON.stringify({ pid: 4242 }));
    const before = inodeAt(socketPath);
    const attempt = startBroker({ agentDir, probeTimeoutMs: 100 });
    await expect(attempt).rejects.toThrow(SocketPathUnresponsiveError);
    await expect(attempt).rejects.toMatchObject({
      code: "ERR_SOCKET_PATH_UNRESPONSIVE",
      message:
        `Cannot start the broker: something accepts connections on ${socketPath} but did not answer hello within ` +
        "100 ms: a broker that is stopped or hung (the pid file names pid 4242), or another program. The broker " +
        "never takes over a path in use: resume it (kill -CONT 4242) or stop it (kill 4242), then start again " +
        "(roundtable doctor tells more).",
    });
    expect(inodeAt(socketPath)).toBe(before);
    expect(await probeBroker(socketPath, 100)).toEqual({ state: "stale", reason: "timeout" });
  });
});
