// `roundtable doctor` against real brokers (embedded in this process, registered in a temporary registry), real
// files and scripted servers: one test per finding, and the all-well case that exits 0.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { startBroker, type Broker } from "@orphus/roundtable-broker";
import { registerBroker, type RegistryEntry } from "@orphus/roundtable-locator";
import { createRoundtableClient } from "@orphus/roundtable-client";
import {
  doctorExitCode,
  renderDoctorReport,
  runCli,
  runDoctor,
  type CliIo,
  type DoctorOptions,
  type DoctorReport,
} from "@orphus/roundtable-cli";
import { startFramedServer, type FramedServer } from "../../../test-support/framed-server.js";
import { staleSocket } from "../../../test-support/sockets.js";
import { until } from "../../../test-support/poll.js";
import { tempDir } from "../../../test-support/tmp.js";
import { openMemory } from "@orphus/memory";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fresh registry and the doctor options pointing at it: a role configured, nothing taken from this process. */
function setting(): { registryDir: string; options: (agentDir: string, extra?: DoctorOptions) => DoctorOptions } {
  const registryDir = join(tempDir(), "registry");
  return {
    registryDir,
    options: (agentDir, extra = {}) => ({
      agentDir,
      registryDir,
      env: { ORPHUS_ROUNDTABLE_ROLE: "planner" },
      timeoutMs: 500,
      ...extra,
    }),
  };
}

async function broker(agentDir: string, registryDir: string): Promise<Broker> {
  const start = await startBroker({ agentDir, registryDir, idleMs: 60_000 });
  if (start.status !== "listening") throw new Error("expected a listening broker");
  cleanups.push(() => start.broker.close());
  return start.broker;
}

async function fakeServer(
  dir: string,
  socketPath: string,
  script: Parameters<typeof startFramedServer>[1],
): Promise<FramedServer> {
  mkdirSync(join(socketPath, ".."), { recursive: true, mode: 0o700 });
  const server = await startFramedServer(dir, script, socketPath);
  chmodSync(socketPath, 0o600);
  cleanups.push(() => server.close());
  return server;
}

function codes(report: DoctorReport): string[] {
  return report.findings.map((finding) => finding.code);
}

function entry(agentDir: string, pid: number, overrides: Partial<RegistryEntry> = {}): RegistryEntry {
  return {
    pid,
    instance: "abcdef",
    agentDir,
    socketPath: join(agentDir, "roundtable", "broker.sock"),
    brokerVersion: "0.0.0",
    protocol: "orphus-roundtable",
    protocolVersion: 3,
    startedAt: 1,
    ...overrides,
  };
}

function cliIo(
  doctorOptions: DoctorOptions,
  env: NodeJS.ProcessEnv = { ORPHUS_ROUNDTABLE_ROLE: "planner" },
): CliIo & { out: () => string } {
  let out = "";
  return {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (out += text) },
    env,
    doctorOptions,
    out: () => out,
  };
}

describe("all well", () => {
  test("a running broker, private paths, one agent directory, a stable role: exit 0", async () => {
    const { registryDir, options } = setting();
    const agentDir = tempDir();
    const running = await broker(agentDir, registryDir);
    const report = await runDoctor(options(agentDir));
    expect(report.findings).toEqual([]);
    expect(doctorExitCode(report)).toBe(0);
    expect(report.liveBrokers.map((b) => b.agentDir)).toEqual([agentDir]);
    const text = renderDoctorReport(report)
      .replaceAll(agentDir, "<agent>")
      .replaceAll(registryDir, "<registry>")
      .replace(/pid \d+/, "pid <pid>")
      .replace(/broker \S+, up \d+s/, "broker <v>, up <t>");
    expect(text).toBe(
      [
        "roundtable doctor: agent directory <agent> (--agent-dir)",
        "  ok  broker directory <agent>/roundtable: yours, mode 700",
        "  ok  socket <agent>/roundtable/broker.sock: yours, mode 600",
        "  ok  broker answers: pid <pid>, orphus-roundtable v3, broker <v>, up <t>, 0 rooms, 0 other connections",
        "  ok  rooms kept in the broker's memory",
        "  ok  message text: 0.0 MiB held of a 128.0 MiB budget (ORPHUS_ROUNDTABLE_MAX_HELD_BYTES); 0 messages evicted to stay under it",
        "  ok  registry <registry>: yours, mode 700",
        "  ok  registry <registry>: 1 live broker of yours under 1 agent directory",
        "  ok  role planner (from ORPHUS_ROUNDTABLE_ROLE): stable across restarts",
        "  ok  memory store <agent>/memory/memory.db (from --agent-dir): none yet (a librarian's first ingest creates it; until then queries say so)",
        "",
        "All well.",
        "",
      ].join("\n"),
    );
    // The doctor's connections came and went; it joined nothing.
    await until(() => running.stats().connections === 0);
    expect(running.stats().rooms).toBe(0);
  });

  test("a doctor that cannot finish looking says so on stderr and exits 1", async () => {
    const { options } = setting();
    const io = cliIo(options(tempDir(), { timeoutMs: 0 }));
    expect(await runCli(["doctor"], io)).toBe(1);
    expect(io.out()).toBe(
      "roundtable doctor: could not finish: Invalid roundtable client option timeoutMs: expected an integer from 1 to 600000, got 0\n",
    );
  });

  test("no broker has run yet, and the doctor starts none: exit 0", async () => {
    const { options } = setting();
    const agentDir = tempDir();
    const io = cliIo(options(agentDir, { agentDir: undefined }), { ORPHUS_ROUNDTABLE_ROLE: "critic" });
    expect(await runCli(["doctor", "--agent-dir", agentDir], io)).toBe(0);
    expect(io.out()).toContain(`ok  no broker directory yet (${agentDir}/roundtable): no broker has run here`);
    expect(io.out()).toContain("ok  role critic (from ORPHUS_ROUNDTABLE_ROLE)");
    expect(io.out()).toMatch(/All well\.\n$/);
    expect(existsSync(join(agentDir, "roundtable"))).toBe(false);
  });
});

describe("split fleet", () => {
  test("live brokers under two agent directories: the finding names both and the one variable to set", async () => {
    const { registryDir, options } = setting();
    const here = tempDir();
    const there = tempDir();
    const first = await broker(here, registryDir);
    await broker(there, registryDir);
    const report = await runDoctor(options(here));
    expect(codes(report)).toEqual(["split-fleet"]);
    const [split] = report.findings;
    expect(split?.summary).toBe(
      "2 live brokers of yours serve 2 different agent directories; sessions reach only the broker of their own " +
        "directory, so peers post and nobody's unread count moves, with no error",
    );
    // Listed in the order the brokers started (the registry's); two started in one millisecond may come either way.
    expect(split?.details).toHaveLength(2);
    expect(split?.details).toEqual(
      expect.arrayContaining([
        `${here}  broker pid ${first.pid}  (this agent directory)`,
        `${there}  broker pid ${first.pid}`,
      ]),
    );
    expect(split?.fix).toContain(`export ORPHUS_CODING_AGENT_DIR=${here}`);
    const io = cliIo(options(here));
    expect(await runCli(["doctor", "--agent-dir", here], io)).toBe(1);
    expect(io.out()).toContain("problem [split-fleet]: 2 live brokers of yours serve 2 different agent directories");
    expect(io.out()).toMatch(/1 problem found; each says what to do\.\n$/);
  });
});

describe("a live broker cut off from its path", () => {
  /** A live process standing in for a broker whose path was taken (one stopped, or older than the path watch). */
  function liveProcess(): number {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    cleanups.push(() => child.kill("SIGKILL"));
    return child.pid as number;
  }

  test("is a split fleet: another broker answers on its path, its process runs, and its entry stays", async () => {
    const { registryDir, options } = setting();
    const here = tempDir();
    const owner = await broker(here, registryDir);
    const orphanPid = liveProcess();
    const orphan = registerBroker(registryDir, entry(here, orphanPid, { startedAt: Date.now() + 1_000 }));
    const report = await runDoctor(options(here));
    expect(codes(report)).toEqual(["split-fleet"]);
    expect(report.findings[0]).toMatchObject({
      summary:
        `a live broker (pid ${orphanPid}) of ${here} no longer owns its socket path ${here}/roundtable/broker.sock: ` +
        `another broker (pid ${owner.pid}) answers there. Nobody new can reach it, and sessions still on it post ` +
        "where the rest of the fleet never reads",
      fix: expect.stringMatching(new RegExp(`^stop it: kill ${orphanPid}\\. `)),
    });
    expect(report.unreachableBrokers.map((b) => b.pid)).toEqual([orphanPid]);
    expect(report.removedEntries).toEqual([]);
    expect(existsSync(orphan)).toBe(true);
    expect(doctorExitCode(report)).toBe(1);
  });

  test("nothing at its path, its process running: the same finding", async () => {
    const { registryDir, options } = setting();
    const here = tempDir();
    const orphanPid = liveProcess();
    registerBroker(registryDir, entry(tempDir(), orphanPid, { startedAt: Date.now() + 1_000 }));
    const report = await runDoctor(options(here));
    expect(codes(report)).toEqual(["split-fleet"]);
    expect(report.findings[0]?.summary).toContain("/roundtable/broker.sock: nothing is there.");
  });

  test("a pid now held by a process that started after the entry was written is not the broker: removed", async () => {
    const { registryDir, options } = setting();
    const here = tempDir();
    const gone = registerBroker(registryDir, entry(tempDir(), liveProcess(), { startedAt: 1 }));
    const report = await runDoctor(options(here));
    expect(report.findings).toEqual([]);
    expect(report.removedEntries).toEqual([gone]);
  });
});

describe("a full broker", () => {
  test("is named as full, with what helps, and never as a broker to stop", async () => {
    const { registryDir, options } = setting();
    const here = tempDir();
    const start = await startBroker({ agentDir: here, registryDir, idleMs: 60_000, maxConnections: 1 });
    if (start.status !== "listening") throw new Error("expected a listening broker");
    cleanups.push(() => start.broker.close());
    const seated = createRoundtableClient({ agentDir: here, role: "seated", spawnBroker: false });
    cleanups.push(() => seated.close());
    await seated.connect();
    const report = await runDoctor(options(here));
    expect(codes(report)).toEqual(["broker-full"]);
    expect(report.findings[0]).toEqual({
      code: "broker-full",
      summary:
        `the broker on ${here}/roundtable/broker.sock (pid ${process.pid}) serves its maximum of 1 connections: it is ` +
        "healthy, but new sessions are refused (ERR_BROKER_FULL) until some close",
      details: [],
      fix:
        "wait for sessions to finish, or close sessions you no longer need (every session and every roundtable-mcp " +
        "server holds one connection). Do not stop the broker: it holds every room of the fleet",
    });
    expect(renderDoctorReport(report)).not.toMatch(/kill/);
    // Counted as live in the registry: a full broker is a running one.
    expect(report.liveBrokers.map((b) => b.agentDir)).toEqual([here]);
  });
});

describe("stale socket", () => {
  test("a socket nothing answers on, here or under a registered agent directory, until it is gone", async () => {
    const { registryDir, options } = setting();
    const here = tempDir();
    const there = tempDir();
    await staleSocket(join(here, "roundtable", "broker.sock"));
    await staleSocket(join(there, "roundtable", "broker.sock"));
    const killed = registerBroker(registryDir, entry(there, 999_999));
    const report = await runDoctor(options(here));
    expect(codes(report)).toEqual(["stale-socket", "stale-socket"]);
    expect(report.findings.map((f) => f.summary)).toEqual([
      `nothing answers on ${here}/roundtable/broker.sock: a broker was killed (SIGKILL, a crash, a reboot) and left ` +
        "its socket, and its rooms went with it",
      `nothing answers on ${there}/roundtable/broker.sock: a broker was killed (SIGKILL, a crash, a reboot) and left ` +
        "its socket, and its rooms went with it",
    ]);
    expect(report.findings[0]?.fix).toContain(`rm ${here}/roundtable/broker.sock`);
    // The entry stays as the stale socket's witness, so a second run says the same.
    expect(existsSync(killed)).toBe(true);
    expect(codes(await runDoctor(options(here)))).toEqual(["stale-socket", "stale-socket"]);
  });

  test("an entry whose broker is gone and left no socket is removed, which is no problem", async () => {
    const { registryDir, options } = setting();
    const here = tempDir();
    const gone = registerBroker(registryDir, entry(tempDir(), 999_998));
    const report = await runDoctor(options(here));
    expect(report.findings).toEqual([]);
    expect(report.removedEntries).toEqual([gone]);
    expect(existsSync(gone)).toBe(false);
    expect(report.notes).toContain(
      `registry ${registryDir}: 0 live brokers of yours; removed 1 entry of brokers that are gone`,
    );
  });
});

describe("unresponsive broker", () => {
  test("a socket that drops every connection before answering hello, after three tries", async () => {
    const { options } = setting();
    const here = tempDir();
    const socketPath = join(here, "roundtable", "broker.sock");
    let accepted = 0;
    await fakeServer(tempDir(), socketPath, (_request, socket) => {
      accepted++;
      socket.destroy();
      return null;
    });
    const report = await runDoctor(options(here));
    expect(codes(report)).toEqual(["unresponsive-broker"]);
    expect(report.findings[0]?.summary).toBe(
      `something holds ${socketPath} but does not answer: the connection was dropped before hello was answered, 3 times`,
    );
    expect(accepted).toBe(3);
  });

  test("a socket that accepts and never answers hello", async () => {
    const { options } = setting();
    const here = tempDir();
    const socketPath = join(here, "roundtable", "broker.sock");
    await fakeServer(tempDir(), socketPath, () => null);
    writeFileSync(join(here, "roundtable", "broker.pid"), JSON.stringify({ pid: 4321 }));
    const report = await runDoctor(options(here, { timeoutMs: 200 }));
    expect(codes(report)).toEqual(["unresponsive-broker"]);
    expect(report.findings[0]).toMatchObject({
      summary: `something holds ${socketPath} but does not answer: hello got no answer within 200 ms`,
      fix: "the broker (pid 4321, per its pid file) may be overloaded or hung; if it stays so: kill 4321",
    });
  });
});

describe("something foreign at the socket path", () => {
  test.each([
    ["a regular file", (path: string) => writeFileSync(path, "notes")],
    ["a directory", (path: string) => mkdirSync(path)],
    ["a symbolic link", (path: string) => symlinkSync("/nonexistent/target", path)],
  ])("%s: the finding says to move it, and the doctor leaves it alone", async (what, make) => {
    const { options } = setting();
    const here = tempDir();
    const socketPath = join(here, "roundtable", "broker.sock");
    mkdirSync(join(here, "roundtable"), { mode: 0o700 });
    make(socketPath);
    const report = await runDoctor(options(here));
    expect(codes(report)).toEqual(["socket-path-occupied"]);
    expect(report.findings[0]).toMatchObject({
      summary: `${socketPath} is ${what}, not a socket: no broker can start there, and every session's first call fails`,
      fix: `move it away yourself (the broker never removes what it did not create): mv ${socketPath} ${socketPath}.moved`,
    });
    expect(lstatSync(socketPath).isSocket()).toBe(false);
  });
});

describe("permissions", () => {
  test("a broker directory, a socket and a registry open to others, each with its chmod", async () => {
    const { registryDir, options } = setting();
    const here = tempDir();
    const running = await broker(here, registryDir);
    chmodSync(join(here, "roundtable"), 0o755);
    chmodSync(running.socketPath, 0o666);
    chmodSync(registryDir, 0o750);
    const report = await runDoctor(options(here));
    expect(codes(report)).toEqual(["permissions", "permissions", "permissions"]);
    expect(report.findings.map((f) => [f.summary, f.fix])).toEqual([
      [
        `${here}/roundtable has mode 755: other users can look inside; it must be 700`,
        `chmod 700 ${here}/roundtable (a broker tightens its own directory when it starts)`,
      ],
      [
        `${running.socketPath} has mode 666: other users may connect; it must be 600`,
        `chmod 600 ${running.socketPath}, or stop the broker and let the next one create its socket`,
      ],
      [
        `${registryDir} has mode 750: other users can look inside; it must be 700`,
        `chmod 700 ${registryDir} (a broker tightens its own directory when it starts)`,
      ],
    ]);
  });

  test("paths that belong to another user", async () => {
    const { registryDir, options } = setting();
    const here = tempDir();
    await broker(here, registryDir);
    const owner = process.getuid?.() ?? 0;
    const report = await runDoctor(options(here, { uid: owner + 4242 }));
    expect(codes(report)).toEqual(["permissions", "permissions"]);
    expect(report.findings[0]?.summary).toBe(
      `${here}/roundtable belongs to uid ${owner}, not to you (uid ${owner + 4242}): your brokers cannot use it`,
    );
    expect(report.findings[1]?.summary).toContain(`${registryDir} belongs to uid ${owner}`);
  });
});

describe("protocol mismatch", () => {
  const refuse = (request: Record<string, unknown>): unknown => ({
    id: request["id"],
    ok: false,
    op: "hello",
    error: {
      code: "ERR_PROTOCOL_MISMATCH",
      message:
        "Protocol mismatch: the running broker (pid 7777) speaks orphus-roundtable v4, this client speaks orphus-roundtable v3.",
      details: {
        brokerProtocol: "orphus-roundtable",
        brokerVersion: 4,
        brokerPid: 7777,
        peerProtocol: "orphus-roundtable",
        peerVersion: 3,
      },
    },
  });

  test("the broker of this agent directory refuses our hello: one finding, with its own words", async () => {
    const { registryDir, options } = setting();
    const here = tempDir();
    await fakeServer(tempDir(), join(here, "roundtable", "broker.sock"), refuse);
    // Registered too, as a broker of that version would be: still reported once.
    registerBroker(registryDir, entry(here, 7777, { protocolVersion: 4 }));
    const report = await runDoctor(options(here));
    expect(codes(report)).toEqual(["protocol-mismatch"]);
    expect(report.findings[0]).toMatchObject({
      summary:
        "the broker of this agent directory (pid 7777) speaks orphus-roundtable v4; this client speaks " +
        "orphus-roundtable v3, and sessions of the two versions cannot share it",
      details: [
        "the broker said: Protocol mismatch: the running broker (pid 7777) speaks orphus-roundtable v4, this client speaks orphus-roundtable v3.",
      ],
    });
    expect(report.findings[0]?.fix).toContain("kill 7777");
  });

  test("a registered broker elsewhere of another version", async () => {
    const { registryDir, options } = setting();
    const here = tempDir();
    const there = tempDir();
    await fakeServer(tempDir(), join(there, "roundtable", "broker.sock"), refuse);
    registerBroker(registryDir, entry(there, 7777, { protocolVersion: 4 }));
    const report = await runDoctor(options(here));
    expect(codes(report)).toEqual(["protocol-mismatch"]);
    expect(report.findings[0]?.summary).toContain(`the broker of ${there} (pid 7777) speaks orphus-roundtable v4`);
  });
});

describe("role names", () => {
  test("a fresh shell without a role: a hint, not a problem, and the doctor exits 0", async () => {
    const { options } = setting();
    const agentDir = tempDir();
    const report = await runDoctor(options(agentDir, { env: {} }));
    expect(report.findings).toEqual([]);
    expect(report.hints).toEqual([
      {
        code: "no-role",
        text:
          "no role name is configured here (no --as, no ORPHUS_ROUNDTABLE_ROLE); a session started from this shell " +
          "without one speaks as session-<pid> and loses its read positions on restart: set " +
          "ORPHUS_ROUNDTABLE_ROLE=<role>, or pass --as <role>",
      },
    ]);
    expect(doctorExitCode(report)).toBe(0);
    // As the CLI runs it in a fresh shell: no broker, no registry, no role. Exit 0, one hint line.
    const io = cliIo(options(agentDir, { agentDir: undefined, env: undefined }), { ORPHUS_CODING_AGENT_DIR: agentDir });
    expect(await runCli(["doctor"], io)).toBe(0);
    const lines = io.out().split("\n");
    expect(lines.filter((line) => line.startsWith("  hint [no-role]: no role name is configured here"))).toHaveLength(
      1,
    );
    expect(io.out()).not.toContain("problem [");
    expect(io.out()).toMatch(/\n\nNo problem found; 1 hint above\.\n$/);
    // Given a role, the hint goes.
    expect((await runDoctor(options(tempDir(), { env: {}, role: "reviewer" }))).hints).toEqual([]);
  });

  test("a host asking for a running session that fell back to session-<pid>: that is a problem", async () => {
    const { options } = setting();
    const report = await runDoctor(options(tempDir(), { env: {}, fallbackRole: "session-4242" }));
    expect(report.hints).toEqual([]);
    expect(report.findings).toEqual([
      {
        code: "ephemeral-role",
        summary:
          "this session speaks as session-4242, a fallback name (no role was given and ORPHUS_ROUNDTABLE_ROLE is not " +
          "set): its read positions die with its process",
        details: [],
        fix: "give it a stable name: ORPHUS_ROUNDTABLE_ROLE=<role> in its environment, or --as <role> where its host takes one",
      },
    ]);
    expect(doctorExitCode(report)).toBe(1);
    // A role configured wins over the fallback: the session was given one after all.
    expect(codes(await runDoctor(options(tempDir(), { fallbackRole: "session-4242" })))).toEqual([]);
  });

  test("a configured role that is not a role name", async () => {
    const { options } = setting();
    const report = await runDoctor(options(tempDir(), { env: { ORPHUS_ROUNDTABLE_ROLE: "two words" } }));
    expect(report.findings.map((f) => f.summary)).toEqual([
      'the configured role "two\\u{20}words" (ORPHUS_ROUNDTABLE_ROLE) is not a role name, so a client refuses it',
    ]);
    const io = cliIo(options(tempDir()));
    expect(await runCli(["doctor", "--as", "two words"], io)).toBe(2);
  });

  test("sessions on the running broker that speak as session-<pid>", async () => {
    const { registryDir, options } = setting();
    const here = tempDir();
    await broker(here, registryDir);
    const nameless = createRoundtableClient({
      agentDir: here,
      env: {},
      pid: 4242,
      spawnBroker: false,
      onWarning: () => undefined,
    });
    const named = createRoundtableClient({
      agentDir: here,
      env: { ORPHUS_ROUNDTABLE_ROLE: "critic" },
      spawnBroker: false,
    });
    cleanups.push(
      () => nameless.close(),
      () => named.close(),
    );
    expect(nameless.role).toBe("session-4242");
    expect(named.role).toBe("critic");
    await nameless.join("design");
    await named.join("design");
    const report = await runDoctor(options(here));
    expect(codes(report)).toEqual(["ephemeral-role"]);
    expect(report.findings[0]).toMatchObject({
      summary: "a session speaks as session-<pid> on the running broker: their read positions die with their process",
      details: ["room design: session-4242"],
    });
  });
});

test("the doctor's rendering of a finding: summary, facts, fix, count", () => {
  const report: DoctorReport = {
    agentDir: "/a",
    agentDirSource: "default",
    socketPath: "/a/roundtable/broker.sock",
    registryDir: "/r",
    notes: ["one fine thing"],
    hints: [{ code: "no-role", text: "a piece of advice" }],
    findings: [
      { code: "stale-socket", summary: "what is wrong", details: ["fact one", "fact two"], fix: "what to do" },
      { code: "ephemeral-role", summary: "another", details: [], fix: "its remedy" },
    ],
    liveBrokers: [],
    unreachableBrokers: [],
    removedEntries: [],
  };
  expect(renderDoctorReport(report)).toBe(
    [
      "roundtable doctor: agent directory /a (default)",
      "  ok  one fine thing",
      "  hint [no-role]: a piece of advice",
      "",
      "problem [stale-socket]: what is wrong",
      "    fact one",
      "    fact two",
      "  fix: what to do",
      "",
      "problem [ephemeral-role]: another",
      "  fix: its remedy",
      "",
      "2 problems found; each says what to do.",
      "",
    ].join("\n"),
  );
  expect(doctorExitCode(report)).toBe(1);
});

describe("the memory store", () => {
  test("an empty store is flagged, a filled one reported, a foreign file named; the store each session uses", async () => {
    const { options } = setting();
    const agentDir = tempDir();
    const librarian = openMemory({ dir: join(agentDir, "memory"), role: "librarian", env: {} });
    librarian.ingestTexts([{ title: "t", body: "b", source: "s" }]);
    librarian.forget({ source: "s" });
    const empty = await runDoctor(options(agentDir));
    expect(codes(empty)).toEqual(["empty-memory"]);
    expect(empty.findings[0]?.summary).toContain(
      `the memory store ${agentDir}/memory/memory.db (from --agent-dir) exists but holds nothing`,
    );
    librarian.ingestTexts([{ title: "t", body: "b" }]);
    librarian.close();
    const filled = await runDoctor(options(agentDir));
    expect(codes(filled)).toEqual([]);
    expect(filled.notes.join("\n")).toMatch(
      /memory store .*memory\.db \(from --agent-dir\): 1 entry from 1 source, schema v5/,
    );

    const elsewhere = tempDir();
    writeFileSync(join(elsewhere, "memory.db"), "notes, not a database");
    const foreign = await runDoctor(
      options(agentDir, { env: { ORPHUS_ROUNDTABLE_ROLE: "planner", ORPHUS_MEMORY_DIR: elsewhere } }),
    );
    expect(codes(foreign)).toEqual(["memory-unusable"]);
  });
});
