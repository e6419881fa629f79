import { PROTOCOL_NAME, PROTOCOL_VERSION } from "@orphus/roundtable-protocol";
import { ROLE_ENV, boundedText, shownName, shownNames, shownPath } from "@orphus/roundtable-client";

/**
 * What `roundtable doctor` can find wrong, each a failure the roundtable would otherwise show quietly or not at all.
 * Codes are stable across releases.
 */
export const DOCTOR_FINDINGS = {
  "split-fleet":
    "Live brokers of this user serve different rooms (different agent directories on the memory store, or different " +
    "room stores), a live broker no longer owns its socket path, or sessions here ask for another room store than " +
    "the running broker's, so some sessions cannot see the others.",
  "stale-socket": "A socket file nothing answers on: a broker was killed and its rooms are gone.",
  "unresponsive-broker": "Something holds the socket but does not answer hello: it times out, or drops the connection.",
  "broker-full": "The broker serves its maximum of connections, so new sessions are refused until some close.",
  "socket-path-occupied": "Something other than a socket sits at the socket path, so no broker can start there.",
  permissions: "The broker directory, the socket or the registry is open to other users or belongs to another user.",
  "protocol-mismatch": "A running broker speaks another protocol version than this client.",
  "ephemeral-role": "A session speaks (or would speak) as session-<pid>, so its read positions die with the process.",
  "empty-memory":
    "The memory store sessions would query exists but holds nothing, so every memory query comes back empty.",
  "memory-unusable":
    "The file at the memory store's path cannot be used: foreign, damaged, of a newer schema, or not readable.",
  "store-unavailable": "The broker's room store (Redis) does not answer, so requests fail until it does.",
} as const;

/** The code of one finding. */
export type DoctorFindingCode = keyof typeof DOCTOR_FINDINGS;

/**
 * What `roundtable doctor` may point out that is not wrong yet: advice that leaves the exit code at 0. Codes are
 * stable across releases.
 */
export const DOCTOR_HINTS = {
  "no-role":
    "No role name is configured in this environment: a session started here without one would speak as session-<pid>.",
} as const;

/** The code of one hint. */
export type DoctorHintCode = keyof typeof DOCTOR_HINTS;

/** Advice the doctor gives where nothing is wrong yet: one line, with what to do. */
export interface DoctorHint {
  readonly code: DoctorHintCode;
  /** One line: what was seen and what to do about it. */
  readonly text: string;
}

/** Characters of a memory store's own error a finding quotes. */
const MAX_MEMORY_PROBLEM_CHARS = 300;

/** One problem the doctor found: what, the facts behind it, and what to do. */
export interface DoctorFinding {
  readonly code: DoctorFindingCode;
  /** One line: what is wrong. */
  readonly summary: string;
  /** Further facts, one per line (which brokers, which rooms). */
  readonly details: readonly string[];
  /** What to do about it. */
  readonly fix: string;
}

function finding(
  code: DoctorFindingCode,
  summary: string,
  fix: string,
  details: readonly string[] = [],
): DoctorFinding {
  return { code, summary, details, fix };
}

/** A live broker as the split-fleet finding lists it. */
export interface FleetBroker {
  readonly agentDir: string;
  readonly pid: number;
}

export function splitFleet(brokers: readonly FleetBroker[], ownAgentDir: string): DoctorFinding {
  const dirs = new Set(brokers.map((b) => b.agentDir));
  return finding(
    "split-fleet",
    `${brokers.length} live brokers of yours serve ${dirs.size} different agent directories; sessions reach only the ` +
      "broker of their own directory, so peers post and nobody's unread count moves, with no error",
    `give every session of the fleet one agent directory: export ORPHUS_CODING_AGENT_DIR=${shownPath(ownAgentDir)} (the one this ` +
      "shell resolves) before starting them, or the same --agent-dir for roundtable-mcp; brokers left without " +
      "sessions exit by themselves once idle",
    brokers.map(
      (b) =>
        `${shownPath(b.agentDir)}  broker pid ${b.pid}${b.agentDir === ownAgentDir ? "  (this agent directory)" : ""}`,
    ),
  );
}

/** Live brokers that keep their rooms in different places, each group as the registry lists it. */
export function splitStores(
  groups: readonly (readonly { agentDir: string; pid: number; store?: string }[])[],
): DoctorFinding {
  const brokers = groups.flat();
  return finding(
    "split-fleet",
    `${brokers.length} live brokers of yours keep their rooms in ${groups.length} different places; a session sees ` +
      "only the rooms of its own broker's store, so peers on another post and nobody's unread count moves, with no error",
    "give every session of the fleet the same room store (ORPHUS_ROUNDTABLE_STORE, the same Redis URL on every host, " +
      "or memory with one agent directory); brokers left without sessions exit by themselves once idle",
    brokers.map((b) => `${b.store ?? "memory"}  ${b.agentDir}  broker pid ${b.pid}`),
  );
}

/** The running broker keeps its rooms elsewhere than this environment's setting says. */
export function storeMismatch(pid: number, brokerStore: string, expected: string, source: string): DoctorFinding {
  return finding(
    "split-fleet",
    `the broker of this agent directory (pid ${pid}) keeps its rooms in ${brokerStore}, but this environment asks ` +
      `for ${expected} (${source}): a session started here joins that broker and shares its rooms, not those of ` +
      `${expected}, with no error`,
    "give every session of the fleet the same setting (ORPHUS_ROUNDTABLE_STORE); the broker exits once its sessions " +
      `end, and the next starts on the setting of the session that starts it (or stop it: kill ${pid})`,
  );
}

/** The running broker's room store does not answer. */
export function storeUnavailable(pid: number, store: string): DoctorFinding {
  return finding(
    "store-unavailable",
    `the broker (pid ${pid}) cannot reach its room store ${store}: requests fail with ERR_STORE_UNAVAILABLE until it ` +
      "answers (the broker keeps trying and serves again by itself)",
    "check that Redis runs and is reachable from this host with the store's credentials (redis-cli -u <url> ping); " +
      "the broker's log (<agent dir>/roundtable/broker.log) says when it was lost and why",
  );
}

/** A live broker whose registry entry names a socket path that no longer reaches it. */
export interface UnreachableBroker {
  readonly agentDir: string;
  readonly pid: number;
  readonly socketPath: string;
  /** What the path gives now: "another broker (pid 123) answers there", "nothing is there", ... */
  readonly holder: string;
}

export function unreachableBroker(broker: UnreachableBroker): DoctorFinding {
  return finding(
    "split-fleet",
    `a live broker (pid ${broker.pid}) of ${shownPath(broker.agentDir)} no longer owns its socket path ${shownPath(broker.socketPath)}: ` +
      `${broker.holder}. Nobody new can reach it, and sessions still on it post where the rest of the fleet never reads`,
    `stop it: kill ${broker.pid}. Its sessions see their connection end and join again on the broker that owns the ` +
      "path (a current broker notices a lost path within seconds and exits by itself; one that does not is older, " +
      "or stopped)",
  );
}

export function brokerFull(
  socketPath: string,
  pid: number | undefined,
  maxConnections: number | undefined,
): DoctorFinding {
  const limit =
    maxConnections === undefined ? "its maximum of connections" : `its maximum of ${maxConnections} connections`;
  return finding(
    "broker-full",
    `the broker on ${shownPath(socketPath)}${pid === undefined ? "" : ` (pid ${pid})`} serves ${limit}: it is healthy, but ` +
      "new sessions are refused (ERR_BROKER_FULL) until some close",
    "wait for sessions to finish, or close sessions you no longer need (every session and every roundtable-mcp " +
      "server holds one connection). Do not stop the broker: it holds every room of the fleet",
  );
}

export function staleSocket(socketPath: string): DoctorFinding {
  return finding(
    "stale-socket",
    `nothing answers on ${shownPath(socketPath)}: a broker was killed (SIGKILL, a crash, a reboot) and left its socket, and ` +
      "its rooms went with it",
    `harmless for starting: the next session's broker reclaims the path (or remove it: rm ${shownPath(socketPath)}); sessions ` +
      "that used the killed broker must join their rooms again",
  );
}

export function unresponsiveBroker(socketPath: string, what: string, pid: number | undefined): DoctorFinding {
  return finding(
    "unresponsive-broker",
    `something holds ${shownPath(socketPath)} but does not answer: ${what}`,
    pid === undefined
      ? "the broker may be overloaded or hung; if it stays so, stop the process serving the socket"
      : `the broker (pid ${pid}, per its pid file) may be overloaded or hung; if it stays so: kill ${pid}`,
  );
}

export function socketPathOccupied(socketPath: string, what: string): DoctorFinding {
  return finding(
    "socket-path-occupied",
    `${shownPath(socketPath)} is ${what}, not a socket: no broker can start there, and every session's first call fails`,
    `move it away yourself (the broker never removes what it did not create): mv ${shownPath(socketPath)} ${shownPath(socketPath)}.moved`,
  );
}

export function openToOthers(path: string, kind: "directory" | "socket", mode: number): DoctorFinding {
  const wanted = kind === "directory" ? "700" : "600";
  return finding(
    "permissions",
    `${shownPath(path)} has mode ${mode.toString(8).padStart(3, "0")}: other users ${kind === "directory" ? "can look inside" : "may connect"}; it must be ${wanted}`,
    kind === "directory"
      ? `chmod ${wanted} ${shownPath(path)} (a broker tightens its own directory when it starts)`
      : `chmod ${wanted} ${shownPath(path)}, or stop the broker and let the next one create its socket`,
  );
}

export function notYours(path: string, owner: number, uid: number): DoctorFinding {
  return finding(
    "permissions",
    `${shownPath(path)} belongs to uid ${owner}, not to you (uid ${uid}): your brokers cannot use it`,
    "use an agent directory of your own (ORPHUS_CODING_AGENT_DIR), or have its owner remove it",
  );
}

export function notADirectory(path: string): DoctorFinding {
  return finding(
    "permissions",
    `${shownPath(path)} is not a directory: a broker cannot keep its socket there`,
    `move it away: mv ${shownPath(path)} ${shownPath(path)}.moved`,
  );
}

export function protocolMismatch(
  where: string,
  theirs: string,
  pid: number | undefined,
  message?: string,
): DoctorFinding {
  return finding(
    "protocol-mismatch",
    `the broker ${where}${pid === undefined ? "" : ` (pid ${pid})`} speaks ${theirs}; this client speaks ` +
      `${PROTOCOL_NAME} v${PROTOCOL_VERSION}, and sessions of the two versions cannot share it`,
    "close the sessions still using it, or stop it" +
      (pid === undefined ? "" : `: kill ${pid}`) +
      "; the next session starts a broker of its own version. Upgrade every session of a fleet together",
    message === undefined ? [] : [`the broker said: ${message}`],
  );
}

/**
 * No role is configured here (no --as, no ORPHUS_ROUNDTABLE_ROLE). Nothing is wrong yet: a fresh shell has none, and
 * a session given a name on its own command line is fine. It matters only for a session started without one.
 */
export function noRoleHint(): DoctorHint {
  return {
    code: "no-role",
    text:
      `no role name is configured here (no --as, no ${ROLE_ENV}); a session started from this shell without one ` +
      `speaks as session-<pid> and loses its read positions on restart: set ${ROLE_ENV}=<role>, or pass --as <role>`,
  };
}

/** A running session the doctor was asked about speaks as `session-<pid>`: its own read positions are at stake. */
export function fallbackRoleInUse(role: string): DoctorFinding {
  return finding(
    "ephemeral-role",
    `this session speaks as ${shownName(role)}, a fallback name (no role was given and ${ROLE_ENV} is not set): its ` +
      "read positions die with its process",
    `give it a stable name: ${ROLE_ENV}=<role> in its environment, or --as <role> where its host takes one`,
  );
}

export function invalidRole(role: string, source: string): DoctorFinding {
  return finding(
    "ephemeral-role",
    `the configured role "${shownName(role)}" (${source}) is not a role name, so a client refuses it`,
    "use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
  );
}

export function ephemeralMembers(members: readonly { room: string; roles: readonly string[] }[]): DoctorFinding {
  const count = members.reduce((sum, m) => sum + m.roles.length, 0);
  return finding(
    "ephemeral-role",
    `${count === 1 ? "a session speaks" : `${count} sessions speak`} as session-<pid> on the running broker: ` +
      "their read positions die with their process",
    `start those sessions with a stable name (--as <role>, or ${ROLE_ENV}=<role>)`,
    members.map((m) => `room ${shownName(m.room)}: ${shownNames(m.roles)}`),
  );
}

export function emptyMemory(storePath: string, source: string): DoctorFinding {
  return finding(
    "empty-memory",
    `the memory store ${shownPath(storePath)} (from ${source}) exists but holds nothing: every memory query of a session here ` +
      "says the store is empty",
    "have a librarian fill it (ORPHUS_ROUNDTABLE_ROLE=librarian orphus-memory ingest <file or folder…>); if the " +
      "librarian filled another store, give every session the same ORPHUS_MEMORY_DIR or ORPHUS_CODING_AGENT_DIR",
  );
}

export function unusableMemory(storePath: string, problem: string): DoctorFinding {
  return finding(
    "memory-unusable",
    `the memory store ${shownPath(storePath)} cannot be used: ${boundedText(problem, MAX_MEMORY_PROBLEM_CHARS, { oneLine: true })}`,
    "the file is left untouched: move it away (or upgrade @orphus/memory everywhere, for a newer schema)",
  );
}
