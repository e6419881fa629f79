import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  createRoundtableClient,
  type RoundtableClient,
  type RoundtableToolClient,
} from "@orphus/roundtable-client";
import { MCP_USAGE, parseMcpArguments } from "./args.js";
import { McpUsageError } from "./errors.js";
import { MAX_MCP_INPUT_BYTES } from "./limits.js";
import { createRoundtableMcpServer } from "./server.js";
import { MCP_SERVER_VERSION } from "./version.js";

/** The streams and environment of {@link runStdioServer}; the bin passes the process's own. */
export interface StdioServerIo {
  /** MCP frames from the host, one JSON-RPC message per line. */
  readonly stdin: Readable;
  /** MCP frames to the host, and nothing else while serving. */
  readonly stdout: Writable;
  /** Diagnostics: start-up, broker trouble, shutdown. */
  readonly stderr: Writable;
  /** Where the agent directory is resolved from when `--agent-dir` is absent; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Replaces the broker client the server creates (tests, embedding); it must speak as the `--as` role. */
  readonly createClient?: (options: { role: string; agentDir?: string; env: NodeJS.ProcessEnv }) => StdioServerClient;
}

/** What {@link runStdioServer} needs of a broker client: the tool's calls, plus connecting at start and closing. */
export type StdioServerClient = RoundtableToolClient & Pick<RoundtableClient, "connect" | "close">;

const PREFIX = "orphus-roundtable-mcp";

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs `orphus-roundtable-mcp` with the given arguments: prints help or the version, or serves MCP over the given
 * stdio until the host closes stdin. The broker is ensured at start-up, concurrently with the MCP handshake (a
 * start-up failure is reported on stderr, and every call retries it and returns the failure as an `isError`
 * result). Resolves with the exit code: 0 when the host ended the session, 1 when it ended on an error (an input
 * line over {@link MAX_MCP_INPUT_BYTES}), 2 for bad arguments.
 */
export async function runStdioServer(argv: readonly string[], io: StdioServerIo): Promise<number> {
  const diagnostic = (line: string): void => {
    io.stderr.write(`${PREFIX}: ${line}\n`);
  };
  let args: ReturnType<typeof parseMcpArguments>;
  try {
    args = parseMcpArguments(argv);
  } catch (error) {
    if (!(error instanceof McpUsageError)) throw error;
    io.stderr.write(`${error.message}\n(orphus-roundtable-mcp --help shows the usage)\n`);
    return 2;
  }
  if (args.command === "help") {
    io.stdout.write(MCP_USAGE);
    return 0;
  }
  if (args.command === "version") {
    io.stdout.write(`${MCP_SERVER_VERSION}\n`);
    return 0;
  }

  const env = io.env ?? process.env;
  const clientOptions = { role: args.role, env, ...(args.agentDir === undefined ? {} : { agentDir: args.agentDir }) };
  const client: StdioServerClient =
    io.createClient?.(clientOptions) ??
    createRoundtableClient({ ...clientOptions, onWarning: (warning) => diagnostic(warning) });
  const server = createRoundtableMcpServer({ role: args.role, client, env, ...(args.agentDir === undefined ? {} : { agentDir: args.agentDir }) });
  const transport = new StdioServerTransport(io.stdin, io.stdout, { maxBufferSize: MAX_MCP_INPUT_BYTES });

  let hostEnded = false;
  let failure: string | undefined;
  const closed = new Promise<void>((resolve) => {
    // The server has close hooks of its own (the memory store it opened): run them, then end the session.
    const hooks = server.onclose;
    server.onclose = () => {
      hooks?.();
      resolve();
    };
  });
  server.onerror = (error) => {
    // Malformed lines are reported here and skipped; an over-long line also closes the transport.
    failure = message(error);
    diagnostic(`bad input from the host: ${failure.slice(0, 300)}`);
  };
  const end = (): void => {
    hostEnded = true;
    void server.close();
  };
  io.stdin.once("end", end);
  io.stdin.once("close", end);
  // A host that went away makes stdout fail with EPIPE: that ends the session too, quietly.
  io.stdout.on("error", end);

  await server.connect(transport);
  client.connect().then(
    (hello) => diagnostic(`seated as "${client.role}"; broker pid ${hello.brokerPid} (version ${hello.brokerVersion})`),
    (error: unknown) => {
      if (!hostEnded) diagnostic(`the broker is not reachable yet (each call retries): ${message(error)}`);
    },
  );

  await closed;
  client.close();
  io.stdin.off("end", end);
  io.stdin.off("close", end);
  io.stdout.off("error", end);
  if (hostEnded) return 0;
  diagnostic(`session ended: ${failure ?? "the transport closed"}`);
  return 1;
}
