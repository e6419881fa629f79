// Test peers that speak the wire by hand: frames are encoded here byte by byte and written straight to the
// socket, and what comes back is decoded with @orphus/framing's decoder. No client package is involved.
import { lstatSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { FrameDecoder } from "@orphus/framing";
import { afterEach } from "vitest";
import { startBroker, type Broker, type BrokerLogger, type BrokerOptions } from "@orphus/roundtable-broker";
import { tempDir } from "../../../test-support/tmp.js";

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runs `cleanup` after the current test. */
export function onCleanup(cleanup: () => Promise<void> | void): void {
  cleanups.push(cleanup);
}

/** A frame encoded by hand: the 4-byte big-endian length, then the UTF-8 JSON. */
export function frame(value: unknown): Buffer {
  const payload = Buffer.from(JSON.stringify(value), "utf8");
  const header = Buffer.alloc(4);
  header.writeUInt32BE(payload.length, 0);
  return Buffer.concat([header, payload]);
}

/** A hello frame value for `role`. */
export function hello(id: number, role: string, version = 2): Record<string, unknown> {
  return { id, op: "hello", protocol: "orphus-roundtable", version, role, pid: process.pid };
}

/** Starts an embedded broker in a fresh agent directory (unless one is given) and closes it after the test. */
export async function startTestBroker(options: Partial<BrokerOptions> = {}): Promise<Broker> {
  const agentDir = options.agentDir ?? tempDir();
  const start = await startBroker({ ...options, agentDir });
  if (start.status !== "listening") throw new Error(`expected a listening broker, got ${JSON.stringify(start)}`);
  onCleanup(() => start.broker.close().then(() => undefined));
  return start.broker;
}

type Frame = Record<string, unknown>;

/** A raw peer on the broker socket: writes bytes, collects decoded frames, and can wait for one. */
export class RawPeer {
  readonly socket: Socket;
  readonly frames: Frame[] = [];
  readonly closed: Promise<void>;
  readonly connected: Promise<void>;
  #waiters: (() => void)[] = [];
  #decoder = new FrameDecoder();

  constructor(socketPath: string) {
    this.socket = connect(socketPath);
    this.connected = new Promise((resolve, reject) => {
      this.socket.once("connect", () => resolve());
      this.socket.once("error", reject);
    });
    this.closed = new Promise((resolve) => this.socket.on("close", () => resolve()));
    this.socket.on("error", () => {});
    this.socket.on("data", (chunk: Buffer) => {
      this.#decoder.push(chunk, (value) => this.frames.push(value as Frame));
      this.#wake();
    });
    this.socket.on("close", () => this.#wake());
    onCleanup(() => {
      this.socket.destroy();
    });
  }

  #wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  /** Resolves once the socket is closed or `test` holds for the frames received so far. */
  async until(test: (frames: readonly Frame[]) => boolean): Promise<void> {
    while (!test(this.frames) && !this.socket.destroyed) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  write(bytes: Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(bytes, (error) => (error ? reject(error) : resolve())));
  }

  /** Sends a request (hand-encoded) and resolves with the reply carrying its id. */
  async request(value: Frame): Promise<Frame> {
    await this.write(frame(value));
    return this.reply(value["id"] as number);
  }

  /** Resolves with the reply carrying `id`, failing if the connection closes first. */
  async reply(id: number | null): Promise<Frame> {
    const find = (): Frame | undefined => this.frames.find((f) => "ok" in f && f["id"] === id);
    await this.until(() => find() !== undefined);
    const found = find();
    if (found === undefined) throw new Error(`connection closed before the reply to ${String(id)}`);
    return found;
  }

  /** The events (frames without an id) received so far. */
  events(): Frame[] {
    return this.frames.filter((f) => "event" in f);
  }

  /** Connects and says hello as a watcher (version 3, `watch: true`) labelled `role`. */
  static async watcher(socketPath: string, role = "viewer"): Promise<RawPeer> {
    const peer = new RawPeer(socketPath);
    await peer.connected;
    const reply = await peer.request({ ...hello(1, role, 3), watch: true });
    if (reply["ok"] !== true) throw new Error(`watcher hello refused: ${JSON.stringify(reply)}`);
    return peer;
  }

  /** The watch events received so far, without their `event` member. */
  watchEvents(): Frame[] {
    return this.frames.filter((f) => f["event"] === "watch").map(({ event: _event, ...rest }) => rest);
  }

  /** Connects and says hello as `role`. */
  static async hello(socketPath: string, role: string): Promise<RawPeer> {
    const peer = new RawPeer(socketPath);
    await peer.connected;
    const reply = await peer.request(hello(1, role));
    if (reply["ok"] !== true) throw new Error(`hello refused: ${JSON.stringify(reply)}`);
    return peer;
  }
}

/** A logger keeping `level message` lines, for tests that read what the broker said. */
export function capturingLogger(): BrokerLogger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (message) => lines.push(`info ${message}`),
    warn: (message) => lines.push(`warn ${message}`),
    error: (message) => lines.push(`error ${message}`),
  };
}

/** The inode the socket path names now: which socket file a claim left there. */
export function inodeAt(socketPath: string): bigint {
  return lstatSync(socketPath, { bigint: true }).ino;
}
