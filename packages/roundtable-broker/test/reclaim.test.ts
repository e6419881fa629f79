// Claiming and reclaiming the socket path under forced interleavings. A broker's claim hooks pause it at the moment a
// rival may act (after it found the file stale; after it moved the file aside), the test starts the rival, then lets
// the first go on. Whatever the order, every broker still running owns its path, and a client on the path reaches it.
import { lstatSync, renameSync, unlinkSync, writeFileSync, mkdirSync, linkSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { SocketPathUnresponsiveError, startBroker, type Broker } from "@orphus/roundtable-broker";
import { probeBroker } from "@orphus/roundtable-locator";
import { RawPeer, capturingLogger, onCleanup, startTestBroker } from "./helpers.js";
import { tempDir } from "../../../test-support/tmp.js";
import { manualTimers } from "../../../test-support/manual-timers.js";
import { staleSocket } from "../../../test-support/sockets.js";

/** A gate a claim hook waits at: `reached` resolves when the broker gets there, `open()` lets it go on. */
function gate(): { wait: () => Promise<void>; reached: Promise<void>; open: () => void } {
  let arrive!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    reached,
    open: () => release(),
    wait: () => {
      arrive();
      return released;
    },
  };
}

/** The inode the socket path names now. */
function inodeAt(socketPath: string): bigint {
  return lstatSync(socketPath, { bigint: true }).ino;
}

/** A client on the path joins `room`, posts `body`, and leaves; resolves with the seq. */
async function postVia(socketPath: string, role: string, room: string, body: string): Promise<number> {
  const peer = await RawPeer.hello(socketPath, role);
  await peer.request({ id: 2, op: "join", room });
  const posted = await peer.request({ id: 3, op: "post", room, body });
  peer.socket.destroy();
  return (posted["result"] as { seq: number }).seq;
}

/** How many messages a new client on the path finds in `room`. */
async function messagesVia(socketPath: string, role: string, room: string): Promise<number> {
  const peer = await RawPeer.hello(socketPath, role);
  const joined = await peer.request({ id: 2, op: "join", room });
  peer.socket.destroy();
  return (joined["result"] as { newestSeq: number }).newestSeq;
}

function listening(start: Awaited<ReturnType<typeof startBroker>>): Broker {
  if (start.status !== "listening") throw new Error(`expected a listening broker, got ${JSON.stringify(start)}`);
  onCleanup(() => start.broker.close().then(() => undefined));
  return start.broker;
}

describe("reclaiming a stale socket against a rival", () => {
  test("a broker descheduled between finding the file stale and removing it never takes a rival's live path", async () => {
    // The reported case: after kill -9, broker A finds the socket stale and stalls before removing it; B reclaims
    // it and claims the path; a client posts to B. Then A acts. A must not remove B's socket, and a later client
    // must land on B and see the post.
    const agentDir = tempDir();
    const socketPath = join(agentDir, "roundtable", "broker.sock");
    await staleSocket(socketPath);
    const stalled = gate();
    const logA = capturingLogger();
    const startingA = startBroker({ agentDir, logger: logA, claimHooks: { beforeReclaim: stalled.wait } });
    await stalled.reached;

    const b = listening(await startBroker({ agentDir }));
    const bInode = inodeAt(socketPath);
    expect(await postVia(socketPath, "early", "lobby", "posted to B")).toBe(1);

    stalled.open();
    const a = await startingA;
    expect(a).toMatchObject({ status: "stood-down", reason: "answered", peer: { state: "answered" } });
    expect(logA.lines).toContain("info the socket path changed hands while reclaiming it; probing again");
    expect(logA.lines).not.toContain("info reclaimed a stale socket");
    expect(inodeAt(socketPath)).toBe(bInode);
    expect(await messagesVia(socketPath, "late", "lobby")).toBe(1);
    expect(b.stats().rooms).toBe(1);
  });

  test("three brokers: a newcomer that claims the path while a live socket is aside gives it back and closes", async () => {
    // A moves what it takes for the stale file aside, but it is B's live socket; in that moment C finds the path
    // empty and claims it. A puts B's socket back over C's link, and C, owning nothing, closes by its path watch.
    const agentDir = tempDir();
    const socketPath = join(agentDir, "roundtable", "broker.sock");
    await staleSocket(socketPath);
    const found = gate();
    const moved = gate();
    const startingA = startBroker({
      agentDir,
      claimHooks: { beforeReclaim: found.wait, afterMoveAside: moved.wait },
    });
    await found.reached;
    const b = listening(await startBroker({ agentDir }));
    const bInode = inodeAt(socketPath);
    expect(await postVia(socketPath, "early", "lobby", "posted to B")).toBe(1);
    found.open();
    await moved.reached;

    const timersC = manualTimers();
    const logC = capturingLogger();
    const c = listening(await startBroker({ agentDir, timers: timersC, logger: logC, pathCheckMs: 1000 }));
    expect(inodeAt(socketPath)).not.toBe(bInode);

    moved.open();
    expect(await startingA).toMatchObject({ status: "stood-down", reason: "answered" });
    expect(inodeAt(socketPath)).toBe(bInode);
    // C's watch: a miss, then the confirming check shortly after.
    expect(timersC.fire(1000)).toBe(1);
    expect(timersC.fire(100)).toBe(1);
    expect(await c.closed).toEqual({ reason: "path-lost" });
    expect(logC.lines).toContain(
      "error the socket path no longer names this broker's socket; closing, since nobody can reach it there"
    );
    // B kept its path and its room, and C's exit removed nothing of B's.
    expect(inodeAt(socketPath)).toBe(bInode);
    expect(await messagesVia(socketPath, "late", "lobby")).toBe(1);
    expect(b.stats().rooms).toBe(1);
  });
});

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
      "error the socket path no longer names this broker's socket; closing, since nobody can reach it there"
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
      /Invalid broker option pathCheckMs: expected an integer from 1 to 2147483647, got 0/
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
