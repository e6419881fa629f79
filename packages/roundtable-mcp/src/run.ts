import { isAbsolute, resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import { hasErrorCode } from "@orphus/internal";
import {
  boundedText,
  createRoundtableClient,
  locateBroker,
  openBrokerSocket,
  shownName,
  shownPath,
  type BrokerLocation,
  type BrokerStartError,
  type RoundtableClient,
  type RoundtableToolClient,
} from "@orphus/roundtable-client";
import { MCP_USAGE, parseMcpArguments } from "./args.js";
import { McpUsageError } from "./errors.js";
import { MAX_MCP_DIAGNOSTIC_CHARS, MAX_MCP_INPUT_BYTES, MAX_MCP_LOG_TAIL_CHARS } from "./limits.js";
import { createRoundtableMcpServer } from "./server.js";
import { LineBoundedStdioTransport } from "./transport.js";
import { MCP_SERVER_VERSION } from "./version.js";

/** The streams and environment of {@link runStdioServer}; the bin passes the process's own. */
export interface StdioServerIo {
  /** MCP frames from the host, one JSON-RPC message per line. */
  readonly stdin: Readable;
  /** MCP frames to the host, and nothing else while serving. */
  readonly stdout: Writable;
  /** Diagnostics: start-up, broker trouble, shutdown; one prefixed line each. */
  readonly stderr: Writable;
  /** Where the agent directory is resolved from when `--agent-dir` is absent; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Where a relative `--agent-dir` is resolved from; default process.cwd(). */
  readonly cwd?: string;
  /**
   * Replaces the broker client the server creates (tests, embedding); it must speak as the `--as` role. It gets the
   * agent directory already resolved to an absolute path.
   */
  readonly createClient?: (options: { role: string; agentDir: string; env: NodeJS.ProcessEnv }) => StdioServerClient;
}

/** What {@link runStdioServer} needs of a broker client: the tool's calls, plus connecting, loss reports and closing. */
export type StdioServerClient = RoundtableToolClient & Pick<RoundtableClient, "connect" | "close" | "onConnectionLost">;

const PREFIX = "orphus-roundtable-mcp";

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A stderr line's text: sanitised by the one sanitiser (no escape code can colour the host's log), line breaks
 * folded into ` | ` (no echoed value can start a line of its own), cut to MAX_MCP_DIAGNOSTIC_CHARS.
 */
function oneLine(text: string): string {
  return boundedText(text, MAX_MCP_DIAGNOSTIC_CHARS, { oneLine: true });
}

/** A broker start failure in one line: where, why, and the end of its log. */
function startFailureLine(error: BrokerStartError): string {
  const tail =
    error.logTail === undefined || error.logTail.trim() === ""
      ? "(empty)"
      : boundedText(error.logTail, MAX_MCP_LOG_TAIL_CHARS, { oneLine: true, keep: "end" });
  return `broker start failed on ${shownPath(error.socketPath)}: ${error.reason}; broker log: ${tail}`;
}

/** The variable that names the agent directory when `--agent-dir` does not. */
const AGENT_DIR_VARIABLE = "ORPHUS_CODING_AGENT_DIR";

/** What set the agent directory (the flag, the variable, or nothing), and its value made absolute against `cwd`. */
interface AgentDirChoice {
  readonly setting: "--agent-dir" | typeof AGENT_DIR_VARIABLE | "default";
  /** As given; undefined for the default. */
  readonly given?: string;
  /** Absolute, or `~`-relative (expanded by the client); undefined for the default. */
  readonly agentDir?: string;
}

function chooseAgentDir(flag: string | undefined, env: NodeJS.ProcessEnv, cwd: string): AgentDirChoice {
  const fromEnv = env[AGENT_DIR_VARIABLE]?.trim() ?? "";
  const given = flag ?? (fromEnv === "" ? undefined : fromEnv);
  if (given === undefined) return { setting: "default" };
  const setting = flag === undefined ? AGENT_DIR_VARIABLE : "--agent-dir";
  const agentDir = given === "~" || given.startsWith("~/") || isAbsolute(given) ? given : resolve(cwd, given);
  return { setting, given, agentDir };
}

/** The one line naming the directory, and where it came from. */
function agentDirLine(agentDir: string, choice: AgentDirChoice, cwd: string): string {
  if (choice.given === undefined) return `agent directory ${shownPath(agentDir)} (the default)`;
  const relative = choice.agentDir !== undefined && choice.agentDir !== choice.given && !choice.given.startsWith("~");
  return (
    `agent directory ${shownPath(agentDir)} (from ${choice.setting} "${shownPath(choice.given)}"` +
    `${relative ? `, resolved against ${shownPath(cwd)}` : ""})`
  );
}

/**
 * Runs `orphus-roundtable-mcp` with the given arguments: prints help or the version, or serves MCP over the given
 * stdio until the host closes stdin. The agent directory is resolved to an absolute path once, at start, and named
 * on stderr; a directory whose socket path cannot fit is refused there (exit 2), naming the flag or variable that set
 * it. The broker is ensured at start-up, concurrently with the MCP handshake (a start-up failure is reported on
 * stderr, and every call retries it and returns the failure as an `isError` result). No input ends the session: a
 * line over {@link MAX_MCP_INPUT_BYTES} is answered with a JSON-RPC error and skipped. Resolves with the exit code:
 * 0 when the host ended the session, 1 when it ended otherwise (stdin failed), 2 for bad arguments.
 */
export async function runStdioServer(argv: readonly string[], io: StdioServerIo): Promise<number> {
  const diagnostic = (line: string): void => {
    io.stderr.write(`${PREFIX}: ${oneLine(line)}\n`);
  };
  let args: ReturnType<typeof parseMcpArguments>;
  try {
    args = parseMcpArguments(argv);
  } catch (error) {
    if (!(error instanceof McpUsageError)) throw error;
    io.stderr.write(`${oneLine(error.message)}\n(orphus-roundtable-mcp --help shows the usage)\n`);
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
  const cwd = io.cwd ?? process.cwd();
  // Resolved once, now: a relative directory means the one the host started us in, not wherever the process is
  // later, and the line below says which one it is. A directory whose socket path cannot fit is refused here.
  const choice = chooseAgentDir(args.agentDir, env, cwd);
  let location: BrokerLocation;
  try {
    location = locateBroker({
      env,
      ...(choice.agentDir === undefined ? {} : { agentDir: choice.agentDir, agentDirSetting: choice.setting }),
    });
  } catch (error) {
    diagnostic(message(error));
    return 2;
  }
  diagnostic(agentDirLine(location.agentDir, choice, cwd));

  const client: StdioServerClient =
    io.createClient?.({ role: args.role, agentDir: location.agentDir, env }) ??
    createRoundtableClient({
      role: args.role,
      onWarning: (warning) => diagnostic(warning),
      connector: () =>
        openBrokerSocket({
          socketPath: location.socketPath,
          spawn: location.spawn ?? false,
          onSpawn: (broker) =>
            diagnostic(`broker spawned: pid ${broker.pid ?? "unknown"}, socket ${shownPath(location.socketPath)}`),
        }).catch((error: unknown) => {
          if (hasErrorCode<BrokerStartError>(error, "ERR_BROKER_START_FAILED")) diagnostic(startFailureLine(error));
          throw error;
        }),
    });
  const server = createRoundtableMcpServer({
    role: args.role,
    client,
    env,
    agentDir: location.agentDir,
    agentDirSource: choice.setting,
  });
  const transport = new LineBoundedStdioTransport(io.stdin, io.stdout, { maxLineBytes: MAX_MCP_INPUT_BYTES });

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
    // Malformed and oversized lines are reported here and skipped (an oversized request also got its error reply).
    failure = message(error);
    diagnostic(`bad input from the host: ${failure}`);
  };
  const end = (): void => {
    hostEnded = true;
    void server.close();
  };
  io.stdin.once("end", end);
  io.stdin.once("close", end);
  // A host that went away makes stdout fail with EPIPE: that ends the session too, quietly.
  io.stdout.on("error", end);
  const unwatchLoss = client.onConnectionLost((reason) => {
    if (!hostEnded)
      diagnostic(
        `broker lost (${reason}); the next call reconnects, starting a broker if none answers, and rooms must be joined again`,
      );
  });

  await server.connect(transport);
  client.connect().then(
    (hello) =>
      diagnostic(
        `seated as "${shownName(client.role)}"; broker pid ${hello.brokerPid} (version ${shownName(hello.brokerVersion)})`,
      ),
    (error: unknown) => {
      // A start failure was named by the connector already, in its own line.
      if (!hostEnded && !hasErrorCode<BrokerStartError>(error, "ERR_BROKER_START_FAILED")) {
        diagnostic(`the broker is not reachable yet (each call retries): ${message(error)}`);
      }
    },
  );

  await closed;
  unwatchLoss();
  client.close();
  io.stdin.off("end", end);
  io.stdin.off("close", end);
  io.stdout.off("error", end);
  if (hostEnded) return 0;
  diagnostic(`session ended: ${failure ?? "the transport closed"}`);
  return 1;
}
