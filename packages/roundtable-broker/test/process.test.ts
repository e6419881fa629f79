// The bin as clients run it: real processes over real sockets. One test starts it from source through tsx, as a
// workspace client does; the others run the bundled bin a published install ships (built by bundle-bin.ts), which
// starts several times faster, so sixteen can race on a small machine.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { brokerCommand, probeBroker } from "@orphus/roundtable-locator";
import { brokerBin, packageDir, type BrokerBin } from "../../../test-support/target.js";
import { RawPeer, onCleanup } from "./helpers.js";
import { tempDir } from "../../../test-support/tmp.js";
import { eventually } from "../../../test-support/poll.js";
import { staleSocket } from "../../../test-support/sockets.js";

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

interface SpawnOptions {
  readonly idleMs?: number;
  readonly args?: readonly string[];
  /** A bundled bin to run with plain node instead of the source through tsx. */
  readonly bundle?: string;
  /** Variables added to the environment. */
  readonly env?: NodeJS.ProcessEnv;
}

function spawnBroker(agentDir: string, extra: SpawnOptions = {}): { child: ChildProcess; exit: Promise<Exit> } {
  const flags = {
    brokerRoot: packageDir("roundtable-broker"),
    agentDir,
    ...(extra.idleMs === undefined ? {} : { idleMs: extra.idleMs }),
  };
  const { command, args } =
    extra.bundle === undefined
      ? brokerCommand(flags)
      : { command: process.execPath, args: [extra.bundle, ...brokerCommand({ ...flags, from: "dist" }).args.slice(1)] };
  const child = spawn(command, [...args, ...(extra.args ?? [])], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...extra.env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  // 'close' rather than 'exit': it waits for the output to be read whole.
  const exit = new Promise<Exit>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  onCleanup(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  return { child, exit };
}

let bundle: string;
let built: BrokerBin | undefined;

beforeAll(async () => {
  built = await brokerBin();
  bundle = built.bin;
});

afterAll(() => built?.remove());

describe("the bin", () => {
  test("an --agent-dir too deep for a socket path fails at once, and the advice names the flag", async () => {
    const agentDir = join(tempDir(), "d".repeat(100));
    const { exit } = spawnBroker(agentDir, { bundle });
    const { code, stderr } = await exit;
    expect(code).toBe(1);
    expect(stderr).toMatch(/^orphus-roundtable-broker: Broker socket path is \d+ bytes; linux allows at most 107 /);
    expect(stderr.trimEnd()).toMatch(/\. Pass a shorter --agent-dir\.$/);
  });

  test("16 brokers started at once over one agent directory leave exactly one listening; the rest exit 0", async () => {
    const agentDir = tempDir();
    // They start over a stale socket file, so each must also decide, against the others, who reclaims it.
    await staleSocket(join(agentDir, "roundtable", "broker.sock"));
    const brokers = Array.from({ length: 16 }, () => spawnBroker(agentDir, { idleMs: 60_000, bundle }));
    const socketPath = join(agentDir, "roundtable", "broker.sock");
    // Whatever order they start in, fifteen stand down and one stays.
    const settled = await new Promise<number[]>((resolve) => {
      const exited: number[] = [];
      brokers.forEach(
        ({ exit }, index) =>
          void exit.then(() => {
            exited.push(index);
            if (exited.length === 15) resolve(exited);
          }),
      );
    });
    const exits = await Promise.all(settled.map((index) => brokers[index]!.exit));
    expect(exits.map((e) => [e.code, e.signal])).toEqual(Array.from({ length: 15 }, () => [0, null]));
    const winner = brokers.find((_, index) => !settled.includes(index))!;
    const probe = await probeBroker(socketPath, 5000);
    expect(probe).toMatchObject({ state: "answered", pid: winner.child.pid });

    const log = readFileSync(join(agentDir, "roundtable", "broker.log"), "utf8");
    // One broker may claim the path in the moment another has a live socket moved aside while it reclaims the stale
    // file; that one listens, finds its path taken back, and closes (claim-interleavings.test.ts forces that order).
    // Every other loser stands down without listening.
    const pathLost = log.match(/ error the socket path no longer names this broker's socket; closing/g)?.length ?? 0;
    expect(log.match(/ info broker listening /g)).toHaveLength(1 + pathLost);
    expect(log.match(/ info another broker holds the socket; standing down /g)).toHaveLength(15 - pathLost);
    expect(JSON.parse(readFileSync(join(agentDir, "roundtable", "broker.pid"), "utf8"))).toMatchObject({
      pid: winner.child.pid,
    });

    // It owns its process: a signal closes it and the process exits 0, taking its socket along.
    winner.child.kill("SIGTERM");
    expect(await winner.exit).toMatchObject({ code: 0, signal: null });
    expect(existsSync(socketPath)).toBe(false);
  });

  test("a broker spawned from source exits 0 by itself once idle, after its last connection closes", async () => {
    const agentDir = tempDir();
    const { child, exit } = spawnBroker(agentDir, { idleMs: 300 });
    const socketPath = join(agentDir, "roundtable", "broker.sock");
    const peer = await eventually(() => RawPeer.hello(socketPath, "planner"), {
      everyMs: 25,
      what: "the spawned broker answers",
    });
    expect(await peer.request({ id: 2, op: "status" })).toMatchObject({ result: { pid: child.pid, connections: 1 } });
    peer.socket.destroy();
    expect(await exit).toMatchObject({ code: 0, signal: null });
    expect(existsSync(socketPath)).toBe(false);
    expect(readFileSync(join(agentDir, "roundtable", "broker.log"), "utf8")).toMatch(
      / info broker closed reason=idle /,
    );
  });

  test("a regular file at the socket path: exit 1 with the reason on stderr and in the log, the file untouched", async () => {
    const agentDir = tempDir();
    mkdirSync(join(agentDir, "roundtable"), { mode: 0o700 });
    const socketPath = join(agentDir, "roundtable", "broker.sock");
    writeFileSync(socketPath, "keep me");
    const { exit } = spawnBroker(agentDir, { bundle });
    const result = await exit;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `orphus-roundtable-broker: Cannot start the broker: ${socketPath} is a regular file`,
    );
    expect(readFileSync(join(agentDir, "roundtable", "broker.log"), "utf8")).toContain(
      "error broker failed to start code=ERR_SOCKET_PATH_OCCUPIED",
    );
    expect(readFileSync(socketPath, "utf8")).toBe("keep me");
  });

  test("bad arguments: exit 2 with usage", async () => {
    const agentDir = tempDir();
    const { exit } = spawnBroker(agentDir, { args: ["--idle-ms", "soon"], bundle });
    const result = await exit;
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--idle-ms needs a whole number of milliseconds");
    expect(result.stderr).toContain(
      "Usage: orphus-roundtable-broker [--agent-dir DIR] [--idle-ms MS] (--help for more)",
    );
    expect(existsSync(join(agentDir, "roundtable"))).toBe(false);
    const hello = await spawnBroker(agentDir, { args: ["--hello-timeout-ms", "0"], bundle }).exit;
    expect(hello.code).toBe(2);
    expect(hello.stderr).toContain("--hello-timeout-ms is from 1 to 2147483647");
    const held = await spawnBroker(agentDir, { args: ["--max-held-bytes", "64MiB"], bundle }).exit;
    expect(held.code).toBe(2);
    expect(held.stderr).toContain("--max-held-bytes needs a whole number of bytes");
    // The least budget at the default limits: twice the largest body and headline, 2 × (32,768 + 256) bytes.
    const small = await spawnBroker(agentDir, { args: ["--max-held-bytes", "66047"], bundle }).exit;
    expect(small.code).toBe(2);
    expect(small.stderr).toBe(
      "orphus-roundtable-broker: Invalid broker option maxHeldBytes: expected an integer from 66048 to " +
        "9007199254740991, got 66047\n",
    );
    const variable = await spawnBroker(agentDir, { env: { ORPHUS_ROUNDTABLE_MAX_HELD_BYTES: "lots" }, bundle }).exit;
    expect(variable.code).toBe(2);
    expect(variable.stderr).toContain("ORPHUS_ROUNDTABLE_MAX_HELD_BYTES needs a whole number of bytes");
  });

  test("the text budget comes from --max-held-bytes, else ORPHUS_ROUNDTABLE_MAX_HELD_BYTES, which spawned brokers inherit", async () => {
    const budgetOf = async (extra: SpawnOptions): Promise<unknown> => {
      const agentDir = tempDir();
      spawnBroker(agentDir, { idleMs: 60_000, bundle, ...extra });
      const socketPath = join(agentDir, "roundtable", "broker.sock");
      const peer = await eventually(() => RawPeer.hello(socketPath, "probe"), { what: "the bin answers" });
      const status = await peer.request({ id: 2, op: "status" });
      peer.socket.destroy();
      return ((status["result"] as Record<string, unknown>)["heldText"] as Record<string, unknown>)["maxHeldBytes"];
    };
    const env = { ORPHUS_ROUNDTABLE_MAX_HELD_BYTES: "1048576" };
    expect(await budgetOf({ env })).toBe(1_048_576);
    expect(await budgetOf({ env, args: ["--max-held-bytes", "2097152"] })).toBe(2_097_152);
    expect(await budgetOf({})).toBe(134_217_728);
  });

  test("a password on the command line: exit 2, masked, nothing started", async () => {
    const agentDir = tempDir();
    const result = await spawnBroker(agentDir, { args: ["--store", "redis://orphus:hunter2@127.0.0.1:6379"], bundle })
      .exit;
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "Invalid room store setting (--store): redis://orphus:***@127.0.0.1:6379 carries a password",
    );
    expect(result.stderr).not.toContain("hunter2");
    expect(existsSync(join(agentDir, "roundtable", "broker.sock"))).toBe(false);
  });

  test("the bin carries its own Redis store, in a chunk only a broker configured for Redis loads", async () => {
    const agentDir = tempDir();
    // Port 1 on loopback: nothing listens, so the connection is refused at once. Nothing is installed beside the
    // bin: the store it opens is the one bundled with it.
    const env = { ORPHUS_ROUNDTABLE_STORE: "redis://orphus:hunter2@127.0.0.1:1/0" };
    const result = await spawnBroker(agentDir, { env, bundle }).exit;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^orphus-roundtable-broker: Cannot open the room store redis:\/\/orphus:\*\*\*@127\.0\.0\.1:1\/0 \(ERR_STORE_UNAVAILABLE\): /,
    );
    expect(result.stderr).not.toContain("hunter2");
    // The broker's own file holds neither the store's Lua script nor the Redis client's command queue: a broker on
    // the memory store never parses them. One chunk beside it holds both.
    const main = readFileSync(bundle, "utf8");
    expect(main).not.toContain("redis.call(");
    expect(main).not.toContain("commandQueue");
    const chunks = join(dirname(bundle), "chunks");
    const withRedis = readdirSync(chunks).filter((file) => {
      const text = readFileSync(join(chunks, file), "utf8");
      return text.includes("redis.call(") && text.includes("commandQueue");
    });
    expect(withRedis).toHaveLength(1);
  });

  test("a broker from source configured for a Redis it cannot reach: exit 1 within the store's timeout, masked", async () => {
    const agentDir = tempDir();
    // Port 1 on loopback: nothing listens, so the connection is refused at once.
    const env = { ORPHUS_ROUNDTABLE_STORE: "redis://orphus:hunter2@127.0.0.1:1/0" };
    const result = await spawnBroker(agentDir, { env }).exit;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^orphus-roundtable-broker: Cannot open the room store redis:\/\/orphus:\*\*\*@127\.0\.0\.1:1\/0 \(ERR_STORE_UNAVAILABLE\): /,
    );
    expect(result.stderr).toContain("does not fall back to memory");
    expect(result.stderr).not.toContain("hunter2");
    const log = readFileSync(join(agentDir, "roundtable", "broker.log"), "utf8");
    expect(log).toContain("error broker failed to start code=ERR_BROKER_STORE_OPEN_FAILED");
    expect(log).not.toContain("hunter2");
    expect(existsSync(join(agentDir, "roundtable", "broker.sock"))).toBe(false);
  });

  test("--help prints the usage and --version the version, both exit 0 without starting anything", async () => {
    const agentDir = tempDir();
    const help = spawnBroker(agentDir, { args: ["--help"], bundle });
    const version = spawnBroker(agentDir, { args: ["--version"], bundle });
    const [helped, versioned] = await Promise.all([help.exit, version.exit]);
    expect(helped).toMatchObject({ code: 0, stderr: "" });
    expect(helped.stdout).toMatch(
      /^Usage: orphus-roundtable-broker \[--agent-dir DIR\] \[--idle-ms MS\] \[--hello-timeout-ms MS\] \[--store URL\]\n/,
    );
    expect(helped.stdout).toContain(
      "--idle-ms MS     wait after the last connection closes before exiting (default: 5000)",
    );
    expect(helped.stdout).toContain(
      "--store URL      where the rooms are kept (default: $ORPHUS_ROUNDTABLE_STORE, else memory)",
    );
    expect(helped.stdout).toContain("a --store URL carrying a password is\n                   refused");
    expect(helped.stdout).toContain("(default: $ORPHUS_ROUNDTABLE_STORE_PASSWORD_FILE)");
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as {
      version: string;
    };
    expect(versioned).toMatchObject({ code: 0, stdout: `${manifest.version}\n` });
    expect(existsSync(join(agentDir, "roundtable"))).toBe(false);
  });
});
