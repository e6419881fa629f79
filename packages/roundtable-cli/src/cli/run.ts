// `roundtable`: the arguments are read and checked whole first; only then does a command connect (or, for post,
// spawn). Every write passes the one sanitiser on its way out.
import { sanitizeText } from "@orphus/digest";
import { hasErrorCode } from "@orphus/internal";
import type { WireRefusalError } from "@orphus/roundtable-protocol";
import {
  MAX_ERROR_TEXT_CHARS,
  boundedText,
  createRoundtableClient,
  locateBroker,
  type BrokerNotRunningError,
  type CreateRoundtableClientOptions,
  type RoundtableClient,
} from "@orphus/roundtable-client";
import { doctorExitCode, renderDoctorReport, runDoctor, type DoctorOptions } from "../doctor/run.js";
import { CliUsageError } from "../errors.js";
import { CLI_VERSION } from "../version.js";
import {
  parseCliArguments,
  type CliArguments,
  type ClientCommandArguments,
  type DoctorArguments,
  type ViewArguments,
} from "./arguments.js";
import { runClientCommand } from "./commands.js";
import { CLI_EXIT, CLI_HELP_POINTER, CLI_USAGE } from "./usage.js";
import { runView, type ViewIo } from "./view.js";

/** Where the CLI writes, what it reads, and what stops `tail`; injected so tests run it in-process. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env?: NodeJS.ProcessEnv;
  /** Aborting ends `tail` with exit code 0 (the bin wires SIGINT and SIGTERM to it). */
  readonly signal?: AbortSignal;
  /** Passed to the client (tests use it to shorten timeouts or count spawns). */
  readonly clientOptions?: CreateRoundtableClientOptions;
  /** Passed to the doctor (tests use it to point at a registry or shorten timeouts). */
  readonly doctorOptions?: DoctorOptions;
  /** view: opens the broker watch (default: the client's watchBroker, which starts a broker when none runs). */
  readonly openWatch?: ViewIo["openWatch"];
  /** view --open: opens the URL in a browser (default: xdg-open, open or start, detached). */
  readonly openUrl?: ViewIo["openUrl"];
}

/** Wire codes of refusals that are the broker's limits on what was typed: usage errors, as the CLI's own check is. */
const ARGUMENT_REFUSALS: ReadonlySet<string> = new Set(["ERR_BODY_TOO_LARGE", "ERR_HEADLINE_TOO_LARGE"]);

/** An error as the CLI prints it: its message, sanitised and cut to MAX_ERROR_TEXT_CHARS. */
function describe(error: unknown): string {
  return boundedText(error instanceof Error ? error.message : String(error), MAX_ERROR_TEXT_CHARS);
}

/** A usage error as the CLI prints it: one line saying what is wrong, then where the usage is. */
function usageError(io: CliIo, message: string): number {
  io.stderr.write(
    `roundtable: ${boundedText(message, MAX_ERROR_TEXT_CHARS, { oneLine: true })}\n${CLI_HELP_POINTER}\n`,
  );
  return CLI_EXIT.usage;
}

/**
 * The CLI's streams with every write passed through sanitizeText: whatever a text holds (a peer's body, a room name
 * from the command line, a broker's log), no escape sequence, control or invisible character reaches the terminal.
 * Names and paths were escaped where they were put in, so this drops nothing of them.
 */
function sanitisedIo(io: CliIo): CliIo {
  return {
    ...io,
    stdout: { write: (text: string) => io.stdout.write(sanitizeText(text)) },
    stderr: { write: (text: string) => io.stderr.write(sanitizeText(text)) },
  };
}

async function doctor(args: DoctorArguments, io: CliIo): Promise<number> {
  try {
    const report = await runDoctor({
      ...io.doctorOptions,
      ...(io.env === undefined ? {} : { env: io.env }),
      ...(args.agentDir === undefined ? {} : { agentDir: args.agentDir }),
      ...(args.role === undefined ? {} : { role: args.role }),
    });
    io.stdout.write(renderDoctorReport(report));
    return doctorExitCode(report);
  } catch (error) {
    io.stderr.write(`roundtable doctor: could not finish: ${describe(error)}\n`);
    return CLI_EXIT.failed;
  }
}

async function clientCommand(args: ClientCommandArguments, io: CliIo): Promise<number> {
  const { action } = args;
  let client: RoundtableClient | undefined;
  try {
    const options: CreateRoundtableClientOptions = {
      ...io.clientOptions,
      role: args.role,
      ...(io.env === undefined ? {} : { env: io.env }),
      ...(args.agentDir === undefined ? {} : { agentDir: args.agentDir, agentDirSetting: "--agent-dir" }),
      spawnBroker: action.command === "post",
      onWarning: () => undefined,
    };
    const { socketPath } = locateBroker({ ...options, spawnBroker: false });
    client = createRoundtableClient(options);
    return await runClientCommand(client, { ...io, describe }, action, socketPath);
  } catch (error) {
    if (hasErrorCode<WireRefusalError>(error, "ERR_WIRE_REFUSED") && ARGUMENT_REFUSALS.has(error.wireCode)) {
      return usageError(io, error.message);
    }
    io.stderr.write(`roundtable: ${describe(error)}\n`);
    return hasErrorCode<BrokerNotRunningError>(error, "ERR_BROKER_NOT_RUNNING") ? CLI_EXIT.noBroker : CLI_EXIT.failed;
  } finally {
    client?.close();
  }
}

/** Runs the CLI; resolves with the exit code (CLI_EXIT). Never throws. Everything it writes passes sanitizeText. */
export async function runCli(argv: readonly string[], rawIo: CliIo): Promise<number> {
  const io = sanitisedIo(rawIo);
  let args: CliArguments | "help" | "version";
  try {
    args = parseCliArguments(argv);
  } catch (error) {
    if (error instanceof CliUsageError) return usageError(io, error.message);
    io.stderr.write(`roundtable: ${describe(error)}\n`);
    return CLI_EXIT.failed;
  }
  if (args === "help") {
    io.stdout.write(CLI_USAGE);
    return CLI_EXIT.ok;
  }
  if (args === "version") {
    io.stdout.write(`${CLI_VERSION}\n`);
    return CLI_EXIT.ok;
  }
  if (args.action.command === "doctor") return doctor(args as DoctorArguments, io);
  if (args.action.command === "view") return runView(args as ViewArguments, { ...io, describe });
  return clientCommand(args as ClientCommandArguments, io);
}
