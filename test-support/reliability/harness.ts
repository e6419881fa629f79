// What every reliability scenario shares: the broker's bin as it ships and the client driver bundled into one file
// (plain node starts them fast, so 32 can start on a small machine), child processes speaking JSON lines, a broker
// spawned from the bin, and readings of real processes from /proc. In an installed run (`pnpm test:installed`) the bin
// is the installed one and the driver is bundled from the installed packages (../target.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, afterEach, beforeAll } from "vitest";
import { REGISTRY_DIR_ENV, probeBroker } from "@orphus/roundtable-locator";
import {
  createRoundtableClient,
  type CreateRoundtableClientOptions,
  type RoundtableClient,
  type SpawnedBroker,
} from "@orphus/roundtable-client";
import { until } from "../poll.js";
import { alive } from "../processes.js";
import { brokerBin, bundlePrograms, type BrokerBin, type BundledPrograms } from "../target.js";

/** The bundled programs of one test file. */
export interface Bundles {
  /** The broker bin, as a published install ships it. */
  readonly broker: string;
  /** The client driver (driver.ts, beside this file). */
  readonly driver: string;
  /** Instrumentation preloaded into a broker whose live memory a test reads (see {@link spawnBroker}). */
  readonly memoryProbe: string;
}

/**
 * The memory probe: on SIGUSR2 it collects garbage (twice, so finalizers of external memory have run) and writes
 * process.memoryUsage() to $RELIABILITY_MEMORY_FILE. It changes nothing in the broker; it lets a test tell memory the
 * broker still holds from garbage V8 has not collected yet, which resident memory alone cannot.
 */
const MEMORY_PROBE = `import { renameSync, writeFileSync } from "node:fs";
let reading = 0;
process.on("SIGUSR2", () => {
  globalThis.gc();
  setTimeout(() => {
    globalThis.gc();
    const file = process.env.RELIABILITY_MEMORY_FILE;
    writeFileSync(file + ".tmp", JSON.stringify({ reading: ++reading, ...process.memoryUsage() }));
    renameSync(file + ".tmp", file);
  }, 50);
});
`;

/** process.memoryUsage() of the broker after a full collection, in bytes. */
export interface LiveMemory {
  readonly rss: number;
  readonly heapTotal: number;
  readonly heapUsed: number;
  readonly external: number;
  readonly arrayBuffers: number;
}

/** A line the driver printed. */
export type DriverMessage = Record<string, unknown> & { readonly type: string };

/** A driver process: its messages as they come, a way to send it commands, and how it ended. */
export interface Driver {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly messages: DriverMessage[];
  /** Resolves with the first message of `type` (already received or to come); rejects if the process ends first. */
  next(type: string): Promise<DriverMessage>;
  send(command: string): void;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

const cleanups: (() => unknown)[] = [];
const pids = new Set<number>();

/** Runs `cleanup` after the current test, latest first. */
export function onCleanup(cleanup: () => unknown): void {
  cleanups.push(cleanup);
}

/** Kills `pid` with SIGKILL after the test unless it is gone by then: no process outlives its scenario. */
export function reap(pid: number | undefined): void {
  if (pid !== undefined) pids.add(pid);
}

/**
 * Per-file set-up: bundles the broker and the driver once, points the broker registry at a temporary directory
 * (every broker spawned from here inherits it, so nothing is written to the user's home), and after each test kills
 * whatever it left running and removes its directories.
 */
export function useHarness(): { bundles: () => Bundles } {
  let programs: BundledPrograms | undefined;
  let broker: BrokerBin | undefined;
  let bundles: Bundles | undefined;
  const registryDir = mkdtempSync(join(tmpdir(), "rtr-reg-"));
  process.env[REGISTRY_DIR_ENV] = registryDir;
  beforeAll(async () => {
    broker = await brokerBin();
    programs = await bundlePrograms(
      { driver: join(import.meta.dirname, "driver.ts") },
      { prefix: "rtr-bin-", whole: true },
    );
    const memoryProbe = join(programs.dir, "memory-probe.mjs");
    writeFileSync(memoryProbe, MEMORY_PROBE);
    bundles = { broker: broker.bin, driver: join(programs.dir, "driver.js"), memoryProbe };
  }, 60_000);
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    for (const pid of pids) {
      if (alive(pid)) process.kill(pid, "SIGKILL");
    }
    pids.clear();
  });
  afterAll(() => {
    programs?.remove();
    broker?.remove();
    rmSync(registryDir, { recursive: true, force: true });
  });
  return {
    bundles: () => {
      if (bundles === undefined) throw new Error("bundles are built in beforeAll");
      return bundles;
    },
  };
}

/** Starts a driver process in `mode` with `config`; it is killed after the test if still running. */
export function startDriver(bundles: Bundles, mode: string, config: Record<string, unknown>): Driver {
  const child = spawn(process.execPath, [bundles.driver, mode, JSON.stringify(config)], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const pid = child.pid as number;
  reap(pid);
  const messages: DriverMessage[] = [];
  const listeners = new Set<() => void>();
  let stderr = "";
  let ended = false;
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    try {
      messages.push(JSON.parse(line) as DriverMessage);
    } catch {
      messages.push({ type: "garbage", line: line.slice(0, 200) });
    }
    for (const listener of listeners) listener();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on("close", (code, signal) => {
      ended = true;
      for (const listener of listeners) listener();
      resolve({ code, signal, stderr });
    }),
  );
  child.stdin?.on("error", () => undefined);
  return {
    child,
    pid,
    messages,
    exit,
    send: (command) => void child.stdin?.write(`${command}\n`),
    next: (type) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const found = messages.find((m) => m.type === type);
          const failed = messages.find((m) => m.type === "error");
          if (found !== undefined) resolve(found);
          else if (failed !== undefined) reject(new Error(`driver ${pid} failed: ${JSON.stringify(failed)}`));
          else if (ended) reject(new Error(`driver ${pid} ended before "${type}": ${stderr}`));
          else return;
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      }),
  };
}

/**
 * A client in this process that spawns the bundled broker bin (idle `idleMs`) when nothing answers; closed after
 * the test, and every broker it spawned killed if still running. `spawned` lists them as they start.
 */
export function bundledClient(
  bundles: Bundles,
  agentDir: string,
  options: CreateRoundtableClientOptions & { idleMs?: number } = {},
): { client: RoundtableClient; spawned: SpawnedBroker[] } {
  const spawned: SpawnedBroker[] = [];
  const { idleMs = 2000, ...rest } = options;
  const client = createRoundtableClient({
    agentDir,
    role: "tester",
    onWarning: () => undefined,
    brokerCommand: {
      command: process.execPath,
      args: [bundles.broker, "--agent-dir", agentDir, "--idle-ms", String(idleMs)],
    },
    ...rest,
    onSpawn: (broker) => {
      spawned.push(broker);
      reap(broker.pid);
      rest.onSpawn?.(broker);
    },
  });
  onCleanup(() => client.close());
  return { client, spawned };
}

/** A broker spawned from the bundle. */
export interface SpawnedBundle {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly socketPath: string;
  readonly exit: Promise<number | null>;
  /** With `{ probeMemory: true }`: collects garbage in the broker and reads what it still holds. */
  readonly liveMemory: () => Promise<LiveMemory>;
}

/**
 * Spawns the bundled broker bin for `agentDir` and resolves once it answers; it is killed after the test. With
 * `probeMemory`, node runs it with --expose-gc and the memory probe preloaded (nothing else differs); `env` adds
 * variables (the room store's setting).
 */
export async function spawnBroker(
  bundles: Bundles,
  agentDir: string,
  flags: readonly string[] = [],
  options: { probeMemory?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<SpawnedBundle> {
  const memoryFile = join(agentDir, "memory.json");
  const probe = options.probeMemory === true ? ["--expose-gc", "--import", bundles.memoryProbe] : [];
  const child = spawn(process.execPath, [...probe, bundles.broker, "--agent-dir", agentDir, ...flags], {
    stdio: "ignore",
    env: { ...process.env, ...options.env, RELIABILITY_MEMORY_FILE: memoryFile },
  });
  const pid = child.pid as number;
  reap(pid);
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const socketPath = join(agentDir, "roundtable", "broker.sock");
  await until(
    async () => {
      const probe = await probeBroker(socketPath, 1000).catch(() => undefined);
      return probe?.state === "answered" && probe.pid === pid;
    },
    { everyMs: 20, what: `the broker ${pid} answers on ${socketPath}` },
  );
  let readings = 0;
  const liveMemory = async (): Promise<LiveMemory> => {
    if (options.probeMemory !== true)
      throw new Error("spawn the broker with { probeMemory: true } to read its live memory");
    readings++;
    process.kill(pid, "SIGUSR2");
    let memory: (LiveMemory & { reading: number }) | undefined;
    await until(
      () => {
        if (!existsSync(memoryFile)) return false;
        memory = JSON.parse(readFileSync(memoryFile, "utf8")) as LiveMemory & { reading: number };
        return memory.reading === readings;
      },
      { timeoutMs: 10_000, what: "the memory probe answers" },
    );
    return memory as LiveMemory;
  };
  return { child, pid, socketPath, exit, liveMemory };
}

/**
 * Resolves after `ms`: for a scenario's pacing (a client posting every 200 ms) or the length of a fault it holds (a
 * broker stopped for a while), never to wait for something to happen: wait for that with `until` (test-support/poll.ts)
 * or on its event.
 */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Rejects with `what` if `promise` takes longer than `timeoutMs`. */
export function bounded<T>(what: string, timeoutMs: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Resident memory of a process in KiB, from /proc/<pid>/status (VmRSS). */
export function rssKiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (match === null) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]);
}

/** Samples a process's resident memory every `everyMs` from now until stop() (or the end of the test). */
export function sampleRss(
  pid: number,
  everyMs = 20,
): { readonly baselineKiB: number; peakKiB: () => number; stop: () => void } {
  const baselineKiB = rssKiB(pid);
  let peak = baselineKiB;
  const timer = setInterval(() => {
    if (alive(pid)) peak = Math.max(peak, rssKiB(pid));
  }, everyMs);
  const stop = (): void => clearInterval(timer);
  onCleanup(stop);
  return { baselineKiB, peakKiB: () => peak, stop };
}

/** Live (non-zombie) broker processes running the bundle `bin` for `agentDir` (argv: node, bin, ..., agentDir, ...). */
export function brokerProcesses(bin: string, agentDir: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
    } catch {
      continue;
    }
    if (argv[1] === bin && argv.includes(agentDir) && alive(Number(entry))) found.push(Number(entry));
  }
  return found;
}

/** Prints a scenario's figures as one line, the form docs/reliability.md quotes. */
export function report(scenario: string, figures: Record<string, string | number | boolean>): void {
  const text = Object.entries(figures)
    .map(([key, value]) => `${key}=${value}`)
    .join(" ");
  process.stdout.write(`[reliability] ${scenario}: ${text}\n`);
}

/** A number with a fixed count of decimals, for figures. */
export function fixed(value: number, digits = 1): string {
  return value.toFixed(digits);
}
