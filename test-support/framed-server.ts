import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { attachFrameDecoder, encodeFrame } from "@orphus/framing";
import { shortTempDir } from "./tmp.js";

/** What a scripted server does with one request: a value to send back, undefined for the default, null for silence. */
export type Script = (request: Record<string, unknown>, socket: Socket) => unknown;

/** A real Unix-socket server speaking frames, scripted by the test, for the failure cases a real broker never shows. */
export interface FramedServer {
  readonly socketPath: string;
  readonly sockets: Set<Socket>;
  readonly requests: Record<string, unknown>[];
  send(socket: Socket, value: unknown): void;
  close(): Promise<void>;
}

/** Replies to hello like a broker would, unless the script answers it. */
export function helloReply(request: Record<string, unknown>): unknown {
  return {
    id: request["id"],
    ok: true,
    op: "hello",
    result: {
      protocol: "orphus-roundtable",
      version: 2,
      role: request["role"],
      brokerPid: 1,
      brokerVersion: "0.0.0",
      store: "memory",
    },
  };
}

/** Starts a scripted server on `socketPath` (default `<dir>/s.sock`). */
export async function startFramedServer(
  dir: string,
  script: Script,
  socketPath = join(dir, "s.sock"),
): Promise<FramedServer> {
  const sockets = new Set<Socket>();
  const requests: Record<string, unknown>[] = [];
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    attachFrameDecoder(socket, {
      onFrame: (value) => {
        const request = value as Record<string, unknown>;
        requests.push(request);
        // undefined: the default (hello answered like a broker would); null: no answer at all.
        const scripted = script(request, socket);
        const reply = scripted === undefined && request["op"] === "hello" ? helloReply(request) : scripted;
        if (reply !== undefined && reply !== null) socket.write(encodeFrame(reply));
      },
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    socketPath,
    sockets,
    requests,
    send: (socket, value) => socket.write(encodeFrame(value)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Registers per-test set-up: a short temporary directory and, once `start` is called, a scripted server in it. */
export function useFramedServer(): { start: (script: Script) => Promise<FramedServer>; current: () => FramedServer } {
  let temp: ReturnType<typeof shortTempDir> | undefined;
  let server: FramedServer | undefined;
  beforeEach(() => {
    temp = shortTempDir();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    temp?.remove();
  });
  return {
    start: async (script) => {
      await server?.close();
      server = await startFramedServer((temp as { dir: string }).dir, script);
      return server;
    },
    current: () => {
      if (server === undefined) throw new Error("no scripted server started");
      return server;
    },
  };
}
