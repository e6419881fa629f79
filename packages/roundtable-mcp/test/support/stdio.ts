import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { alive, gone } from "../../../../test-support/processes.js";
import { binCommand, packageDir } from "../../../../test-support/target.js";
import { shortTempDir } from "../../../../test-support/tmp.js";

/** The temporary broker registry test-support/global-setup.ts names, passed on so no broker registers in the home. */
const registryDir: string =
  process.env["ORPHUS_ROUNDTABLE_REGISTRY_DIR"] ??
  ((): never => {
    throw new Error("ORPHUS_ROUNDTABLE_REGISTRY_DIR is unset: run through the vitest config");
  })();

/** The package folder as this run tests it: the workspace's (the server runs from source) or the installed one. */
export const packageRoot = packageDir("roundtable-mcp");

/** Node's arguments that run the bin with `args`: from source through tsx, or the installed dist/bin/mcp.js. */
export function serverArgs(args: readonly string[]): string[] {
  return [...binCommand("roundtable-mcp", "mcp", args).args];
}

/** A short temporary agent directory (the broker socket path must stay well under 108 bytes). */
export function shortAgentDir(): ReturnType<typeof shortTempDir> {
  return shortTempDir("rtm-");
}

/** The SDK's own Client over the SDK's own stdio transport, spawning the server as `role`; stderr is collected. */
export async function connectSdkStdio(
  role: string,
  agentDir: string,
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: serverArgs(["--as", role, "--agent-dir", agentDir]),
    cwd: packageRoot,
    // The SDK passes only a few variables by default; the registry's must reach the broker the server spawns.
    env: { ...getDefaultEnvironment(), ORPHUS_ROUNDTABLE_REGISTRY_DIR: registryDir },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: `test-${role}`, version: "0.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** How a spawned server ended. */
export interface ServerExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * An MCP client transport over a child this test spawned itself, so the test sees what the SDK's transport hides:
 * every stdout line (each must be a JSON-RPC frame) and how the process exited. Closing it only ends stdin; it
 * never signals the child, so a server that does not exit on its own keeps `exited` pending.
 */
export class RecordingStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** stdout lines that were not JSON-RPC frames: anything here broke the stdout rule. */
  readonly strayLines: string[] = [];
  frames = 0;
  stderr = "";
  #child: ChildProcess | undefined;
  #exited: Promise<ServerExit> | undefined;
  readonly #buffer = new ReadBuffer();

  constructor(private readonly args: readonly string[]) {}

  get exited(): Promise<ServerExit> {
    if (this.#exited === undefined) throw new Error("not started");
    return this.#exited;
  }

  start(): Promise<void> {
    const child = spawn(process.execPath, serverArgs(this.args), { cwd: packageRoot, stdio: ["pipe", "pipe", "pipe"] });
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    child.once("close", () => this.onclose?.());
    child.stderr?.on("data", (chunk: Buffer) => {
      this.stderr += chunk.toString("utf8");
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      this.#buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.#buffer.readMessage();
        } catch {
          // readMessage consumed the offending line; keep what we can show of it.
          this.strayLines.push(chunk.toString("utf8").slice(0, 200));
          continue;
        }
        if (message === null) break;
        this.frames++;
        this.onmessage?.(message);
      }
    });
    return new Promise((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", reject);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.#child?.stdin?.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.#child?.stdin?.end();
  }

  /** The child's pid, to end a test's own leftovers by id. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }
}

/**
 * Ends the broker of an agent directory a test started (through a server or a client it spawned), by its pid: the
 * one a client's hello reported, else the one in the broker's diagnostic pid file (set-up may have failed before a
 * hello). Waits until it is gone, so the directory can be removed without the broker's last log line recreating it.
 */
export async function endBroker(agentDir: string, pid?: number): Promise<void> {
  let target = pid;
  if (target === undefined) {
    try {
      target = (JSON.parse(readFileSync(join(agentDir, "roundtable", "broker.pid"), "utf8")) as { pid?: number }).pid;
    } catch {
      return; // no broker ever listened there
    }
  }
  if (target === undefined) return;
  if (alive(target)) process.kill(target, "SIGTERM");
  await gone(target);
}
