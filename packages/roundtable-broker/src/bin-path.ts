import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BrokerOptionError } from "./errors.js";

// This module sits one folder below the package root both as source (src/bin-path.ts) and built (dist/index.js),
// so the root is the same relative URL either way.
const packageRoot = new URL("../", import.meta.url);

/** Absolute path of the built bin, `dist/bin/broker.js`: what a published install spawns. */
export function brokerBinPath(): string {
  return fileURLToPath(new URL("dist/bin/broker.js", packageRoot));
}

/** Absolute path of the bin's TypeScript source, `src/bin/broker.ts`: what a workspace checkout spawns through tsx. */
export function brokerSourceBinPath(): string {
  return fileURLToPath(new URL("src/bin/broker.ts", packageRoot));
}

/** True when this module was loaded from TypeScript source (the workspace's `@orphus/source` condition). */
export function runningFromSource(): boolean {
  return import.meta.url.endsWith(".ts");
}

/** Options of {@link brokerCommand}. */
export interface BrokerCommandOptions {
  /** Passed as `--agent-dir`; default: the bin resolves it from the environment. */
  readonly agentDir?: string;
  /** Passed as `--idle-ms`; default: the bin's {@link DEFAULT_IDLE_MS}. */
  readonly idleMs?: number;
  /**
   * "dist" runs the built bin with plain node; "source" runs `src/bin/broker.ts` with
   * `node --conditions=@orphus/source --import tsx`; "auto" (default) runs the form this module was loaded as.
   */
  readonly from?: "auto" | "dist" | "source";
}

/** A program and its arguments, ready for `spawn(command, args, { detached: true, stdio: "ignore" })`. */
export interface BrokerCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * The command that starts a broker bin. Spawning it is the caller's job (detached, no stdio, its own process
 * group). From source, tsx is resolved from this package, so a workspace needs no build before a broker starts.
 */
export function brokerCommand(options: BrokerCommandOptions = {}): BrokerCommand {
  const from = options.from ?? "auto";
  if (from !== "auto" && from !== "dist" && from !== "source") {
    throw new BrokerOptionError("from", '"auto", "dist" or "source"', from);
  }
  const flags: string[] = [];
  if (options.agentDir !== undefined) flags.push("--agent-dir", options.agentDir);
  if (options.idleMs !== undefined) flags.push("--idle-ms", String(options.idleMs));
  const source = from === "source" || (from === "auto" && runningFromSource());
  if (!source) return { command: process.execPath, args: [brokerBinPath(), ...flags] };
  const sourceBin = brokerSourceBinPath();
  if (!existsSync(sourceBin)) {
    throw new BrokerOptionError("from", "a checkout with src/bin/broker.ts (published packages ship dist only)", from);
  }
  return {
    command: process.execPath,
    args: ["--conditions=@orphus/source", "--import", tsxLoaderUrl(), sourceBin, ...flags],
  };
}

function tsxLoaderUrl(): string {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  } catch (cause) {
    throw new BrokerOptionError("from", "tsx installed in the workspace to run the bin from source", "source", {
      cause,
    });
  }
}
