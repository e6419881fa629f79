import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import * as path from "node:path";

/** The package folder: programs run from its source there (no build needed). */
export const packageRoot = fileURLToPath(new URL("../../", import.meta.url));

/** What a finished process printed and how it exited. */
export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running program: its stdin, a wait for a line it prints, and its end. */
export interface Running {
  readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  /** Resolves when the program has printed `line` on stdout (rejects if it ends first). */
  line(line: string): Promise<void>;
  readonly finished: Promise<Finished>;
}

/** Starts `node --import tsx <script> <args>` from source with `env` (nothing of the test's own environment but PATH). */
export function startSource(script: string, args: readonly string[], env: Record<string, string>): Running {
  const child = spawn(
    process.execPath,
    ["--conditions=@orphus/source", "--import", "tsx", path.join(packageRoot, script), ...args],
    {
      cwd: packageRoot,
      env: { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? "", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  const waiting = new Set<() => void>();
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    for (const check of waiting) check();
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  // A program that never reads its stdin may be gone when the test writes to it; that is its own business.
  child.stdin.on("error", () => {});
  const finished = new Promise<Finished>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      for (const check of waiting) check();
      resolve({ code, stdout, stderr });
    });
  });
  const line = (wanted: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (stdout.split("\n").includes(wanted)) {
          waiting.delete(check);
          resolve();
        } else if (child.exitCode !== null || child.signalCode !== null) {
          waiting.delete(check);
          reject(
            new Error(`${script} ended before printing ${JSON.stringify(wanted)}; stderr: ${stderr.slice(0, 2000)}`),
          );
        }
      };
      waiting.add(check);
      check();
    });
  return { child, line, finished };
}

/** Runs `node --import tsx <script> <args>` from source with `env` to its end, its stdin closed. */
export function runSource(script: string, args: readonly string[], env: Record<string, string>): Promise<Finished> {
  const running = startSource(script, args, env);
  running.child.stdin.end();
  return running.finished;
}

/** Runs the orphus-memory CLI from source. */
export function runCliProcess(args: readonly string[], env: Record<string, string>): Promise<Finished> {
  return runSource("src/bin/orphus-memory.ts", args, env);
}
