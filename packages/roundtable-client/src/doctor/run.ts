import {
  AGENT_DIR_ENV,
  STORE_ENV,
  brokerDir,
  describeStoreSetting,
  brokerPidPath,
  brokerSocketPath,
  resolveAgentDir,
  resolveRegistryDir,
  type RegisteredBroker,
} from "@orphus/roundtable-broker";
import { checkPositiveInteger } from "../connection.js";
import { ROLE_ENV, resolveRoleName, roleFromEnv } from "../role.js";
import { checkFleet } from "./fleet.js";
import { invalidRole, noRoleConfigured, type DoctorFinding } from "./findings.js";
import { checkLiveBroker } from "./live.js";
import { checkBrokerPaths } from "./paths.js";

/** How long the doctor waits for each connection and each reply. */
export const DOCTOR_TIMEOUT_MS = 2_000;

/** Options of {@link runDoctor}; everything defaults to what a session started from this environment would use. */
export interface DoctorOptions {
  /** The agent directory to examine; default `ORPHUS_CODING_AGENT_DIR` from `env`, else `~/.orphus/agent`. */
  readonly agentDir?: string;
  /** The role a session would speak as (`--as`); default `ORPHUS_ROUNDTABLE_ROLE` from `env`. */
  readonly role?: string;
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

/** What the doctor examined and found. Exit code 0 only when `findings` is empty. */
export interface DoctorReport {
  readonly agentDir: string;
  /** Where the agent directory came from: "--agent-dir", "ORPHUS_CODING_AGENT_DIR" or "default". */
  readonly agentDirSource: string;
  readonly socketPath: string;
  readonly registryDir: string;
  /** What was checked and found well, in order, one line each. */
  readonly notes: readonly string[];
  readonly findings: readonly DoctorFinding[];
  /** Brokers of this user that answer on their socket, as the registry lists them. */
  readonly liveBrokers: readonly RegisteredBroker[];
  /** Brokers of this user whose process runs but whose socket path no longer reaches them (a split fleet). */
  readonly unreachableBrokers: readonly RegisteredBroker[];
  /** Registry entries removed because their broker was gone and left no socket. */
  readonly removedEntries: readonly string[];
}

function checkRole(role: string | undefined, env: NodeJS.ProcessEnv): { notes: string[]; findings: DoctorFinding[] } {
  const source = role === undefined ? ROLE_ENV : "--as";
  const configured = role ?? roleFromEnv(env);
  if (configured === undefined) return { notes: [], findings: [noRoleConfigured()] };
  try {
    return { notes: [`role ${resolveRoleName(configured).role} (from ${source}): stable across restarts`], findings: [] };
  } catch {
    return { notes: [], findings: [invalidRole(configured, source)] };
  }
}

/**
 * Examines the roundtable as a session started from this environment would meet it, and says what is wrong and
 * what to do: a split fleet (brokers under several agent directories, or a live broker cut off from its path), a
 * stale socket, something foreign at the socket path, permissions open to others, a full broker, a broker of
 * another protocol version, a role name that falls back to `session-<pid>`. Starts no broker, joins no room, and
 * changes nothing but the registry entries of brokers whose process has ended.
 */
export async function runDoctor(options: DoctorOptions = {}): Promise<DoctorReport> {
  const env = options.env ?? process.env;
  const timeoutMs = checkPositiveInteger("timeoutMs", options.timeoutMs ?? DOCTOR_TIMEOUT_MS, 600_000);
  const uid = options.uid ?? process.getuid?.();
  const agentDir = resolveAgentDir(options.agentDir === undefined ? env : { [AGENT_DIR_ENV]: options.agentDir });
  const agentDirSource =
    options.agentDir !== undefined ? "--agent-dir" : (env[AGENT_DIR_ENV]?.trim() ?? "") !== "" ? AGENT_DIR_ENV : "default";
  const socketPath = brokerSocketPath(agentDir);
  const registryDir = options.registryDir ?? resolveRegistryDir(env);
  const notes: string[] = [];
  const findings: DoctorFinding[] = [];
  const take = (seen: { notes: readonly string[]; findings: readonly DoctorFinding[] }): void => {
    notes.push(...seen.notes);
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
  take(checkRole(options.role, env));
  return {
    agentDir,
    agentDirSource,
    socketPath,
    registryDir,
    notes,
    findings,
    liveBrokers: fleet.live,
    unreachableBrokers: fleet.unreachable,
    removedEntries: fleet.removed,
  };
}

/** The exit code of `roundtable doctor`: 0 when all is well, 1 when there is a finding. */
export function doctorExitCode(report: DoctorReport): number {
  return report.findings.length === 0 ? 0 : 1;
}

/** The report as `roundtable doctor` prints it: what is fine, then each problem with its facts and its fix. */
export function renderDoctorReport(report: DoctorReport): string {
  const lines = [`roundtable doctor: agent directory ${report.agentDir} (${report.agentDirSource})`];
  for (const note of report.notes) lines.push(`  ok  ${note}`);
  for (const finding of report.findings) {
    lines.push("", `problem [${finding.code}]: ${finding.summary}`);
    for (const detail of finding.details) lines.push(`    ${detail}`);
    lines.push(`  fix: ${finding.fix}`);
  }
  const count = report.findings.length;
  lines.push("", count === 0 ? "All well." : `${count} ${count === 1 ? "problem" : "problems"} found; each says what to do.`);
  return `${lines.join("\n")}\n`;
}
