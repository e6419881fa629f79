// Starts a real redis-server for a test: on a free loopback port, in a temporary directory, with or without
// persistence, with an ACL user and password (the default user needs a password nobody has). Nothing is mocked and nothing is
// skipped: when redis-server is missing the test fails and says how to install it.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { until } from "./poll.js";

/** The ACL user and password every test server requires. */
export const REDIS_TEST_USER = "orphus";
export const REDIS_TEST_PASSWORD = "s3cret-test-password";

export interface RedisServerOptions {
  /** Append-only file with fsync on every write, so a restart keeps everything; default false (nothing kept). */
  readonly persistence?: boolean;
  /** Run the server pinned to one CPU with taskset (benchmarks), where taskset exists. */
  readonly pinCpu?: number;
}

export interface RedisServer {
  readonly port: number;
  /** `redis://user:password@127.0.0.1:port` */
  readonly url: string;
  readonly dir: string;
  /** Stops the server (SIGTERM: an append-only file is flushed) and waits for it to exit. */
  stop(): Promise<void>;
  /** Kills the server (SIGKILL: nothing is flushed, as in a crash) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port and directory. */
  start(): Promise<void>;
  /** Pauses (SIGSTOP) or resumes (SIGCONT) the process: a server that holds its connections and answers nothing. */
  pause(): void;
  resume(): void;
  /** Stops it for good and removes its directory. */
  close(): Promise<void>;
}

/** Where redis-server is, or a thrown error saying how to get it. */
export function redisServerPath(): string {
  const found = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" });
  const path = found.stdout.trim();
  if (found.status !== 0 || path === "") {
    throw new Error(
      "redis-server is not installed, and the Redis store's tests need a real one: " +
        "apt-get update && apt-get install -y redis-server (.ci/run installs it when it is missing)",
    );
  }
  return path;
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether the server on `port` answers an authenticated PING now. */
function answersPing(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    let answer = "";
    socket.setTimeout(500, () => socket.destroy());
    socket.on("error", () => resolve(false));
    socket.on("close", () => resolve(answer.includes("+PONG")));
    socket.on("connect", () => socket.write(`AUTH ${REDIS_TEST_USER} ${REDIS_TEST_PASSWORD}\r\nPING\r\n`));
    socket.on("data", (data) => {
      answer += data.toString();
      if (answer.includes("+PONG") || answer.includes("-")) socket.end();
    });
  });
}

/** Resolves once the server answers an authenticated PING, or rejects after `timeoutMs`. */
function waitUntilReady(port: number, timeoutMs: number): Promise<void> {
  return until(() => answersPing(port), { timeoutMs, everyMs: 50, what: `redis-server on port ${port} answers` });
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const binary = redisServerPath();
  const dir = mkdtempSync(join(tmpdir(), "orphus-redis-"));
  const port = await freePort();
  // A config file, because ACL rules hold spaces that command-line arguments would split.
  const config = join(dir, "redis.conf");
  writeFileSync(
    config,
    [
      `port ${port}`,
      "bind 127.0.0.1",
      `dir ${dir}`,
      "daemonize no",
      'save ""',
      `appendonly ${options.persistence === true ? "yes" : "no"}`,
      "appendfsync always",
      // The default user stays on behind a password nobody is told, so every client must log in as the ACL user.
      // Switching it off instead makes Redis 7.0 (Debian's 7.0.15) drop every MULTI block of the append-only file
      // at load (NOPERM at EXEC), and so every write of the store's script: a restart would lose everything.
      `user default on >${randomBytes(16).toString("hex")} ~* &* +@all`,
      `user ${REDIS_TEST_USER} on >${REDIS_TEST_PASSWORD} ~* &* +@all`,
      "loglevel warning",
      "",
    ].join("\n"),
  );
  const args = [config];
  const taskset =
    options.pinCpu === undefined
      ? ""
      : spawnSync("sh", ["-c", "command -v taskset"], { encoding: "utf8" }).stdout.trim();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let log = "";

  const start = async (): Promise<void> => {
    const [command, argv] =
      taskset === "" ? [binary, args] : [taskset, ["-c", String(options.pinCpu), binary, ...args]];
    const process = spawn(command, argv, { stdio: ["ignore", "pipe", "pipe"] });
    child = process;
    process.stdout?.on("data", (data: Buffer) => (log = (log + data.toString()).slice(-2000)));
    process.stderr?.on("data", (data: Buffer) => (log = (log + data.toString()).slice(-2000)));
    exited = new Promise((resolve) => process.once("exit", () => resolve()));
    try {
      await Promise.race([
        waitUntilReady(port, 10_000),
        exited.then(() => {
          throw new Error(`redis-server on port ${port} exited while starting`);
        }),
      ]);
    } catch (error) {
      process.kill("SIGKILL");
      throw new Error(`${(error as Error).message}; its output: ${log}`, { cause: error });
    }
  };
  const end = async (signal: NodeJS.Signals): Promise<void> => {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGCONT");
    child.kill(signal);
    await exited;
  };
  const stop = (): Promise<void> => end("SIGTERM");
  await start();
  return {
    port,
    url: `redis://${REDIS_TEST_USER}:${REDIS_TEST_PASSWORD}@127.0.0.1:${port}`,
    dir,
    stop,
    kill: () => end("SIGKILL"),
    start,
    pause: () => child?.kill("SIGSTOP"),
    resume: () => child?.kill("SIGCONT"),
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
