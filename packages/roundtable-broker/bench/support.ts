// Shared by the broker benchmarks: separate processes for the broker (the bundled bin, as a published install
// spawns it, or the fan-out entry bundled the same way) and for the floors (raw echo, raw forwarder, framed JS
// echo), and clients that count frames by their headers alone, so the client side costs the same whichever server
// it talks to.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { FrameDecoder, encodeFrame } from "@orphus/framing";
import { applyPlacement, latencyPlacements, type Placement } from "../../../bench-support/cpu.js";
import type { RatioReport } from "../../../bench-support/report.js";
import { brokerBin, bundlePrograms } from "../../../test-support/target.js";
import { binBuild } from "../tsup.config.js";

/** The body of every benchmark post (180 characters), so a post frame and its floor's frame are 228 bytes. */
export const POST_BODY =
  "The ring keeps 500 messages; sequence numbers are never reused, so afterSeq stays stable. ".repeat(2);

/** Milliseconds printed as microseconds, for a figure's detail. */
export function micros(ms: number): string {
  return `${(ms * 1000).toFixed(1)} µs`;
}

/** The processes and temporary directories a benchmark started, ended and removed by {@link withBenchScope}. */
export interface BenchScope {
  readonly children: ChildProcess[];
  readonly cleanups: (() => void)[];
}

/** Runs `body`, then stops every child it started and removes every directory it made, even when it throws. */
export async function withBenchScope(body: (scope: BenchScope) => Promise<void>): Promise<void> {
  const scope: BenchScope = { children: [], cleanups: [] };
  try {
    await body(scope);
  } finally {
    await Promise.all(scope.children.map(stop));
    for (const cleanup of scope.cleanups.reverse()) cleanup();
  }
}

/** One latency placement being measured: where, the suffix of its figures' names, and whether targets apply. */
export interface PlacedRun {
  readonly placement: Placement;
  /** True for the same-CPU (or unpinned) figure the targets are judged on; false for the cross-CPU one beside it. */
  readonly judged: boolean;
  /** "" when judged, "-cross-cpu" otherwise. */
  readonly suffix: string;
  /** `target` where this run is judged, nothing where not: spread into a {@link RatioReport}. */
  readonly target: (target: NonNullable<RatioReport["target"]>) => Pick<RatioReport, "target">;
}

/**
 * Runs `measure` once per latency placement (bench-support/cpu.ts), after moving this process and `servers` there:
 * client and servers on one CPU (judged), then on different CPUs (reported beside it). A placement this machine
 * cannot give is printed as not measured, under `label`.
 */
export async function acrossPlacements(
  label: string,
  servers: readonly ChildProcess[],
  measure: (run: PlacedRun) => Promise<void>,
): Promise<void> {
  for (const placement of latencyPlacements()) {
    const judged = placement.kind !== "cross-cpu";
    const suffix = judged ? "" : "-cross-cpu";
    if (placement.unavailable !== undefined) {
      process.stdout.write(`${label}${suffix}: not measured (${placement.unavailable})\n`);
      continue;
    }
    applyPlacement(
      placement,
      servers.map((child) => child.pid as number),
    );
    await measure({ placement, judged, suffix, target: (target) => (judged ? { target } : {}) });
  }
}

/** A temporary directory (short, for socket paths), removed by `cleanup`. */
export function tempDir(cleanups: (() => void)[]): string {
  const dir = mkdtempSync(join(tmpdir(), "rt-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Builds the bin as it ships (tsup.config.ts's binBuild, the Redis store in a chunk of its own) once; removed by `cleanup`. */
export async function bundledBin(cleanups: (() => void)[]): Promise<string> {
  const { bin, remove } = await brokerBin();
  cleanups.push(remove);
  return bin;
}

/** Builds the fan-out benchmarks' broker (bench/broker-entry.ts) the way the bin is built; removed by `cleanup`. */
export async function bundledFanOutBroker(cleanups: (() => void)[]): Promise<string> {
  const { dir, remove } = await bundlePrograms(
    { "broker-entry": join(import.meta.dirname, "broker-entry.ts") },
    { prefix: "rt-bench-", base: binBuild },
  );
  cleanups.push(remove);
  return join(dir, "broker-entry.js");
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

/** The socket of the broker over `agentDir`. */
export function brokerSocket(agentDir: string): string {
  return join(agentDir, "roundtable", "broker.sock");
}

/**
 * Spawns a broker program (the bin, or the fan-out entry) over `agentDir`, with `env` added; resolves once it
 * accepts connections. With `cpuProbe` (the fan-out entry only) it gets an IPC channel to answer {@link cpuMicros}
 * over; without, none, so the other benchmarks run the broker exactly as before.
 */
export async function spawnBroker(
  program: string,
  agentDir: string,
  env?: NodeJS.ProcessEnv,
  options: { readonly cpuProbe?: boolean } = {},
): Promise<ChildProcess> {
  const entry = program.endsWith("broker-entry.js");
  const args = entry ? [program, agentDir] : [program, "--agent-dir", agentDir, "--idle-ms", "600000"];
  const child = spawn(process.execPath, args, {
    stdio: entry && options.cpuProbe === true ? ["ignore", "ignore", "ignore", "ipc"] : "ignore",
    env: { ...process.env, ...env },
  });
  (await connectWhenReady(brokerSocket(agentDir))).destroy();
  return child;
}

/**
 * The floors: a raw echo, a framed JS echo (decodes and encodes), a raw forwarder (answers and forwards), a framed JS
 * forwarder (decodes, answers, and sends each other connection one counted posts event per read), or another
 * server of this folder run from source with its arguments after the socket (the Redis benchmark's EVALSHA proxy).
 */
export type Floor =
  | "echo"
  | "framed-echo"
  | "forwarder"
  | "framed-forwarder"
  | { readonly program: string; readonly args: readonly string[] };

/** Spawns a floor server on `socketPath`; resolves once it listens. With `cpuProbe`, as {@link spawnBroker}. */
export async function spawnFloor(
  floor: Floor,
  socketPath: string,
  options: { readonly cpuProbe?: boolean } = {},
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
    typeof floor === "object"
      ? fromSource(floor.program, floor.args)
      : floor === "framed-echo" || floor === "framed-forwarder"
        ? fromSource(`${floor}-server.ts`)
        : [join(import.meta.dirname, floor === "echo" ? "echo-server.mjs" : "forwarder-server.mjs"), socketPath];
  const child = spawn(process.execPath, args, {
    stdio: options.cpuProbe === true ? ["ignore", "pipe", "inherit", "ipc"] : ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => child.stdout?.once("data", () => resolve()));
  return child;
}

/**
 * The CPU time, user and system, in microseconds, that `child` (the fan-out entry, or a floor that answers probes)
 * has used so far, asked over its IPC channel: getrusage's resolution, where /proc's clock ticks are 10 ms.
 */
export function cpuMicros(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    if (child.send === undefined || !child.connected) {
      reject(new Error(`process ${child.pid} has no IPC channel to ask its CPU time over`));
      return;
    }
    child.once("message", (usage: { user: number; system: number }) => resolve(usage.user + usage.system));
    child.send("cpu");
  });
}

/** Ends a child process and waits for it. */
export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/**
 * Counts whole frames in a byte stream by their 4-byte headers, never decoding a payload: a client of the broker and
 * a client of a floor then do the same work per frame, so the ratio is the servers'.
 */
export class FrameCounter {
  frames = 0;
  /** Header bytes read of the frame in progress (0 to 3), and their value so far. */
  #headerBytes = 0;
  #length = 0;
  /** Payload bytes of the frame in progress still to come. */
  #remaining = 0;

  /** Reads `chunk`; returns how many frames it completed. */
  push(chunk: Buffer): number {
    let done = 0;
    let offset = 0;
    while (offset < chunk.length) {
      if (this.#remaining > 0) {
        const take = Math.min(this.#remaining, chunk.length - offset);
        offset += take;
        this.#remaining -= take;
        if (this.#remaining === 0) done++;
      } else if (this.#headerBytes === 0 && chunk.length - offset >= 4) {
        this.#remaining = chunk.readUInt32BE(offset);
        offset += 4;
        if (this.#remaining === 0) done++;
      } else {
        this.#length = this.#length * 256 + (chunk[offset] as number);
        offset++;
        if (++this.#headerBytes === 4) {
          this.#remaining = this.#length;
          this.#headerBytes = 0;
          this.#length = 0;
          if (this.#remaining === 0) done++;
        }
      }
    }
    this.frames += done;
    return done;
  }
}

/** Frames received by a set of connections together, and a wait for the total to reach a count. */
export class FrameTally {
  total = 0;
  /** When the total last reached the count waited for (performance.now()). */
  reachedAt = 0;
  #target = Number.POSITIVE_INFINITY;
  #resolve: (() => void) | undefined;

  /** Counts `frames` more; called from a connection's data handler. */
  add(frames: number): void {
    this.total += frames;
    if (this.total >= this.#target && this.#resolve !== undefined) {
      this.reachedAt = performance.now();
      const resolve = this.#resolve;
      this.#resolve = undefined;
      this.#target = Number.POSITIVE_INFINITY;
      resolve();
    }
  }

  /** Resolves once the total reaches `count`, noting the time it did in `reachedAt`. */
  until(count: number): Promise<void> {
    if (this.total >= count) {
      this.reachedAt = performance.now();
      return Promise.resolve();
    }
    this.#target = count;
    return new Promise((resolve) => (this.#resolve = resolve));
  }
}

/** A frame-speaking client: counts every frame that comes back (by header) and can wait for a count. */
export class BenchClient {
  readonly socket: Socket;
  /** Where its frames count; a group of listeners shares one. */
  tally: FrameTally;
  readonly #counter = new FrameCounter();

  private constructor(socket: Socket, tally: FrameTally) {
    this.socket = socket;
    this.tally = tally;
    socket.setNoDelay?.(true);
    socket.on("data", (chunk: Buffer) => {
      const frames = this.#counter.push(chunk);
      if (frames > 0) this.tally.add(frames);
    });
  }

  /** Connects to `socketPath`; frames it receives count in `tally` (its own by default). */
  static async connect(socketPath: string, tally = new FrameTally()): Promise<BenchClient> {
    return new BenchClient(await connectWhenReady(socketPath), tally);
  }

  /** Frames this client received. */
  get received(): number {
    return this.#counter.frames;
  }

  /** Resolves once `count` frames in all have come back (to this client's tally). */
  until(count: number): Promise<void> {
    return this.tally.until(count);
  }

  /** Writes `frame` and resolves when the next frame comes back (a reply, or the echo). */
  roundTrip(frame: Buffer): Promise<void> {
    const next = this.tally.total + 1;
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

/** The hello a benchmark client says, as `role`, at this protocol version. */
export function helloFrame(role: string): Buffer {
  return encodeFrame({ id: 1, op: "hello", protocol: "orphus-roundtable", version: 2, role, pid: process.pid });
}

/**
 * Says hello as `role` and joins `room`; once joined, its frames count in `tally` (its own by default), so the join
 * events of members joining later are all a shared tally sees of the set-up.
 */
export async function member(socketPath: string, role: string, room: string, tally?: FrameTally): Promise<BenchClient> {
  const client = await BenchClient.connect(socketPath);
  client.socket.write(Buffer.concat([helloFrame(role), encodeFrame({ id: 2, op: "join", room })]));
  await client.until(2);
  if (tally !== undefined) client.tally = tally;
  return client;
}

/** The broker's status result, over a connection of its own (decoded, unlike the counting clients). */
export async function brokerStatus(socketPath: string): Promise<Record<string, unknown>> {
  const socket = await connectWhenReady(socketPath);
  const decoder = new FrameDecoder();
  return new Promise((resolve) => {
    socket.on("data", (chunk: Buffer) =>
      decoder.push(chunk, (value) => {
        const reply = value as { id?: number; result?: Record<string, unknown> };
        if (reply.id !== 2) return;
        socket.destroy();
        resolve(reply.result ?? {});
      }),
    );
    socket.write(Buffer.concat([helloFrame("bench-status"), encodeFrame({ id: 2, op: "status" })]));
  });
}

/**
 * Pipelines `count` frames from `client` with at most `window` unanswered, refilling as answers come back, and
 * returns the answered frames per second.
 */
export async function pipelinedRate(
  client: BenchClient,
  frame: () => Buffer,
  count: number,
  window: number,
): Promise<number> {
  const base = client.tally.total;
  let sent = 0;
  const start = performance.now();
  const refill = (): void => {
    const batch: Buffer[] = [];
    while (sent < count && sent - (client.tally.total - base) < window) {
      batch.push(frame());
      sent++;
    }
    if (batch.length > 0) client.socket.write(Buffer.concat(batch));
  };
  refill();
  while (client.tally.total - base < count) {
    await client.until(Math.min(base + count, client.tally.total + window / 2));
    refill();
  }
  return count / ((performance.now() - start) / 1000);
}
