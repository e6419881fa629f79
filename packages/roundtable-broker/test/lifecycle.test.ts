import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { SocketPathOccupiedError, startBroker } from "@orphus/roundtable-broker";
import { BrokerDirectoryError, SocketPathTooLongError, probeBroker } from "@orphus/roundtable-locator";
import { RawPeer, capturingLogger, startTestBroker } from "./helpers.js";
import { tempDir } from "../../../test-support/tmp.js";
import { until } from "../../../test-support/poll.js";
import { manualTimers } from "../../../test-support/manual-timers.js";
import { staleSocket } from "../../../test-support/sockets.js";

describe("start-up", () => {
  test("the directory is private (0700), the socket user-only (0600), and a pid file names the broker", async () => {
    const agentDir = tempDir();
    const broker = await startTestBroker({ agentDir });
    expect(broker.socketPath).toBe(join(agentDir, "roundtable", "broker.sock"));
    expect(statSync(join(agentDir, "roundtable")).mode & 0o777).toBe(0o700);
    const socket = lstatSync(broker.socketPath);
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o777).toBe(0o600);
    const pidFile = JSON.parse(readFileSync(join(agentDir, "roundtable", "broker.pid"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(pidFile).toMatchObject({ pid: process.pid, socketPath: broker.socketPath, startedAt: broker.startedAt });
  });

  test("an existing directory open to others is tightened to 0700", async () => {
    const agentDir = tempDir();
    mkdirSync(join(agentDir, "roundtable"), { mode: 0o755 });
    chmodSync(join(agentDir, "roundtable"), 0o755);
    await startTestBroker({ agentDir });
    expect(statSync(join(agentDir, "roundtable")).mode & 0o777).toBe(0o700);
  });

  test("a second broker on the same directory finds the first answering and stands down", async () => {
    const agentDir = tempDir();
    const first = await startTestBroker({ agentDir });
    const second = await startBroker({ agentDir });
    expect(second).toEqual({
      status: "stood-down",
      socketPath: first.socketPath,
      reason: "answered",
      peer: { state: "answered", pid: process.pid, version: expect.any(String) },
    });
    // The probe's connection came and went.
    await until(() => first.stats().connections === 0);
  });

  test("a stale socket file is reclaimed", async () => {
    const agentDir = tempDir();
    const socketPath = join(agentDir, "roundtable", "broker.sock");
    await staleSocket(socketPath);
    expect(await probeBroker(socketPath, 500)).toEqual({ state: "stale", reason: "refused" });
    const logger = capturingLogger();
    const broker = await startTestBroker({ agentDir, logger });
    expect(logger.lines).toContain("info reclaimed a stale socket");
    const peer = await RawPeer.hello(broker.socketPath, "planner");
    expect(await peer.request({ id: 2, op: "status" })).toMatchObject({ ok: true });
  });

  test("a regular file at the socket path is refused with a clear error and left intact", async () => {
    const agentDir = tempDir();
    const socketPath = join(agentDir, "roundtable", "broker.sock");
    mkdirSync(join(agentDir, "roundtable"), { mode: 0o700 });
    writeFileSync(socketPath, "precious notes\n");
    const attempt = startBroker({ agentDir });
    await expect(attempt).rejects.toThrow(SocketPathOccupiedError);
    await expect(attempt).rejects.toMatchObject({
      code: "ERR_SOCKET_PATH_OCCUPIED",
      message:
        `Cannot start the broker: ${socketPath} is a regular file, not a socket. The broker never removes what it ` +
        "did not create; move or delete it yourself, then start again.",
    });
    expect(readFileSync(socketPath, "utf8")).toBe("precious notes\n");
    unlinkSync(socketPath);
    mkdirSync(socketPath);
    await expect(startBroker({ agentDir })).rejects.toThrow(/is a directory, not a socket/);
    expect(statSync(socketPath).isDirectory()).toBe(true);
  });

  test("an agent directory too deep for a socket path fails before touching the disk", async () => {
    const agentDir = join(tempDir(), "x".repeat(100));
    await expect(startBroker({ agentDir })).rejects.toThrow(SocketPathTooLongError);
    expect(existsSync(agentDir)).toBe(false);
  });

  test("a broker directory that is a file is a typed error", async () => {
    const agentDir = tempDir();
    writeFileSync(join(agentDir, "roundtable"), "");
    await expect(startBroker({ agentDir })).rejects.toThrow(BrokerDirectoryError);
  });

  test("options are checked before any I/O", async () => {
    await expect(startBroker({ agentDir: "" })).rejects.toThrow(/Invalid broker option agentDir/);
    await expect(startBroker({ agentDir: "/nonexistent/x", idleMs: -1 })).rejects.toMatchObject({
      code: "ERR_BROKER_INVALID_OPTION",
    });
    await expect(
      startBroker({ agentDir: "/nonexistent/x", maxFrameBytes: 4096, maxOutboundBytes: 4096 }),
    ).rejects.toThrow(/maxOutboundBytes: expected an integer from 4100/);
    expect(existsSync("/nonexistent")).toBe(false);
  });
});

describe("idle exit and close", () => {
  test("an embedded broker closes when idle and the host process keeps running", async () => {
    const agentDir = tempDir();
    const start = await startBroker({ agentDir, idleMs: 20 });
    if (start.status !== "listening") throw new Error("expected to listen");
    const peer = await RawPeer.hello(start.broker.socketPath, "planner");
    peer.socket.destroy();
    expect(await start.broker.closed).toEqual({ reason: "idle" });
    expect(existsSync(start.broker.socketPath)).toBe(false);
    expect(existsSync(join(agentDir, "roundtable", "broker.pid"))).toBe(false);
    expect(process.exitCode ?? 0).toBe(0);
  });

  test("the idle timer arms when the last connection closes and a new connection cancels it", async () => {
    const timers = manualTimers();
    // The path watch shares the timers; only the idle timer (5000 ms) is looked at here.
    const idle = () => timers.pending().filter((t) => t.ms === 5000);
    const broker = await startTestBroker({ timers, idleMs: 5000 });
    expect(idle()).toHaveLength(1);
    const first = await RawPeer.hello(broker.socketPath, "a");
    expect(idle()).toHaveLength(0);
    const second = await RawPeer.hello(broker.socketPath, "b");
    first.socket.destroy();
    await until(() => broker.stats().connections === 1);
    expect(idle()).toHaveLength(0);
    second.socket.destroy();
    await until(() => idle().length === 1);
    const third = await RawPeer.hello(broker.socketPath, "c");
    expect(idle()).toHaveLength(0);
    third.socket.destroy();
    await until(() => idle().length === 1);
    expect(timers.fire(5000)).toBe(1);
    expect(await broker.closed).toEqual({ reason: "idle" });
  });

  test("close() ends every connection, removes its files, and is idempotent", async () => {
    const agentDir = tempDir();
    const broker = await startTestBroker({ agentDir });
    const peer = await RawPeer.hello(broker.socketPath, "planner");
    const closing = broker.close();
    expect(broker.close()).toBe(closing);
    expect(await closing).toEqual({ reason: "close" });
    await peer.closed;
    expect(existsSync(broker.socketPath)).toBe(false);
    expect(await broker.closed).toEqual({ reason: "close" });
    expect(await probeBroker(broker.socketPath, 500)).toEqual({ state: "absent" });
  });

  test("a broker whose path was taken over never removes its successor's socket", async () => {
    const agentDir = tempDir();
    const old = await startTestBroker({ agentDir });
    unlinkSync(old.socketPath);
    const successor = await startTestBroker({ agentDir });
    await old.close();
    expect(lstatSync(successor.socketPath).isSocket()).toBe(true);
    const peer = await RawPeer.hello(successor.socketPath, "planner");
    expect(await peer.request({ id: 2, op: "status" })).toMatchObject({ result: { pid: process.pid } });
    expect(JSON.parse(readFileSync(join(agentDir, "roundtable", "broker.pid"), "utf8"))).toMatchObject({
      startedAt: successor.startedAt,
    });
  });
});

describe("hello timeout", () => {
  test("a connection silent past the hello timeout is told why and closed; one that said hello stays", async () => {
    const timers = manualTimers();
    const broker = await startTestBroker({ timers, idleMs: 60_000, helloTimeoutMs: 750 });
    const talker = await RawPeer.hello(broker.socketPath, "planner");
    const silent = new RawPeer(broker.socketPath);
    await silent.connected;
    await until(() => broker.stats().connections === 2);
    // The talker's timer was cleared by its hello; only the silent connection's is pending (besides the path watch).
    const pending = timers.pending().filter((t) => t.ms !== 1000);
    expect(pending.map((t) => t.ms)).toEqual([750]);
    expect(timers.fire(750)).toBe(1);
    await silent.closed;
    expect(silent.frames).toEqual([
      {
        id: null,
        ok: false,
        error: {
          code: "ERR_HELLO_REQUIRED",
          message: "No hello within 750 ms of connecting; the broker closes connections that do not say hello",
          details: { helloTimeoutMs: 750 },
        },
      },
    ]);
    expect(broker.stats()).toMatchObject({ connections: 1, helloTimeouts: 1 });
    expect(await talker.request({ id: 2, op: "status" })).toMatchObject({ ok: true, result: { connections: 1 } });
  });

  test("a silent connection cannot keep an idle broker alive", async () => {
    const start = await startBroker({ agentDir: tempDir(), idleMs: 20, helloTimeoutMs: 50 });
    if (start.status !== "listening") throw new Error("expected to listen");
    const silent = new RawPeer(start.broker.socketPath);
    await silent.connected;
    await silent.closed;
    expect(await start.broker.closed).toEqual({ reason: "idle" });
    expect(start.broker.stats().helloTimeouts).toBe(1);
  });

  test("the hello timeout is checked with the other options", async () => {
    await expect(startBroker({ agentDir: "/nonexistent/x", helloTimeoutMs: 0 })).rejects.toThrow(
      /Invalid broker option helloTimeoutMs: expected an integer from 1 to 2147483647, got 0/,
    );
    await expect(startBroker({ agentDir: "/nonexistent/x", registryDir: "" })).rejects.toThrow(
      /Invalid broker option registryDir: expected a directory path or false/,
    );
  });
});
