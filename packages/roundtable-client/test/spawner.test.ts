import { execFileSync, spawn } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createServer } from "node:net";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  BrokerBusyError,
  BrokerNotRunningError,
  BrokerStartError,
  connectBrokerSocket,
  openBrokerSocket,
  readLogTail,
  spawnDetachedBroker,
  type SpawnFunction,
} from "@orphus/roundtable-client";
import { manualTimers } from "../../../test-support/manual-timers.js";
import { until } from "../../../test-support/poll.js";
import { shortTempDir } from "../../../test-support/tmp.js";

// The client's internal bounds (not exported: no option sets them), pinned here by their behaviour.
/** Size past which the broker log is rotated when a broker is spawned. */
const MAX_BROKER_LOG_BYTES = 1024 * 1024;
/** Retries of a connection refused with EAGAIN before BrokerBusyError. */
const MAX_CONNECT_BUSY_RETRIES = 12;

let temp: ReturnType<typeof shortTempDir>;
const started: number[] = [];
beforeEach(() => {
  temp = shortTempDir();
});
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  temp.remove();
});

const node = (script: string, ...args: string[]) => ({ command: process.execPath, args: ["-e", script, ...args] });

/** A stand-in broker: says hello on stdout, listens on the socket it is given after a short delay, then idles. */
const LISTENER = `
  const net = require("node:net");
  console.log("listener starting");
  console.error("listener stderr line");
  setTimeout(() => net.createServer((s) => s.end()).listen(process.argv[1]), 150);
  setTimeout(() => process.exit(0), 20000);
`;

test("a broker is spawned detached in its own process group, its output in the log", async () => {
  const logPath = join(temp.dir, "logs", "broker.log");
  const broker = spawnDetachedBroker({ command: node("console.log('up'); setTimeout(() => {}, 20000)"), logPath });
  expect(broker.pid).toBeTypeOf("number");
  started.push(broker.pid as number);
  await until(() => readLogTail(logPath)?.includes("up") === true);
  const pgid = Number(execFileSync("ps", ["-o", "pgid=", "-p", String(broker.pid)], { encoding: "utf8" }).trim());
  expect(pgid).toBe(broker.pid);
  expect(pgid).not.toBe(
    Number(execFileSync("ps", ["-o", "pgid=", "-p", String(process.pid)], { encoding: "utf8" }).trim()),
  );
  expect(statSync(logPath).mode & 0o777).toBe(0o600);
  expect(broker.exit()).toBeUndefined();
});

test("the log is rotated at spawn once it has grown past its limit; its tail starts at a line", () => {
  const logPath = join(temp.dir, "broker.log");
  writeFileSync(logPath, "x".repeat(MAX_BROKER_LOG_BYTES + 1));
  const broker = spawnDetachedBroker({ command: node("process.exit(0)"), logPath });
  started.push(broker.pid as number);
  expect(statSync(logPath).size).toBeLessThan(100);
  expect(statSync(`${logPath}.1`).size).toBe(MAX_BROKER_LOG_BYTES + 1);
  writeFileSync(logPath, "first line\nsecond line\nthird line\n");
  expect(readLogTail(logPath, 20)).toBe("third line\n");
  expect(readLogTail(join(temp.dir, "missing.log"))).toBeUndefined();
});

test("when nothing answers, the broker is spawned and the socket retried until it answers", async () => {
  const socketPath = join(temp.dir, "b.sock");
  let spawns = 0;
  const socket = await openBrokerSocket({
    socketPath,
    spawn: { command: node(LISTENER, socketPath), logPath: join(temp.dir, "broker.log") },
    onSpawn: (broker) => {
      spawns++;
      started.push(broker.pid as number);
    },
  });
  expect(spawns).toBe(1);
  socket.destroy();
  expect(readFileSync(join(temp.dir, "broker.log"), "utf8")).toContain("listener starting");
});

test("a reset at connect (a broker killed a moment ago) counts as nothing answering: spawn and retry", async () => {
  const socketPath = join(temp.dir, "b.sock");
  let attempts = 0;
  const spawned: number[] = [];
  const socket = await openBrokerSocket({
    socketPath,
    spawn: { command: node(LISTENER, socketPath) },
    onSpawn: (broker) => {
      spawned.push(broker.pid as number);
      started.push(broker.pid as number);
    },
    connect: (path, timeoutMs, timers) => {
      attempts++;
      if (attempts === 1)
        return Promise.reject(Object.assign(new Error(`connect ECONNRESET ${path}`), { code: "ECONNRESET" }));
      return connectBrokerSocket(path, timeoutMs, timers);
    },
  });
  socket.destroy();
  expect(spawned).toHaveLength(1);
  expect(attempts).toBeGreaterThan(1);
  const refused = await openBrokerSocket({
    socketPath: join(temp.dir, "other.sock"),
    spawn: false,
    connect: (path) => Promise.reject(Object.assign(new Error(`connect ECONNRESET ${path}`), { code: "ECONNRESET" })),
  }).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(BrokerNotRunningError);
});

test("a broker that exits with a failure code fails the call at once, with its log tail", async () => {
  const socketPath = join(temp.dir, "b.sock");
  let spawns = 0;
  const counting: SpawnFunction = (command, args, options) => {
    spawns++;
    return spawn(command, args, options);
  };
  const error = await openBrokerSocket({
    socketPath,
    spawn: {
      command: node("console.error('cannot bind: EACCES on the agent directory'); process.exit(3)"),
      logPath: join(temp.dir, "broker.log"),
      spawn: counting,
    },
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BrokerStartError);
  expect(spawns).toBe(1);
  const message = (error as Error).message;
  expect(message).toMatch(
    /^The roundtable broker did not start on .*b\.sock: the broker process \(pid \d+\) exited with code 3 before it answered\n--- broker log \(tail\) ---\n/,
  );
  expect(message).toContain("cannot bind: EACCES on the agent directory");
  expect((error as BrokerStartError).code).toBe("ERR_BROKER_START_FAILED");
});

test("a broker that keeps standing down (exit 0) is replaced, at most 3 times", async () => {
  let spawns = 0;
  const counting: SpawnFunction = (command, args, options) => {
    spawns++;
    return spawn(command, args, options);
  };
  const error = await openBrokerSocket({
    socketPath: join(temp.dir, "b.sock"),
    spawn: { command: node("process.exit(0)"), spawn: counting },
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BrokerStartError);
  expect(spawns).toBe(3);
  expect((error as Error).message).toContain("exited with code 0 before it answered");
});

test("a broker program that does not exist fails at once, saying so", async () => {
  const error = await openBrokerSocket({
    socketPath: join(temp.dir, "b.sock"),
    spawn: { command: { command: join(temp.dir, "no-such-broker"), args: [] } },
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BrokerStartError);
  expect((error as Error).message).toContain("could not be started: spawn");
  expect((error as Error).message).toContain("ENOENT");
  expect((error as Error).message).toContain("(the broker log is empty)");
});

test("read-only callers never spawn: nothing answering is BrokerNotRunningError", async () => {
  const socketPath = join(temp.dir, "b.sock");
  const error = await openBrokerSocket({ socketPath, spawn: false }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BrokerNotRunningError);
  expect(error).toMatchObject({
    code: "ERR_BROKER_NOT_RUNNING",
    message: `No roundtable broker is running on ${socketPath}; the first session to use a room starts one`,
  });
});

describe("a busy socket (EAGAIN: the broker's accept queue is full)", () => {
  const eagain = (path: string): Promise<never> =>
    Promise.reject(Object.assign(new Error(`connect EAGAIN ${path}`), { code: "EAGAIN" }));
  const refuseSpawns: SpawnFunction = () => {
    throw new Error("a busy broker must not make the client spawn another");
  };
  test("is retried with a short, jittered, doubling backoff, and the connection made; nothing is spawned", async () => {
    const socketPath = join(temp.dir, "b.sock");
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    let attempts = 0;
    // Backoffs cost no real time: each pause runs in the next turn, the clock moved on by what it asked for.
    const timers = manualTimers({ runAtOnce: true });
    const socket = await openBrokerSocket({
      socketPath,
      spawn: { command: node("process.exit(0)"), spawn: refuseSpawns },
      timers,
      connect: (path, timeoutMs) => (++attempts <= 3 ? eagain(path) : connectBrokerSocket(path, timeoutMs)),
    });
    socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(attempts).toBe(4);
    expect(timers.asked()).toHaveLength(3);
    timers.asked().forEach((ms, i) => {
      const delay = 10 * 2 ** i;
      expect(ms).toBeGreaterThanOrEqual(delay / 2);
      expect(ms).toBeLessThanOrEqual(delay);
    });
  });

  test("gives up after MAX_CONNECT_BUSY_RETRIES with BrokerBusyError, still spawning nothing", async () => {
    const socketPath = join(temp.dir, "b.sock");
    let attempts = 0;
    const timers = manualTimers({ runAtOnce: true });
    const error = await openBrokerSocket({
      socketPath,
      spawn: { command: node("process.exit(0)"), spawn: refuseSpawns },
      timers,
      connect: (path) => {
        attempts++;
        return eagain(path);
      },
    }).catch((e: unknown) => e);
    expect(attempts).toBe(MAX_CONNECT_BUSY_RETRIES + 1);
    expect(error).toBeInstanceOf(BrokerBusyError);
    const waited = timers.asked().reduce((sum, ms) => sum + ms, 0);
    expect(error).toMatchObject({
      code: "ERR_BROKER_BUSY",
      message:
        `The roundtable broker on ${socketPath} did not accept the connection: its accept queue stayed full (EAGAIN) ` +
        `through ${MAX_CONNECT_BUSY_RETRIES + 1} attempts over ${waited} ms. It is running but overloaded; try again shortly.`,
    });
  });
});
