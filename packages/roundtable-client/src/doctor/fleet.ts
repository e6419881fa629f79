import { probeBroker, readBrokerRegistry, removeRegistryEntry, type RegisteredBroker } from "@orphus/roundtable-broker";
import { PROTOCOL_NAME, PROTOCOL_VERSION } from "@orphus/roundtable-protocol";
import { plural } from "../text.js";
import { protocolMismatch, splitFleet, staleSocket, type DoctorFinding } from "./findings.js";
import { checkPrivateDir } from "./paths.js";

/** What the registry of running brokers showed. */
export interface FleetSeen {
  /** Entries whose broker answers on its socket. */
  readonly live: readonly RegisteredBroker[];
  /** Entry files removed because their broker is gone and left no socket behind. */
  readonly removed: readonly string[];
  readonly notes: string[];
  readonly findings: DoctorFinding[];
}

/**
 * The state of one entry's broker: answering as itself (or accepting and slow to answer), gone with its socket
 * still there, gone for good, or not ours to judge (its socket refused us: EACCES and the like).
 */
type Liveness = "live" | "stale" | "gone" | "unknown";

async function liveness(entry: RegisteredBroker, timeoutMs: number): Promise<Liveness> {
  try {
    const probe = await probeBroker(entry.socketPath, timeoutMs);
    if (probe.state === "answered") return probe.pid === undefined || probe.pid === entry.pid ? "live" : "gone";
    // A silent socket file is left for the stale-socket finding (and for the next broker to reclaim); the entry
    // stays as its witness until the file is gone, so the doctor says the same thing until then.
    if (probe.state === "absent") return "gone";
    return probe.reason === "timeout" ? "live" : "stale";
  } catch {
    return "unknown";
  }
}

/**
 * Reads the registry of running brokers, asks each entry's socket whether its broker still answers, removes the
 * entries of brokers that are gone (no socket, or another broker on it), and finds a split fleet (live brokers
 * under more than one agent directory), stale sockets elsewhere and brokers of another protocol version.
 * `known` are brokers already judged by the caller (pid of the agent directory's own broker), not reported twice.
 */
export async function checkFleet(
  registryDir: string,
  agentDir: string,
  uid: number | undefined,
  timeoutMs: number,
  knownPid: number | undefined,
): Promise<FleetSeen> {
  const directory = checkPrivateDir(registryDir, "registry", uid, `no registry yet (${registryDir}): no broker has run`);
  const notes = [...directory.notes];
  const findings = [...directory.findings];
  if (!directory.usable) return { live: [], removed: [], notes, findings };
  const listing = readBrokerRegistry(registryDir);
  const states = await Promise.all(listing.entries.map((entry) => liveness(entry, timeoutMs)));
  const live: RegisteredBroker[] = [];
  const removed: string[] = [];
  listing.entries.forEach((entry, index) => {
    const state = states[index];
    if (state === "live") live.push(entry);
    else if (state === "gone" && removeRegistryEntry(entry.file)) removed.push(entry.file);
    else if (state === "stale" && entry.agentDir !== agentDir) findings.push(staleSocket(entry.socketPath));
  });
  const dirs = new Set(live.map((entry) => entry.agentDir));
  notes.push(
    `registry ${registryDir}: ${plural(live.length, "live broker")} of yours` +
      (live.length === 0 ? "" : ` under ${plural(dirs.size, "agent directory", "agent directories")}`) +
      (removed.length === 0 ? "" : `; removed ${plural(removed.length, "entry", "entries")} of brokers that are gone`) +
      (listing.invalid.length === 0 ? "" : `; ignored ${plural(listing.invalid.length, "file")} that are not entries`),
  );
  if (dirs.size > 1) findings.push(splitFleet(live, agentDir));
  for (const entry of live) {
    if (entry.pid === knownPid && entry.agentDir === agentDir) continue;
    if (entry.protocol !== PROTOCOL_NAME || entry.protocolVersion !== PROTOCOL_VERSION) {
      findings.push(protocolMismatch(`of ${entry.agentDir}`, `${entry.protocol} v${entry.protocolVersion}`, entry.pid));
    }
  }
  return { live, removed, notes, findings };
}
