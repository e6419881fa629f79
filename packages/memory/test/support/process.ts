import { spawn } from "node:child_process";
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

/** Runs `node --import tsx <script> <args>` from source with `env` (nothing of the test's own environment but PATH). */
export function runSource(script: string, args: readonly string[], env: Record<string, string>): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--conditions=@orphus/source", "--import", "tsx", path.join(packageRoot, script), ...args],
      { cwd: packageRoot, env: { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the orphus-memory CLI from source. */
export function runCliProcess(args: readonly string[], env: Record<string, string>): Promise<Finished> {
  return runSource("src/bin/orphus-memory.ts", args, env);
}
