import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { BrokerOptionError } from "./errors.js";

// The bin is a file of @orphus/roundtable-broker, and where that package is installed only a package that depends on
// it can find out: the locator cannot, since the broker depends on the locator. So every path here is taken from the
// broker package's folder, `brokerRoot`, which a client finds by resolving `@orphus/roundtable-broker/package.json`
// (a file, so nothing of the server is loaded).

/** Absolute path of the built bin of the broker package in `brokerRoot`, `dist/bin/broker.js`: what an install spawns. */
export function brokerBinPath(brokerRoot: string): string {
  return path.resolve(brokerRoot, "dist", "bin", "broker.js");
}

/** Absolute path of the bin's TypeScript source, `src/bin/broker.ts`: what a workspace checkout spawns through tsx. */
export function brokerSourceBinPath(brokerRoot: string): string {
  return path.resolve(brokerRoot, "src", "bin", "broker.ts");
}

/**
 * True when this package was loaded from TypeScript source (the workspace's `@orphus/source` condition), as the
 * workspace's packages are, the broker among them: a broker is then started from its source too.
 */
export function runningFromSource(): boolean {
  return import.meta.url.endsWith(".ts");
}

/** Options of {@link brokerCommand}. */
export interface BrokerCommandOptions {
  /** The folder of the broker package whose bin runs (`@orphus/roundtable-broker`, where its package.json is). */
  readonly brokerRoot: string;
  /** Passed as `--agent-dir`; default: the bin resolves it from the environment. */
  readonly agentDir?: string;
  /** Passed as `--idle-ms`; default: the bin's own (5 s). */
  readonly idleMs?: number;
  /**
   * "dist" runs the built bin with plain node; "source" runs `src/bin/broker.ts` with
   * `node --conditions=@orphus/source --import tsx`; "auto" (default) runs the form this package was loaded as.
   */
  readonly from?: "auto" | "dist" | "source";
}

/** A program and its arguments, ready for `spawn(command, args, { detached: true, stdio: "ignore" })`. */
export interface BrokerCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * The command that starts the bin of the broker package in `brokerRoot`. Spawning it is the caller's job (detached,
 * no stdio, its own process group). From source, tsx is resolved from this package, so a workspace needs no build
 * before a broker starts.
 */
export function brokerCommand(options: BrokerCommandOptions): BrokerCommand {
  const brokerRoot = options?.brokerRoot;
  if (typeof brokerRoot !== "string" || brokerRoot === "") {
    throw new BrokerOptionError(
      "brokerRoot",
      "the folder of @orphus/roundtable-broker (where its package.json is)",
      brokerRoot,
    );
  }
  const from = options.from ?? "auto";
  if (from !== "auto" && from !== "dist" && from !== "source") {
    throw new BrokerOptionError("from", '"auto", "dist" or "source"', from);
  }
  const flags: string[] = [];
  if (options.agentDir !== undefined) flags.push("--agent-dir", options.agentDir);
  if (options.idleMs !== undefined) flags.push("--idle-ms", String(options.idleMs));
  const source = from === "source" || (from === "auto" && runningFromSource());
  if (!source) return { command: process.execPath, args: [brokerBinPath(brokerRoot), ...flags] };
  const sourceBin = brokerSourceBinPath(brokerRoot);
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
