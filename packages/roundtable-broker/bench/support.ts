// Shared by the broker benchmarks: separate processes for the broker (the bundled bin, as a published install
// spawns it) and for the raw echo floor, and one client that talks to either the same way.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { FrameDecoder, encodeFrame } from "@orphus/framing";
import { build } from "tsup";
import { brokerSourceBinPath } from "@orphus/roundtable-broker";
import { bundledProgramBuild } from "../../../tsup.base.js";
import { bundleBrokerBin } from "../test/bundle-bin.js";

/** A temporary directory (short, for socket paths), removed by `cleanup`. */
export function tempDir(cleanups: (() => void)[]): string {
  const dir = mkdtempSync(join(tmpdir(), "rt-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Builds the bundled bin once; removed by `cleanup`. */
export async function bundledBin(cleanups: (() => void)[]): Promise<string> {
  const bin = await bundleBrokerBin();
  cleanups.push(() => rmSync(dirname(dirname(bin)), { recursive: true, force: true }));
  return bin;
}

/**
 * Builds the bin with the Redis store bundled in (the published bin imports `@orphus/rooms-redis` from beside it,
 * which a bundle in a temporary directory has not): the same code, resolved at build time. Removed by `cleanup`.
 */
export async function bundledBinWithRedisStore(cleanups: (() => void)[]): Promise<string> {
  const outDir = tempDir(cleanups);
  await build({ ...bundledProgramBuild({ "bin/broker": brokerSourceBinPath() }), outDir, silent: true, config: false });
  return join(outDir, "bin", "broker.js");
}

/** Connects to `socketPath`, retrying every millisecond while nothing listens there yet. */
export function connectWhenReady(socketPath: string): Promise<Socket> {
  return new Promise((resolve) => {
    const attempt = (): void => {
      const socket = connect(socketPath);
      socket.once("connect", () => {
        socket.removeAllListeners("error");
        resolve(socket);
      });
      socket.once("error", () => setTimeout(attempt, 1));
    };
    attempt();
  });
}

/** Spawns a broker from the bundled bin over `agentDir` (with `env` added); resolves once it accepts connections. */
export async function spawnBroker(bin: string, agentDir: string, env?: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bin, "--agent-dir", agentDir, "--idle-ms", "600000"], {
    stdio: "ignore",
    env: { ...process.env, ...env },
  });
  (await connectWhenReady(join(agentDir, "roundtable", "broker.sock"))).destroy();
  return child;
}

/**
 * Spawns the raw echo server on `socketPath` (or, with `framed`, the minimal framed JS server; or any other floor of
 * this folder, run from source with its arguments after the socket); resolves once it listens.
 */
export async function spawnEcho(
  socketPath: string,
  floor: boolean | { readonly program: string; readonly args: readonly string[] } = false,
): Promise<ChildProcess> {
  const fromSource = (program: string, args: readonly string[] = []): string[] => [
    "--conditions=@orphus/source",
    "--import",
    "tsx",
    join(import.meta.dirname, program),
    socketPath,
    ...args,
  ];
  const args =
    floor === false
      ? [join(import.meta.dirname, "echo-server.mjs"), socketPath]
      : floor === true
        ? fromSource("framed-echo-server.ts")
        : fromSource(floor.program, floor.args);
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => child.stdout?.once("data", () => resolve()));
  return child;
}

/** Ends a child process and waits for it. */
export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** A frame-speaking client: counts every frame that comes back and can wait for the next one. */
export class BenchClient {
  readonly socket: Socket;
  received = 0;
  #decoder = new FrameDecoder();
  #waiter: (() => void) | undefined;
  #target = 0;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setNoDelay?.(true);
    socket.on("data", (chunk: Buffer) => {
      this.#decoder.push(chunk, () => this.received++);
      if (this.#waiter !== undefined && this.received >= this.#target) {
        const waiter = this.#waiter;
        this.#waiter = undefined;
        waiter();
      }
    });
  }

  static async connect(socketPath: string): Promise<BenchClient> {
    return new BenchClient(await connectWhenReady(socketPath));
  }

  /** Resolves once `count` frames in all have come back. */
  until(count: number): Promise<void> {
    if (this.received >= count) return Promise.resolve();
    this.#target = count;
    return new Promise((resolve) => (this.#waiter = resolve));
  }

  /** Writes `frame` and resolves when the next frame comes back (a reply, or the echo). */
  roundTrip(frame: Buffer): Promise<void> {
    const next = this.received + 1;
    this.socket.write(frame);
    return this.until(next);
  }

  /** Sends a request object and waits for its reply (requests on one connection are answered in order). */
  request(value: unknown): Promise<void> {
    return this.roundTrip(encodeFrame(value));
  }

  close(): void {
    this.socket.destroy();
  }
}

/** Says hello as `role` and joins `room`. */
export async function member(socketPath: string, role: string, room: string): Promise<BenchClient> {
  const client = await BenchClient.connect(socketPath);
  await client.request({ id: 1, op: "hello", protocol: "orphus-roundtable", version: 1, role, pid: process.pid });
  await client.request({ id: 2, op: "join", room });
  return client;
}
