import { execFileSync, spawn } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import {
  BrokerNotRunningError,
  BrokerStartError,
  MAX_BROKER_LOG_BYTES,
  connectBrokerSocket,
  openBrokerSocket,
  readLogTail,
  spawnDetachedBroker,
  type SpawnFunction,
} from "../src/index.js";
import { shortTempDir, until } from "./support/tmp.js";

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
  expect(pgid).not.toBe(Number(execFileSync("ps", ["-o", "pgid=", "-p", String(process.pid)], { encoding: "utf8" }).trim()));
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
      if (attempts === 1) return Promise.reject(Object.assign(new Error(`connect ECONNRESET ${path}`), { code: "ECONNRESET" }));
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
  expect(message).toMatch(/^The roundtable broker did not start on .*b\.sock: the broker process \(pid \d+\) exited with code 3 before it answered\n--- broker log \(tail\) ---\n/);
  expect(message).toContain("cannot bind: EACCES on the agent directory");
  expect((error as BrokerStartError).code).toBe("ERR_BROKER_START_FAILED");
});

test("a broker that keeps standing down (exit 0) is replaced, at most MAX_BROKER_SPAWNS times", async () => {
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
