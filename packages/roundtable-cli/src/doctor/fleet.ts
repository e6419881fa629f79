import {
  probeBroker,
  readBrokerRegistry,
  removeRegistryEntry,
  type RegisteredBroker,
} from "@orphus/roundtable-locator";
import { PROTOCOL_NAME, PROTOCOL_VERSION } from "@orphus/roundtable-protocol";
import { shownName, shownPath } from "@orphus/roundtable-client";
import { plural } from "@orphus/internal";
import {
  protocolMismatch,
  splitFleet,
  splitStores,
  staleSocket,
  unreachableBroker,
  type DoctorFinding,
} from "./findings.js";
import { checkPrivateDir } from "./paths.js";
import { isBrokerProcessAlive } from "./process.js";
import { roomSpaces } from "./store.js";

/** What the registry of running brokers showed. */
export interface FleetSeen {
  /** Entries whose broker answers on its socket. */
  readonly live: readonly RegisteredBroker[];
  /** Entries whose broker process runs but whose socket path no longer reaches it. */
  readonly unreachable: readonly RegisteredBroker[];
  /** Entry files removed because their broker is gone and left no socket behind. */
  readonly removed: readonly string[];
  readonly notes: string[];
  readonly findings: DoctorFinding[];
}

/**
 * The state of one entry's broker: answering as itself (or accepting and slow to answer), running but cut off from
 * its path (another broker answers there, or nothing does), gone with its socket still there, gone for good, or not
 * ours to judge (its socket refused us: EACCES and the like). Only a process check tells "cut off" from "gone":
 * another broker answering on the path is no proof that this one died.
 */
type Liveness =
  | { readonly state: "live" | "stale" | "gone" | "unknown" }
  | { readonly state: "unreachable"; readonly holder: string };

async function liveness(entry: RegisteredBroker, timeoutMs: number): Promise<Liveness> {
  let holder: string;
  let dead: Liveness;
  try {
    const probe = await probeBroker(entry.socketPath, timeoutMs);
    if (probe.state === "answered" && (probe.pid === undefined || probe.pid === entry.pid)) return { state: "live" };
    if (probe.state === "stale" && probe.reason === "timeout") return { state: "live" };
    // A silent socket file is left for the stale-socket finding (and for the next broker to reclaim); the entry
    // stays as its witness until the file is gone, so the doctor says the same thing until then.
    dead = { state: probe.state === "stale" ? "stale" : "gone" };
    holder =
      probe.state === "answered"
        ? `another broker (pid ${probe.pid}) answers there`
        : probe.state === "absent"
          ? "nothing is there"
          : "the socket there answers nobody";
  } catch {
    return { state: "unknown" };
  }
  return isBrokerProcessAlive(entry.pid, entry.startedAt) ? { state: "unreachable", holder } : dead;
}

/**
 * Reads the registry of running brokers, asks each entry's socket whether its broker still answers, removes the
 * entries of brokers that are gone (their process ended, and no socket or another broker is on their path), and
 * finds a split fleet (live brokers under more than one agent directory, or a live broker its path no longer
 * reaches), stale sockets elsewhere and brokers of another protocol version.
 * `known` are brokers already judged by the caller (pid of the agent directory's own broker), not reported twice.
 */
export async function checkFleet(
  registryDir: string,
  agentDir: string,
  uid: number | undefined,
  timeoutMs: number,
  knownPid: number | undefined,
): Promise<FleetSeen> {
  const directory = checkPrivateDir(
    registryDir,
    "registry",
    uid,
    `no registry yet (${shownPath(registryDir)}): no broker has run`,
  );
  const notes = [...directory.notes];
  const findings = [...directory.findings];
  if (!directory.usable) return { live: [], unreachable: [], removed: [], notes, findings };
  const listing = readBrokerRegistry(registryDir);
  const states = await Promise.all(listing.entries.map((entry) => liveness(entry, timeoutMs)));
  const live: RegisteredBroker[] = [];
  const unreachable: RegisteredBroker[] = [];
  const removed: string[] = [];
  listing.entries.forEach((entry, index) => {
    const seen = states[index] ?? { state: "unknown" };
    if (seen.state === "live") live.push(entry);
    else if (seen.state === "unreachable") {
      unreachable.push(entry);
      findings.push(unreachableBroker({ ...entry, holder: seen.holder }));
    } else if (seen.state === "gone" && removeRegistryEntry(entry.file)) removed.push(entry.file);
    else if (seen.state === "stale" && entry.agentDir !== agentDir) findings.push(staleSocket(entry.socketPath));
  });
  const dirs = new Set(live.map((entry) => entry.agentDir));
  notes.push(
    `registry ${shownPath(registryDir)}: ${plural(live.length, "live broker")} of yours` +
      (live.length === 0 ? "" : ` under ${plural(dirs.size, "agent directory", "agent directories")}`) +
      (unreachable.length === 0
        ? ""
        : `; ${plural(unreachable.length, "live broker")} unreachable on ${unreachable.length === 1 ? "its path" : "their paths"}`) +
      (removed.length === 0 ? "" : `; removed ${plural(removed.length, "entry", "entries")} of brokers that are gone`) +
      (listing.invalid.length === 0 ? "" : `; ignored ${plural(listing.invalid.length, "file")} that are not entries`),
  );
  // Brokers split the fleet when they serve different rooms: on the memory store each agent directory has its own;
  // brokers on one shared store serve the same rooms whatever their agent directories.
  const spaces = roomSpaces(live);
  if (spaces.length > 1) {
    const memoryOnly = live.every((entry) => (entry.store ?? "memory") === "memory");
    findings.push(memoryOnly ? splitFleet(live, agentDir) : splitStores(spaces));
  }
  for (const entry of live) {
    if (entry.pid === knownPid && entry.agentDir === agentDir) continue;
    if (entry.protocol !== PROTOCOL_NAME || entry.protocolVersion !== PROTOCOL_VERSION) {
      findings.push(
        protocolMismatch(
          `of ${shownPath(entry.agentDir)}`,
          `${shownName(entry.protocol)} v${entry.protocolVersion}`,
          entry.pid,
        ),
      );
    }
  }
  return { live, unreachable, removed, notes, findings };
}
