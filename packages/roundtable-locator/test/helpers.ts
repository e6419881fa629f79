// What the locator's tests share, and the broker's reuse (its test/helpers.ts): clean-up after each test, fresh
// agent directories short enough for a socket path, and socket files nobody listens on.
import { linkSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runs `cleanup` after the current test. */
export function onCleanup(cleanup: () => Promise<void> | void): void {
  cleanups.push(cleanup);
}

/** A fresh agent directory under the system temp dir (short, so socket paths fit), removed after the test. */
export function tempAgentDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "rt-"));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Leaves a socket file nobody listens on: bind a private path, link it into place, close (libuv unlinks only its own). */
export async function staleSocket(socketPath: string): Promise<void> {
  mkdirSync(join(socketPath, ".."), { recursive: true, mode: 0o700 });
  const server = createServer();
  const temporary = `${socketPath}.old`;
  await new Promise<void>((resolve) => server.listen(temporary, resolve));
  linkSync(temporary, socketPath);
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
