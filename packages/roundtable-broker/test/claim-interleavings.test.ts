// @source-only: the claim's hooks are a seam of the sources (startBrokerWithHooks), not part of the published API.
// Claiming and reclaiming the socket path under forced interleavings. A broker's claim hooks pause it at the moment a
// rival may act (after it found the file stale; after it moved the file aside), the test starts the rival, then lets
// the first go on. Whatever the order, every broker still running owns its path, and a client on the path reaches it.
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { startBroker, type Broker, type BrokerStart } from "@orphus/roundtable-broker";
import { startBrokerWithHooks } from "../src/broker.js";
import { RawPeer, capturingLogger, inodeAt, onCleanup } from "./helpers.js";
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

function listening(start: BrokerStart): Broker {
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
    const startingA = startBrokerWithHooks({ agentDir, logger: logA }, { beforeReclaim: stalled.wait });
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
    const startingA = startBrokerWithHooks({ agentDir }, { beforeReclaim: found.wait, afterMoveAside: moved.wait });
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
      "error the socket path no longer names this broker's socket; closing, since nobody can reach it there",
    );
    // B kept its path and its room, and C's exit removed nothing of B's.
    expect(inodeAt(socketPath)).toBe(bInode);
    expect(await messagesVia(socketPath, "late", "lobby")).toBe(1);
    expect(b.stats().rooms).toBe(1);
  });
});
