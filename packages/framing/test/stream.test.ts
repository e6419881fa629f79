import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, expect, test } from "vitest";
import { attachFrameDecoder, encodeFrame } from "@orphus/framing";

let dir: string;
let server: Server;
let socketPath: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "framing-"));
  socketPath = join(dir, "s.sock");
});

afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** Starts a real Unix-socket server whose connections are decoded; resolves with what it saw. */
function serve(): Promise<{ frames: unknown[]; errors: unknown[]; closed: Promise<void> }> {
  return new Promise((resolve) => {
    const frames: unknown[] = [];
    const errors: unknown[] = [];
    let markClosed: () => void = () => undefined;
    const closed = new Promise<void>((r) => (markClosed = r));
    server = createServer((socket: Socket) => {
      attachFrameDecoder(socket, { onFrame: (v) => frames.push(v), onError: (e) => errors.push(e) });
      socket.on("close", () => markClosed());
    });
    server.listen(socketPath, () => resolve({ frames, errors, closed }));
  });
}

function connect(): Promise<Socket> {
  return new Promise((resolve) => {
    const client = createConnection(socketPath, () => resolve(client));
  });
}

test("frames written across many writes arrive whole and in order", async () => {
  const seen = await serve();
  const client = await connect();
  const bytes = Buffer.concat([encodeFrame({ a: 1 }), encodeFrame({ b: "x".repeat(70_000) }), encodeFrame([3])]);
  for (let i = 0; i < bytes.length; i += 777) client.write(bytes.subarray(i, i + 777));
  client.end();
  await seen.closed;
  expect(seen.frames).toEqual([{ a: 1 }, { b: "x".repeat(70_000) }, [3]]);
  expect(seen.errors).toEqual([]);
});

test("a malformed frame destroys the connection after delivering the frames before it", async () => {
  const seen = await serve();
  const client = await connect();
  const clientClosed = new Promise<void>((resolve) => client.on("close", () => resolve()));
  client.on("error", () => undefined);
  const bad = Buffer.from([0, 0, 0, 3, 0x7b, 0x7b, 0x7b]);
  client.write(Buffer.concat([encodeFrame("before"), bad, encodeFrame("after")]));
  await seen.closed;
  await clientClosed;
  expect(seen.frames).toEqual(["before"]);
  expect(seen.errors).toHaveLength(1);
  expect((seen.errors[0] as { code: string }).code).toBe("ERR_FRAME_MALFORMED");
});

test("a stream that ends mid-frame reports a truncation", async () => {
  const seen = await serve();
  const client = await connect();
  client.end(encodeFrame({ cut: "short" }).subarray(0, 9));
  await seen.closed;
  expect(seen.frames).toEqual([]);
  expect((seen.errors[0] as { code: string }).code).toBe("ERR_FRAME_TRUNCATED");
});

test("detach stops decoding", () => {
  const stream = new PassThrough();
  const frames: unknown[] = [];
  const detach = attachFrameDecoder(stream, {
    onFrame: (v) => {
      frames.push(v);
      detach();
    },
  });
  stream.write(encodeFrame(1));
  stream.write(encodeFrame(2));
  expect(frames).toEqual([1]);
});
