// The probe over real Unix sockets in a temporary directory: what each thing found at a socket path is called. The
// broker's own tests probe real brokers (standing down, reclaiming, a stopped broker left alone).
import { mkdirSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { describe, expect, onTestFinished, test } from "vitest";
import { FrameDecoder, encodeFrame } from "@orphus/framing";
import { PROBE_ROLE, probeBroker } from "@orphus/roundtable-locator";
import { staleSocket } from "../../../test-support/sockets.js";
import { tempDir } from "../../../test-support/tmp.js";

/** Listens on a fresh socket path; `onConnection` decides what a peer gets. Closed after the test. */
async function listen(onConnection: (socket: Socket) => void): Promise<string> {
  const dir = join(tempDir(), "roundtable");
  mkdirSync(dir, { mode: 0o700 });
  const socketPath = join(dir, "broker.sock");
  const server: Server = createServer(onConnection);
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return socketPath;
}

/** A server that reads the probe's hello and answers it with `reply(hello)`. */
function answering(
  reply: (hello: Record<string, unknown>) => unknown,
  heard: unknown[] = [],
): (socket: Socket) => void {
  return (socket) => {
    const decoder = new FrameDecoder();
    socket.on("data", (chunk: Buffer) =>
      decoder.push(chunk, (value) => {
        heard.push(value);
        socket.write(encodeFrame(reply(value as Record<string, unknown>)));
      }),
    );
  };
}

describe("probeBroker", () => {
  test("nothing at the path is absent", async () => {
    expect(await probeBroker(join(tempDir(), "broker.sock"), 1000)).toEqual({ state: "absent" });
  });

  test("a socket file nobody listens on is stale: refused", async () => {
    const socketPath = join(tempDir(), "roundtable", "broker.sock");
    await staleSocket(socketPath);
    expect(await probeBroker(socketPath, 1000)).toEqual({ state: "stale", reason: "refused" });
  });

  test("a listener that closes without a word is stale: closed", async () => {
    const socketPath = await listen((socket) => socket.end());
    expect(await probeBroker(socketPath, 5000)).toEqual({ state: "stale", reason: "closed" });
  });

  test("a listener that accepts and stays silent for the whole timeout is stale: timeout", async () => {
    const socketPath = await listen(() => undefined);
    expect(await probeBroker(socketPath, 50)).toEqual({ state: "stale", reason: "timeout" });
  });

  test("a broker's hello reply is an answer naming its pid and version; the probe says hello as broker-probe", async () => {
    const heard: unknown[] = [];
    const socketPath = await listen(
      answering(
        (hello) => ({ id: hello["id"], ok: true, op: "hello", result: { brokerPid: 4242, brokerVersion: "9.9.9" } }),
        heard,
      ),
    );
    expect(await probeBroker(socketPath, 5000)).toEqual({ state: "answered", pid: 4242, version: "9.9.9" });
    expect(heard).toEqual([
      { id: 0, op: "hello", protocol: "orphus-roundtable", version: 3, role: PROBE_ROLE, pid: process.pid },
    ]);
  });

  test("a refusal is an answer too (another protocol version is still a live broker), its details read", async () => {
    const socketPath = await listen(
      answering((hello) => ({
        id: hello["id"],
        ok: false,
        error: { code: "ERR_PROTOCOL_MISMATCH", message: "other version", details: { brokerPid: 77 } },
      })),
    );
    expect(await probeBroker(socketPath, 5000)).toEqual({ state: "answered", pid: 77 });
  });

  test("an answer that is not our framing still means the path is in use", async () => {
    // A length header past the probe's 64 KiB frame limit: not a frame of ours, but something answered.
    const socketPath = await listen((socket) => socket.write(Buffer.from([0xff, 0xff, 0xff, 0xff])));
    expect(await probeBroker(socketPath, 5000)).toEqual({ state: "answered" });
  });
});
