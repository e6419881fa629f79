// Stale and foreign paths: a socket file left by a killed broker is reclaimed by the next one; a regular file, a
// directory or a symbolic link at the socket path is refused with a clear error and left exactly as it was.
import { lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { BrokerStartError } from "../../src/index.js";
import { staleSocket } from "../support/sockets.js";
import { bounded, brokerProcesses, bundledClient, report, tempDir, useHarness } from "./support/harness.js";

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
  const failure = await bounded(`connect with ${label} at the socket path`, 30_000, client.connect().then(
    () => undefined,
    (error: unknown) => error,
  ));
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
  report(`foreign path: ${label}`, { refused: true, untouched: true, spawns: spawned.length, failMs: Date.now() - started });
});
