// Running commands from the repository's scripts: one way to run a process and report its failure whole, and a
// bounded pool for the steps that wait on the network (npm installs), so they overlap without flooding a small
// machine.
import { execFile, execFileSync } from "node:child_process";

/** A failed command: what ran, where, its exit, and the tail of both outputs. */
function failure(command: string, args: readonly string[], cwd: string, error: unknown): Error {
  const { stdout, stderr, status, code } = error as {
    stdout?: string;
    stderr?: string;
    status?: number;
    code?: number;
  };
  return new Error(
    `${command} ${args.join(" ")} failed (exit ${status ?? code ?? "?"}) in ${cwd}\n` +
      `${String(stdout ?? "").slice(-4000)}\n${String(stderr ?? "").slice(-4000)}`,
    { cause: error },
  );
}

const MAX_BUFFER = 64 * 1024 * 1024;

/** Runs a command and returns its stdout; throws with the command, folder, exit and both outputs on failure. */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  try {
    return execFileSync(command, args, {
      cwd,
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: MAX_BUFFER,
    });
  } catch (error) {
    throw failure(command, args, cwd, error);
  }
}

/** {@link run}, without blocking the event loop, so several can wait on the network at once. */
export function runAsync(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env, encoding: "utf8", maxBuffer: MAX_BUFFER }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else reject(failure(command, args, cwd, Object.assign(error, { stdout, stderr })));
    });
  });
}

/** Maps `items` through `task`, at most `limit` at a time; results keep the order of `items`. The first failure rejects. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
