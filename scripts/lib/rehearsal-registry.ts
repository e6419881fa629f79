// The throwaway registry of the release rehearsal: Verdaccio, installed with npm ci from its own lockfile
// (scripts/release-rehearsal/registry), started on 127.0.0.1 and a free port in a child process this script owns,
// given one user to publish as, and stopped at the end.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runAsync } from "./run.js";

/** How long the registry may take to start listening. */
export const REGISTRY_START_TIMEOUT_MS = 60_000;

/** A running registry. */
export interface LocalRegistry {
  /** e.g. http://127.0.0.1:41535/ */
  readonly url: string;
  /** The host part npm keys credentials by, e.g. //127.0.0.1:41535/ */
  readonly authKey: string;
  readonly pid: number;
  /** Stops the registry and waits for it to exit. */
  stop(): Promise<void>;
}

/** Installs the registry's locked dependencies when they are not there yet (npm ci, from package-lock.json). */
export async function ensureRegistryInstalled(toolDir: string): Promise<"installed" | "present"> {
  const lock = JSON.parse(readFileSync(join(toolDir, "package-lock.json"), "utf8")) as {
    packages: Record<string, { version?: string }>;
  };
  const wanted = lock.packages["node_modules/verdaccio"]?.version;
  const installed = join(toolDir, "node_modules", "verdaccio", "package.json");
  if (
    existsSync(installed) &&
    (JSON.parse(readFileSync(installed, "utf8")) as { version: string }).version === wanted
  ) {
    return "present";
  }
  await runAsync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], toolDir);
  return "installed";
}

/** Starts the registry with its storage in `storageDir`; resolves once it listens. */
export function startRegistry(toolDir: string, storageDir: string): Promise<LocalRegistry> {
  const child: ChildProcess = spawn(process.execPath, [join(toolDir, "serve.mjs"), storageDir], {
    cwd: toolDir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the registry did not listen within ${REGISTRY_START_TIMEOUT_MS} ms:\n${output.slice(-2000)}`));
    }, REGISTRY_START_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const port = /listening (\d+)/.exec(output)?.[1];
      if (port === undefined) return;
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      // Later output (warnings) is kept out of the rehearsal's own.
      child.stdout?.resume();
      child.stderr?.resume();
      const stop = (): Promise<void> =>
        new Promise((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once("exit", () => done());
          child.kill("SIGTERM");
          setTimeout(() => child.kill("SIGKILL"), 5000).unref();
        });
      resolve({ url: `http://127.0.0.1:${port}/`, authKey: `//127.0.0.1:${port}/`, pid: child.pid as number, stop });
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the registry exited (${code ?? signal}) before listening:\n${output.slice(-2000)}`));
    });
  });
}

/** Registers a user on the registry the way `npm adduser` does, and returns its token. */
export async function addRegistryUser(registry: LocalRegistry, name: string): Promise<string> {
  const response = await fetch(new URL(`-/user/org.couchdb.user:${name}`, registry.url), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, password: `${name}-rehearsal-only`, email: `${name}@example.invalid`, type: "user" }),
  });
  const body = (await response.json()) as { token?: string; error?: string };
  if (!response.ok || body.token === undefined) {
    throw new Error(
      `adding a user to the local registry failed: ${response.status} ${JSON.stringify(body).slice(0, 200)}`,
    );
  }
  return body.token;
}
