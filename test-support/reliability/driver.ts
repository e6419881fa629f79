// The client process of the reliability scenarios, bundled into one file and run with plain node (32 of them start
// in a fraction of the time tsx would need). `node driver.js <mode> <json config>`. It speaks JSON lines on stdout
// ({ type, ... }) and takes one-word commands on stdin ("go", "exit"), so the test decides when all of them act.
// Every loop is bounded by a count and by the config's deadline.
import { createInterface } from "node:readline";
import { startBroker } from "@orphus/roundtable-broker";
import { WireRefusalError } from "@orphus/roundtable-protocol";
import { createRoundtableClient, type RoundtableClient } from "@orphus/roundtable-client";
import { accountDigest, bodyOf, type Ledger } from "./ledger.js";

type Config = Record<string, unknown>;

const [mode = "", rawConfig = "{}"] = process.argv.slice(2);
const config = JSON.parse(rawConfig) as Config;
const deadline = Date.now() + Number(config["deadlineMs"] ?? 60_000);

function say(message: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

const commands: string[] = [];
const waiters: ((command: string) => void)[] = [];
createInterface({ input: process.stdin }).on("line", (line) => {
  const waiter = waiters.shift();
  if (waiter === undefined) commands.push(line.trim());
  else waiter(line.trim());
});

/** The next command from the test; fails at the deadline so a forgotten process cannot wait forever. */
function command(expected: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no "${expected}" before the deadline`)),
      Math.max(0, deadline - Date.now()),
    );
    const take = (got: string): void => {
      clearTimeout(timer);
      if (got === expected) resolve();
      else reject(new Error(`expected "${expected}", got "${got}"`));
    };
    const queued = commands.shift();
    if (queued !== undefined) take(queued);
    else waiters.push(take);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function describe(error: unknown): Record<string, unknown> {
  const e = error as { name?: string; code?: string; wireCode?: string; message?: string };
  return { name: e?.name, code: e?.code, wireCode: e?.wireCode, message: e?.message ?? String(error) };
}

function brokerCommand(): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: [
      String(config["brokerBin"]),
      "--agent-dir",
      String(config["agentDir"]),
      "--idle-ms",
      String(config["idleMs"] ?? 2000),
    ],
  };
}

function client(options: { spawn: boolean; role?: string }): RoundtableClient {
  return createRoundtableClient({
    agentDir: String(config["agentDir"]),
    ...(options.role === undefined ? {} : { role: options.role }),
    spawnBroker: options.spawn,
    ...(options.spawn ? { brokerCommand: brokerCommand() } : {}),
    onWarning: () => undefined,
  });
}

/** Load: post `posts` messages, reading a digest (and fetching what it collapsed) every `readEvery` posts. */
async function load(): Promise<void> {
  const role = String(config["role"]);
  const room = String(config["room"]);
  const posts = Number(config["posts"]);
  const readEvery = Number(config["readEvery"]);
  const expectedTotal = Number(config["expectedTotal"]);
  const budget = Number(config["budget"]);
  const me = client({ spawn: false, role });
  const joined = await me.join(room);
  const ledger: Ledger = {
    role,
    room,
    budget,
    capacity: Number(config["capacity"]),
    through: joined.newestSeq - joined.unread,
    acks: [],
    reads: [],
    evicted: [],
    gaps: [],
    digests: 0,
    fetches: 0,
    maxDigestChars: 0,
    maxBudgetedChars: 0,
    problems: [],
  };
  say({ type: "ready" });
  await command("go");
  const started = Date.now();
  const read = (): Promise<void> => accountDigest(me, ledger);
  for (let i = 1; i <= posts && Date.now() < deadline; i++) {
    const headline = i % 3 === 0 ? { headline: `${role}:${i} headline` } : {};
    const posted = await me.post(room, bodyOf(role, i), headline);
    ledger.acks.push([i, posted.seq]);
    if (i % readEvery === 0) await read();
  }
  const posted = Date.now();
  // Drain: read until this member has accounted for every message of the room.
  while (ledger.through < expectedTotal && Date.now() < deadline) {
    const before = ledger.through;
    await read();
    if (ledger.through === before) await sleep(20);
  }
  say({ type: "result", ...ledger, postMs: posted - started, totalMs: Date.now() - started });
  me.close();
}

/**
 * Steady: post `posts` messages, one every `everyMs`, each under its own idempotency key; a post that fails is sent
 * again with its key every 100 ms until it is acknowledged. Says how each call ended as it ends (`call`, ok or not),
 * so the test can act on the load's progress, and records every call: when it started, how long it took, and how it
 * ended (`#seq`, or the error's code), so the test can tell that each ended within its timeout.
 */
async function steady(): Promise<void> {
  const role = String(config["role"]);
  const room = String(config["room"]);
  const me = createRoundtableClient({
    agentDir: String(config["agentDir"]),
    role,
    spawnBroker: false,
    requestTimeoutMs: Number(config["requestTimeoutMs"]),
    onWarning: () => undefined,
  });
  await me.join(room);
  say({ type: "ready" });
  await command("go");
  const started = Date.now();
  const calls: [number, number, number, number, string][] = [];
  const acks: [number, number][] = [];
  for (let i = 1; i <= Number(config["posts"]) && Date.now() < deadline; i++) {
    for (let attempt = 1; Date.now() < deadline; attempt++) {
      const at = Date.now();
      try {
        const posted = await me.post(room, bodyOf(role, i), { idempotencyKey: `${role}-${i}` });
        calls.push([i, attempt, at - started, Date.now() - at, `#${posted.seq}`]);
        acks.push([i, posted.seq]);
        say({ type: "call", ok: true });
        break;
      } catch (error) {
        const { code, wireCode } = describe(error);
        calls.push([i, attempt, at - started, Date.now() - at, String(wireCode ?? code)]);
        say({ type: "call", ok: false });
        await sleep(100);
      }
    }
    await sleep(Number(config["everyMs"]));
  }
  say({ type: "result", role, calls, acks });
  me.close();
}

/** Storm: on "go", connect (spawning a broker when none answers); report the broker reached and the spawns made. */
async function storm(): Promise<void> {
  const spawned: number[] = [];
  const me = createRoundtableClient({
    agentDir: String(config["agentDir"]),
    role: String(config["role"]),
    brokerCommand: brokerCommand(),
    onSpawn: (broker) => {
      if (broker.pid !== undefined) spawned.push(broker.pid);
    },
  });
  say({ type: "ready" });
  await command("go");
  const started = Date.now();
  const hello = await me.connect();
  say({ type: "connected", brokerPid: hello.brokerPid, spawned, ms: Date.now() - started });
  await command("exit");
  me.close();
}

/** Crash: post until the broker goes; then the next post (a new broker, no rooms), then join and post again. */
async function crash(): Promise<void> {
  const role = String(config["role"]);
  const room = String(config["room"]);
  const me = client({ spawn: true, role });
  await me.join(room);
  const firstBroker = me.broker?.brokerPid;
  say({ type: "ready", brokerPid: firstBroker });
  await command("go");
  let posted = 0;
  let failure: Record<string, unknown> | undefined;
  let failedAt = 0;
  while (failure === undefined && Date.now() < deadline && posted < 1_000_000) {
    try {
      await me.post(room, `${role} ${posted + 1}`);
      posted++;
      if (posted % 25 === 0) say({ type: "progress", posted });
    } catch (error) {
      failure = describe(error);
      failedAt = Date.now();
    }
  }
  let next: Record<string, unknown> | undefined;
  try {
    await me.post(room, `${role} after the crash`);
    next = { ok: true };
  } catch (error) {
    next = describe(error);
  }
  const recoveredMs = Date.now() - failedAt;
  const joined = await me.join(room);
  const again = await me.post(room, `${role} rejoined`);
  say({
    type: "result",
    posted,
    failure,
    next,
    recoveredMs,
    failedAt,
    firstBroker,
    secondBroker: me.broker?.brokerPid,
    rejoined: { created: joined.created, seq: again.seq },
  });
  me.close();
}

/**
 * Crash storm: on each "go" (sent after the test killed the broker with SIGKILL), wait until this client has seen
 * its connection go, then join and post, which reconnects: it finds a stale socket or nothing, may spawn a broker,
 * and races every other driver doing the same. Reports the broker it reached and the brokers it spawned.
 */
async function crashStorm(): Promise<void> {
  const role = String(config["role"]);
  const room = String(config["room"]);
  const spawned: number[] = [];
  const me = createRoundtableClient({
    agentDir: String(config["agentDir"]),
    role,
    brokerCommand: brokerCommand(),
    onWarning: () => undefined,
    onSpawn: (broker) => {
      if (broker.pid !== undefined) spawned.push(broker.pid);
    },
  });
  say({ type: "ready" });
  for (let storm = 1; storm <= Number(config["storms"]) && Date.now() < deadline; storm++) {
    await command("go");
    while (me.connected && Date.now() < deadline) await sleep(5);
    const started = Date.now();
    const joined = await me.join(room);
    const posted = await me.post(room, `${role} storm ${storm}`);
    say({
      type: `storm-${storm}`,
      brokerPid: me.broker?.brokerPid,
      spawned: spawned.splice(0),
      created: joined.created,
      seq: posted.seq,
      ms: Date.now() - started,
    });
  }
  await command("exit");
  me.close();
}

/** Start once: the first call of a client that may spawn a broker; reports how it ended (run as another user). */
async function startOnce(): Promise<void> {
  const me = client({ spawn: true, role: "visitor" });
  try {
    await me.join("lobby");
    say({ type: "result", ok: true });
  } catch (error) {
    say({ type: "result", ok: false, ...describe(error) });
  }
  me.close();
}

/** Writer: on each "go", post `posts` messages of `bodyBytes` as fast as replies come, and report the time. */
async function writer(): Promise<void> {
  const role = String(config["role"]);
  const room = String(config["room"]);
  const posts = Number(config["posts"]);
  const body = "w".repeat(Number(config["bodyBytes"]));
  const me = client({ spawn: false, role });
  await me.join(room);
  say({ type: "ready" });
  for (let round = 0; round < Number(config["rounds"]) && Date.now() < deadline; round++) {
    await command("go");
    const started = performance.now();
    for (let i = 0; i < posts; i++) await me.post(room, body);
    say({ type: "round", round, ms: performance.now() - started });
  }
  me.close();
}

/** Embedded host: a broker inside this process closes when idle, and this process lives on and exits by itself. */
async function embeddedHost(): Promise<void> {
  const idleMs = Number(config["idleMs"]);
  const start = await startBroker({ agentDir: String(config["agentDir"]), idleMs });
  if (start.status !== "listening") throw new Error(`expected to listen, got ${start.status}`);
  const me = createRoundtableClient({ agentDir: String(config["agentDir"]), role: "host", spawnBroker: false });
  await me.join("lobby");
  await me.post("lobby", "hello from the host");
  me.close();
  const left = Date.now();
  const closed = await start.broker.closed;
  say({ type: "closed", reason: closed.reason, afterLastLeftMs: Date.now() - left });
  // Still here: the broker closed its server and left the process alone. Nothing else keeps it alive, so once this
  // timer has run the process ends by itself, with exit code 0.
  setTimeout(() => say({ type: "alive", pid: process.pid }), 100);
}

const modes: Record<string, () => Promise<void>> = {
  load,
  steady,
  storm,
  crash,
  "crash-storm": crashStorm,
  "start-once": startOnce,
  writer,
  "embedded-host": embeddedHost,
};

const run = modes[mode];
if (run === undefined) {
  process.stderr.write(`driver: unknown mode ${JSON.stringify(mode)}\n`);
  process.exit(2);
}
try {
  await run();
  process.stdin.destroy();
} catch (error) {
  say({ type: "error", ...describe(error), refused: error instanceof WireRefusalError });
  process.exit(1);
}
