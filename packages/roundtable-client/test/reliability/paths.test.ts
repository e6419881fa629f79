// Stale and foreign paths: a socket file left by a killed broker is reclaimed by the next one; a regular file, a
// directory or a symbolic link at the socket path is refused with a clear error and left exactly as it was. An agent
// directory on a read-only file system, or one the user may not write, is a typed error naming it (as root: a
// read-only tmpfs is mounted, and the user switched with setpriv; skipped, saying why, otherwise).
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { AgentDirReadOnlyError, BrokerStartError } from "@orphus/roundtable-client";
import { staleSocket } from "../../../../test-support/sockets.js";
import {
  bounded,
  brokerProcesses,
  bundledClient,
  onCleanup,
  report,
  useHarness,
} from "../../../../test-support/reliability/harness.js";
import { tempDir } from "../../../../test-support/tmp.js";

const harness = useHarness();

test("a stale socket file is reclaimed by the broker the next call starts", async () => {
  const bundles = harness.bundles();
  const agentDir = tempDir();
  const socketPath = join(agentDir, "roundtable", "broker.sock");
  await staleSocket(socketPath);
  const stale = lstatSync(socketPath);
  const { client, spawned } = bundledClient(bundles, agentDir);
  const started = Date.now();
  const hello = await bounded("connect over a stale socket", 20_000, client.connect());
  const after = lstatSync(socketPath);
  expect(after.isSocket()).toBe(true);
  expect(after.ino === stale.ino && after.ctimeMs === stale.ctimeMs).toBe(false);
  expect(spawned.map((b) => b.pid)).toEqual([hello.brokerPid]);
  expect(readFileSync(join(agentDir, "roundtable", "broker.log"), "utf8")).toContain("info reclaimed a stale socket");
  report("stale socket", { reclaimed: true, spawns: spawned.length, connectMs: Date.now() - started });
});

/** What a path is, to compare before and after: kind, inode, size, times, link target, directory contents. */
function snapshot(path: string): string {
  const stats = lstatSync(path);
  return JSON.stringify({
    kind: stats.isSymbolicLink() ? "symlink" : stats.isDirectory() ? "directory" : stats.isFile() ? "file" : "other",
    ino: stats.ino,
    size: stats.size,
    mode: stats.mode,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
    target: stats.isSymbolicLink() ? readlinkSync(path) : undefined,
    content: stats.isFile() ? readFileSync(path, "utf8") : undefined,
    entries: stats.isDirectory() ? readdirSync(path) : undefined,
  });
}

const foreign: [string, string, (path: string, outside: string) => void][] = [
  ["a regular file", "a regular file", (path) => writeFileSync(path, "precious notes\n")],
  [
    "a directory",
    "a directory",
    (path) => {
      mkdirSync(path);
      writeFileSync(join(path, "inside.txt"), "kept");
    },
  ],
  [
    "a symbolic link to a file",
    "a symbolic link",
    (path, outside) => {
      writeFileSync(join(outside, "target.txt"), "the target");
      symlinkSync(join(outside, "target.txt"), path);
    },
  ],
  ["a dangling symbolic link", "a symbolic link", (path, outside) => symlinkSync(join(outside, "nothing-here"), path)],
];

test.each(foreign)("%s at the socket path is refused clearly and left untouched", async (label, named, make) => {
  const bundles = harness.bundles();
  const agentDir = tempDir();
  const outside = tempDir();
  const socketPath = join(agentDir, "roundtable", "broker.sock");
  mkdirSync(join(agentDir, "roundtable"), { mode: 0o700 });
  make(socketPath, outside);
  const before = snapshot(socketPath);
  const outsideBefore = readdirSync(outside).map((name) => snapshot(join(outside, name)));
  const { client, spawned } = bundledClient(bundles, agentDir);
  const started = Date.now();
  const failure = await bounded(
    `connect with ${label} at the socket path`,
    30_000,
    client.connect().then(
      () => undefined,
      (error: unknown) => error,
    ),
  );
  expect(failure).toBeInstanceOf(BrokerStartError);
  const message = (failure as Error).message;
  expect(message).toContain(`The roundtable broker did not start on ${socketPath}`);
  expect(message).toContain(
    `Cannot start the broker: ${socketPath} is ${named}, not a socket. The broker never removes what it did not ` +
      "create; move or delete it yourself, then start again.",
  );
  // Untouched, and nothing left running.
  expect(snapshot(socketPath)).toBe(before);
  expect(readdirSync(outside).map((name) => snapshot(join(outside, name)))).toEqual(outsideBefore);
  await Promise.all(spawned.map((b) => b.exited));
  expect(spawned.map((b) => b.exit()?.code)).toEqual(spawned.map(() => 1));
  expect(brokerProcesses(bundles.broker, agentDir)).toEqual([]);
  report(`foreign path: ${label}`, {
    refused: true,
    untouched: true,
    spawns: spawned.length,
    failMs: Date.now() - started,
  });
});

/** Skips a scenario that needs root (to mount, to switch users), saying why; CI runs as root. */
function needsRoot(context: { skip: () => void }, scenario: string): void {
  if (process.getuid?.() === 0) return;
  process.stdout.write(
    `[reliability] ${scenario}: skipped, this process is not root (uid ${process.getuid?.()}); CI runs as root\n`,
  );
  context.skip();
}

test("an agent directory on a read-only file system: a typed error naming it, from the client and the bin", async (context) => {
  needsRoot(context, "read-only agent directory");
  const bundles = harness.bundles();
  const agentDir = tempDir();
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", agentDir], { stdio: "pipe" });
  } catch (error) {
    // Root without the right to mount (some containers): nothing to try here.
    process.stdout.write(
      `[reliability] read-only agent directory: skipped, mount failed: ${String(error).split("\n")[0]}\n`,
    );
    context.skip();
  }
  onCleanup(() => execFileSync("umount", [agentDir]));
  const { client, spawned } = bundledClient(bundles, agentDir);
  const failure = await bounded(
    "connect on a read-only file system",
    20_000,
    client.connect().then(
      () => undefined,
      (error: unknown) => error,
    ),
  );
  expect(failure).toBeInstanceOf(AgentDirReadOnlyError);
  expect(failure).toMatchObject({
    code: "ERR_AGENT_DIR_READ_ONLY",
    message: expect.stringContaining(`The agent directory ${agentDir} is on a read-only file system`),
  });
  expect(spawned).toEqual([]);
  // The bin, started by hand, says the same and exits 1.
  const bin = spawnSync(process.execPath, [bundles.broker, "--agent-dir", agentDir], {
    encoding: "utf8",
    timeout: 15_000,
  });
  expect(bin.status).toBe(1);
  expect(bin.stderr).toContain(`The agent directory ${agentDir} is on a read-only file system`);
  report("read-only agent directory", {
    client: "ERR_AGENT_DIR_READ_ONLY",
    spawns: spawned.length,
    binExit: bin.status ?? -1,
  });
});

test("an agent directory the user may not write: a typed error naming it and the fix", async (context) => {
  needsRoot(context, "agent directory without permission");
  const bundles = harness.bundles();
  // Readable by nobody: the driver, and the way to it; the agent directory itself is 0555 and root's.
  const place = tempDir();
  chmodSync(place, 0o755);
  const driver = join(place, "driver.js");
  copyFileSync(bundles.driver, driver);
  chmodSync(driver, 0o644);
  const agentDir = join(place, "agent");
  mkdirSync(agentDir, { mode: 0o555 });
  chmodSync(agentDir, 0o555);
  const config = JSON.stringify({ agentDir, brokerBin: bundles.broker, deadlineMs: 15_000 });
  const run = spawnSync(
    "setpriv",
    ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, driver, "start-once", config],
    { encoding: "utf8", timeout: 20_000, cwd: "/" },
  );
  const result = JSON.parse(run.stdout.trim().split("\n").pop() ?? "{}") as Record<string, unknown>;
  expect(result).toMatchObject({
    type: "result",
    ok: false,
    name: "AgentDirPermissionError",
    code: "ERR_AGENT_DIR_PERMISSION_DENIED",
    message: expect.stringContaining(`Permission denied in the agent directory ${agentDir}`),
  });
  expect(String(result["message"])).toContain(`chmod u+rwx ${agentDir}`);
  expect(brokerProcesses(bundles.broker, agentDir)).toEqual([]);
  report("agent directory without permission", {
    as: "uid 65534",
    client: "ERR_AGENT_DIR_PERMISSION_DENIED",
    brokersStarted: 0,
  });
});
