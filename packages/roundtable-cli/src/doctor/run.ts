import { AGENT_DIR_ENV, resolveAgentDir } from "@orphus/agent-env";
import { sanitizeText } from "@orphus/digest";
import {
  STORE_ENV,
  brokerDir,
  describeStoreSetting,
  brokerPidPath,
  brokerSocketPath,
  resolveRegistryDir,
  type RegisteredBroker,
} from "@orphus/roundtable-locator";
import { ClientOptionError, ROLE_ENV, resolveRoleName, roleFromEnv, shownPath } from "@orphus/roundtable-client";
import { checkFleet } from "./fleet.js";
import { fallbackRoleInUse, invalidRole, noRoleHint, type DoctorFinding, type DoctorHint } from "./findings.js";
import { checkLiveBroker } from "./live.js";
import { checkMemory } from "./memory.js";
import { checkBrokerPaths } from "./paths.js";

/** How long the doctor waits for each connection and each reply. */
export const DOCTOR_TIMEOUT_MS = 2_000;

/** Longest wait for each connection and reply a caller may ask of the doctor. */
export const DOCTOR_MAX_TIMEOUT_MS = 600_000;

/** Exit codes of `roundtable doctor` (its bad arguments exit 2, as every command's do). */
export const DOCTOR_EXIT = {
  /** No problem found; hints may have been printed. */
  ok: 0,
  /** At least one problem found (each with its fix), or the doctor could not finish looking (said on stderr). */
  problem: 1,
} as const;

/** Options of {@link runDoctor}; everything defaults to what a session started from this environment would use. */
export interface DoctorOptions {
  /** The agent directory to examine; default `ORPHUS_CODING_AGENT_DIR` from `env`, else `~/.orphus/agent`. */
  readonly agentDir?: string;
  /** The role a session would speak as (`--as`); default `ORPHUS_ROUNDTABLE_ROLE` from `env`. */
  readonly role?: string;
  /**
   * For a host asking about a session that is running: the `session-<pid>` name it fell back to, having no role.
   * That is a problem (`ephemeral-role`) where a shell with no role configured only gets a hint.
   */
  readonly fallbackRole?: string;
  /** Where the agent directory, the role and the registry are resolved from; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** The registry of running brokers; default `ORPHUS_ROUNDTABLE_REGISTRY_DIR` from `env`, else `~/.orphus/roundtable-brokers`. */
  readonly registryDir?: string;
  /** Wait for each connection and reply; default {@link DOCTOR_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** Whose files count as "yours"; default process.getuid() (undefined on Windows, where ownership is not checked). */
  readonly uid?: number;
  /** Process id sent in hello; default process.pid. */
  readonly pid?: number;
}

/** What the doctor examined and found. Exit code 0 exactly when `findings` is empty, whatever the hints. */
export interface DoctorReport {
  readonly agentDir: string;
  /** Where the agent directory came from: "--agent-dir", "ORPHUS_CODING_AGENT_DIR" or "default". */
  readonly agentDirSource: string;
  readonly socketPath: string;
  readonly registryDir: string;
  /** What was checked and found well, in order, one line each. */
  readonly notes: readonly string[];
  /** Advice where nothing is wrong yet (no role configured in a fresh shell); never changes the exit code. */
  readonly hints: readonly DoctorHint[];
  /** Problems, each with its facts and its fix. */
  readonly findings: readonly DoctorFinding[];
  /** Brokers of this user that answer on their socket, as the registry lists them. */
  readonly liveBrokers: readonly RegisteredBroker[];
  /** Brokers of this user whose process runs but whose socket path no longer reaches them (a split fleet). */
  readonly unreachableBrokers: readonly RegisteredBroker[];
  /** Registry entries removed because their broker was gone and left no socket. */
  readonly removedEntries: readonly string[];
}

/** What the doctor saw of one concern: lines that are fine, hints, problems. */
interface Seen {
  readonly notes: readonly string[];
  readonly hints?: readonly DoctorHint[];
  readonly findings: readonly DoctorFinding[];
}

function checkRole(options: DoctorOptions, env: NodeJS.ProcessEnv): Seen {
  const source = options.role === undefined ? ROLE_ENV : "--as";
  const configured = options.role ?? roleFromEnv(env);
  if (configured === undefined) {
    if (options.fallbackRole !== undefined) return { notes: [], findings: [fallbackRoleInUse(options.fallbackRole)] };
    return { notes: [], hints: [noRoleHint()], findings: [] };
  }
  try {
    return {
      notes: [`role ${resolveRoleName(configured).role} (from ${source}): stable across restarts`],
      findings: [],
    };
  } catch {
    return { notes: [], findings: [invalidRole(configured, source)] };
  }
}

function checkTimeout(timeoutMs: number): number {
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > DOCTOR_MAX_TIMEOUT_MS) {
    // The client's option error, as the doctor threw when it lived there: a caller catches one class for both.
    throw new ClientOptionError("timeoutMs", `an integer from 1 to ${DOCTOR_MAX_TIMEOUT_MS}`, timeoutMs);
  }
  return timeoutMs;
}

/**
 * Examines the roundtable as a session started from this environment would meet it, and says what is wrong and
 * what to do: a split fleet (brokers under several agent directories, or a live broker cut off from its path), a
 * stale socket, something foreign at the socket path, permissions open to others, a full broker, a broker of
 * another protocol version, a role name that falls back to `session-<pid>`, an empty memory store. Where nothing is
 * wrong yet (no role configured in a fresh shell) it gives a hint instead. Starts no broker, joins no room, and
 * changes nothing but the registry entries of brokers whose process has ended.
 */
export async function runDoctor(options: DoctorOptions = {}): Promise<DoctorReport> {
  const env = options.env ?? process.env;
  const timeoutMs = checkTimeout(options.timeoutMs ?? DOCTOR_TIMEOUT_MS);
  const uid = options.uid ?? process.getuid?.();
  const agentDir = resolveAgentDir(options.agentDir === undefined ? env : { [AGENT_DIR_ENV]: options.agentDir });
  const agentDirSource =
    options.agentDir !== undefined
      ? "--agent-dir"
      : (env[AGENT_DIR_ENV]?.trim() ?? "") !== ""
        ? AGENT_DIR_ENV
        : "default";
  const socketPath = brokerSocketPath(agentDir);
  const registryDir = options.registryDir ?? resolveRegistryDir(env);
  const notes: string[] = [];
  const hints: DoctorHint[] = [];
  const findings: DoctorFinding[] = [];
  // Each concern adds what it saw, in the order the report prints; a new concern is one more take().
  const take = (seen: Seen): void => {
    notes.push(...seen.notes);
    hints.push(...(seen.hints ?? []));
    findings.push(...seen.findings);
  };

  // A Windows named pipe has no file to look at: go straight to asking whoever serves it.
  const paths =
    process.platform === "win32"
      ? { socket: true, notes: [], findings: [] }
      : checkBrokerPaths(brokerDir(agentDir), socketPath, uid);
  take(paths);
  // What a session started here would ask for; resolved once, reading no password file.
  const store = {
    description: describeStoreSetting(env),
    source: (env[STORE_ENV]?.trim() ?? "") === "" ? "the default" : STORE_ENV,
  };
  const live = paths.socket
    ? await checkLiveBroker(socketPath, brokerPidPath(agentDir), timeoutMs, options.pid ?? process.pid, store)
    : undefined;
  if (live !== undefined) take(live);
  const fleet = await checkFleet(registryDir, agentDir, uid, timeoutMs, live?.pid);
  take(fleet);
  take(checkRole(options, env));
  take(await checkMemory(env, options.agentDir));
  return {
    agentDir,
    agentDirSource,
    socketPath,
    registryDir,
    notes,
    hints,
    findings,
    liveBrokers: fleet.live,
    unreachableBrokers: fleet.unreachable,
    removedEntries: fleet.removed,
  };
}

/** The exit code of `roundtable doctor` (DOCTOR_EXIT): 0 when it found no problem, hints or not; 1 when it found one. */
export function doctorExitCode(report: DoctorReport): number {
  return report.findings.length === 0 ? DOCTOR_EXIT.ok : DOCTOR_EXIT.problem;
}

/**
 * The report as `roundtable doctor` prints it: what is fine, the hints, then each problem with its facts and its fix. Paths and
 * names were escaped where they were put in; the text passes sanitizeText, whoever shows it (a terminal, a session).
 */
export function renderDoctorReport(report: DoctorReport): string {
  const lines = [`roundtable doctor: agent directory ${shownPath(report.agentDir)} (${report.agentDirSource})`];
  for (const note of report.notes) lines.push(`  ok  ${note}`);
  for (const hint of report.hints) lines.push(`  hint [${hint.code}]: ${hint.text}`);
  for (const finding of report.findings) {
    lines.push("", `problem [${finding.code}]: ${finding.summary}`);
    for (const detail of finding.details) lines.push(`    ${detail}`);
    lines.push(`  fix: ${finding.fix}`);
  }
  const count = report.findings.length;
  const hinted = report.hints.length;
  const verdict =
    count > 0
      ? `${count} ${count === 1 ? "problem" : "problems"} found; each says what to do.`
      : hinted > 0
        ? `No problem found; ${hinted === 1 ? "1 hint" : `${hinted} hints`} above.`
        : "All well.";
  lines.push("", verdict);
  return sanitizeText(`${lines.join("\n")}\n`);
}
