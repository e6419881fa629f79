/**
 * @orphus/roundtable-cli — the `roundtable` command line for the person watching a roundtable (status, rooms, tail,
 * fetch, post) and `roundtable doctor`, which finds what silently keeps sessions apart and says what to do. The
 * library the Orphus builtin imports, `@orphus/roundtable-client`, carries none of this.
 *
 * ```ts
 * import { renderDoctorReport, runCli, runDoctor } from "@orphus/roundtable-cli";
 *
 * // In-process, as the bin runs it: resolves with the exit code (CLI_EXIT), never throws.
 * const code = await runCli(["post", "design", "ship it", "--as", "lead"], { stdout: process.stdout, stderr: process.stderr });
 *
 * // The doctor as a library, for a host that shows its report (the pi extension's `/roundtable doctor`):
 * const report = await runDoctor({ role: "planner" });
 * console.log(renderDoctorReport(report)); // "… All well." or each problem with its fix
 * ```
 *
 * Every argument is checked before anything connects or spawns; a usage error is one line and exits 2. Everything
 * the CLI and the doctor print passes `@orphus/digest`'s one sanitiser (names and paths escaped, never stripped).
 */
export { runCli } from "./cli/run.js";
export { parseCliArguments } from "./cli/arguments.js";
export { formatTailMessage } from "./cli/commands.js";
export { browserCommand } from "./cli/view.js";
export {
  CLI_EXIT,
  CLI_USAGE,
  CLI_DEFAULT_ROLE,
  CLI_DEFAULT_TAIL_LINES,
  CLI_MAX_TAIL_LINES,
  CLI_HELP_POINTER,
} from "./cli/usage.js";
export { CLI_VERSION } from "./version.js";
export {
  runDoctor,
  renderDoctorReport,
  doctorExitCode,
  DOCTOR_EXIT,
  DOCTOR_TIMEOUT_MS,
  DOCTOR_MAX_TIMEOUT_MS,
} from "./doctor/run.js";
export { DOCTOR_FINDINGS, DOCTOR_HINTS } from "./doctor/findings.js";
export { DOCTOR_ROLE } from "./doctor/live.js";
export { RoundtableCliError, CliUsageError } from "./errors.js";
export type { CliIo } from "./cli/run.js";
export type { ViewIo } from "./cli/view.js";
export type {
  CliArguments,
  ClientCommandArguments,
  DoctorArguments,
  ClientCommand,
  NoArgumentCommand,
  TailCommand,
  FetchCommand,
  PostCommand,
  ViewArguments,
} from "./cli/arguments.js";
export type { DoctorOptions, DoctorReport } from "./doctor/run.js";
export type { DoctorFinding, DoctorFindingCode, DoctorHint, DoctorHintCode } from "./doctor/findings.js";
