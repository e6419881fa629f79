import { PassThrough } from "node:stream";
import { runStdioServer } from "@orphus/roundtable-mcp";
import { FakeToolClient } from "./fake-client.js";

/** runStdioServer over in-memory pipes, with the fake client; the bin does the same over the process's stdio. */
export function harness(argv: string[], env: NodeJS.ProcessEnv = {}, fake = new FakeToolClient("codex")) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  /** Woken by every chunk the server writes, and when it ends: a request waits for its reply on these, never on a clock. */
  const waiters = new Set<() => void>();
  const wake = (): void => {
    for (const waiter of [...waiters]) waiter();
  };
  stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString("utf8");
    wake();
  });
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  const created: { role: string; agentDir?: string }[] = [];
  const exit = runStdioServer(argv, {
    stdin,
    stdout,
    stderr,
    env,
    cwd: "/work/here",
    createClient: (options) => {
      created.push({ role: options.role, ...(options.agentDir === undefined ? {} : { agentDir: options.agentDir }) });
      return fake;
    },
  });
  let ended = false;
  // Once what the server wrote last has been read (the stream hands it on in a later tick), nothing more comes.
  const end = (): void =>
    void setImmediate(() => {
      ended = true;
      wake();
    });
  exit.then(end, end);
  const lines = (): unknown[] =>
    out
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as unknown);
  const request = async (id: number, method: string, params: unknown = {}): Promise<Record<string, unknown>> => {
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    for (;;) {
      const reply = lines().find((line) => (line as { id?: unknown }).id === id);
      if (reply !== undefined) return reply as Record<string, unknown>;
      if (ended) throw new Error(`the server ended before it answered request ${id} (${method})`);
      await new Promise<void>((resolve) => {
        const waiter = (): void => {
          waiters.delete(waiter);
          resolve();
        };
        waiters.add(waiter);
      });
    }
  };
  const initialize = async (): Promise<void> => {
    await request(0, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    });
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  };
  return { stdin, exit, fake, created, request, initialize, lines, out: () => out, err: () => err };
}
