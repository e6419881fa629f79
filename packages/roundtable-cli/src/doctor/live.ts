import { hasErrorCode } from "@orphus/internal";
import { readPidFilePid } from "@orphus/roundtable-locator";
import { PROTOCOL_NAME, PROTOCOL_VERSION, type WireRefusalError } from "@orphus/roundtable-protocol";
import {
  BrokerConnection,
  brokerFullFrom,
  connectBrokerSocket,
  shownName,
  shownPath,
  type ConnectionLostError,
  type RequestTimeoutError,
} from "@orphus/roundtable-client";
import { plural } from "@orphus/internal";
import { checkBrokerStore, isStoreRefusal } from "./store.js";
import {
  brokerFull,
  ephemeralMembers,
  protocolMismatch,
  staleSocket,
  storeUnavailable,
  unresponsiveBroker,
  type DoctorFinding,
} from "./findings.js";

/** The role the doctor says hello as; it joins nothing, so it never shows among a room's members. */
export const DOCTOR_ROLE = "roundtable-doctor";

/** Rooms whose members the doctor lists at most (a broker holds 64 by default). */
export const DOCTOR_MAX_ROOMS = 64;

/** Attempts at a broker that drops the connection before answering (one on its way out, or a socket being released). */
const ATTEMPTS = 3;

/** Pause between those attempts. */
const RETRY_PAUSE_MS = 100;

/** A fallback role name, as the client makes it. */
const SESSION_ROLE = /^session-\d+$/;

/** What talking to the broker of the agent directory showed. */
export interface LiveSeen {
  /** The broker's pid when it answered hello (whatever its version), for the registry checks to skip it. */
  readonly pid: number | undefined;
  readonly notes: string[];
  readonly findings: DoctorFinding[];
}

/** The code of a socket's error (ECONNREFUSED, ...): Node's, read from any error. */
function systemCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

function uptime(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}

/** The room store this environment's setting names (masked), and what set it, to compare with the broker's. */
export interface ExpectedStore {
  readonly description: string;
  readonly source: string;
}

/**
 * Says hello to the broker on `socketPath` and, when it answers in this protocol, reads its status and the members
 * of its rooms, and compares its room store with `store`. Starts nothing and joins nothing. Every step is bounded by `timeoutMs`. A connection reset or dropped
 * before the answer is tried again ({@link ATTEMPTS} times): right after a broker is killed, the kernel may still
 * accept on its socket for a moment and then reset, and that is a stale socket, not a hung broker.
 */
export async function checkLiveBroker(
  socketPath: string,
  pidPath: string,
  timeoutMs: number,
  pid: number,
  store: ExpectedStore,
): Promise<LiveSeen> {
  for (let attempt = 1; ; attempt++) {
    const seen = await attemptLiveBroker(socketPath, pidPath, timeoutMs, pid, store);
    if (seen !== "dropped") return seen;
    if (attempt >= ATTEMPTS) {
      const finding = unresponsiveBroker(
        socketPath,
        `the connection was dropped before hello was answered, ${ATTEMPTS} times`,
        readPidFilePid(pidPath),
      );
      return { pid: undefined, notes: [], findings: [finding] };
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
  }
}

async function attemptLiveBroker(
  socketPath: string,
  pidPath: string,
  timeoutMs: number,
  pid: number,
  store: ExpectedStore,
): Promise<LiveSeen | "dropped"> {
  const noAnswer = `hello got no answer within ${timeoutMs} ms`;
  let connection: BrokerConnection;
  try {
    connection = new BrokerConnection(await connectBrokerSocket(socketPath, timeoutMs), {
      requestTimeoutMs: timeoutMs,
    });
  } catch (error) {
    const code = systemCode(error);
    if (code === "ECONNREFUSED") return { pid: undefined, notes: [], findings: [staleSocket(socketPath)] };
    if (code === "ECONNRESET") return "dropped";
    if (code === "ETIMEDOUT") {
      return {
        pid: undefined,
        notes: [],
        findings: [unresponsiveBroker(socketPath, noAnswer, readPidFilePid(pidPath))],
      };
    }
    if (code === "ENOENT")
      return { pid: undefined, notes: [`the socket went away while looking: the broker exited`], findings: [] };
    // EACCES and the like: the permission findings above already say why.
    return {
      pid: undefined,
      notes: [`could not connect to ${shownPath(socketPath)}: ${(error as Error).message}`],
      findings: [],
    };
  }
  try {
    const hello = await connection.request("hello", {
      protocol: PROTOCOL_NAME,
      version: PROTOCOL_VERSION,
      role: DOCTOR_ROLE,
      pid,
    });
    const status = await connection.request("status", {});
    const notes = [
      `broker answers: pid ${status.pid}, ${shownName(status.protocol)} v${status.protocolVersion}, broker ${shownName(status.version)}, ` +
        `up ${uptime(status.uptimeMs)}, ${plural(status.rooms, "room")}, ` +
        `${plural(Math.max(0, status.connections - 1), "other connection")}`,
    ];
    const stored = checkBrokerStore(status, store.description, store.source);
    notes.push(...stored.notes);
    const ephemeral: { room: string; roles: string[] }[] = [];
    try {
      const { rooms } = await connection.request("rooms", {});
      for (const room of rooms.slice(0, DOCTOR_MAX_ROOMS)) {
        const { members } = await connection.request("members", { room: room.room });
        const roles = members.filter((role) => SESSION_ROLE.test(role));
        if (roles.length > 0) ephemeral.push({ room: room.room, roles });
      }
    } catch (error) {
      // Status is the broker's own and always answers; rooms and members come from the store. A store that went
      // away meanwhile (status had not noticed yet) is the finding, not a refusal of the doctor.
      if (!isStoreRefusal(error)) throw error;
      notes.push(`rooms not listed: ${error.message}`);
      if (status.storeAvailable) stored.findings.push(storeUnavailable(status.pid, shownPath(status.store)));
    }
    const findings = [...stored.findings, ...(ephemeral.length === 0 ? [] : [ephemeralMembers(ephemeral)])];
    return { pid: hello.brokerPid, notes, findings };
  } catch (error) {
    // A full broker is healthy: say so, and never advise stopping it (an older one drops us with the same code).
    const full = brokerFullFrom(error);
    if (full !== undefined) {
      return {
        pid: full.brokerPid,
        notes: [],
        findings: [brokerFull(socketPath, full.brokerPid, full.maxConnections)],
      };
    }
    const refusal = hasErrorCode<WireRefusalError>(error, "ERR_WIRE_REFUSED") ? error : undefined;
    if (refusal?.wireCode === "ERR_PROTOCOL_MISMATCH") {
      const details = (refusal.details ?? {}) as Record<string, unknown>;
      const brokerPid = typeof details["brokerPid"] === "number" ? details["brokerPid"] : undefined;
      const theirs = `${shownName(String(details["brokerProtocol"] ?? "another protocol"))} v${shownName(String(details["brokerVersion"] ?? "?"))}`;
      return {
        pid: brokerPid,
        notes: [],
        findings: [protocolMismatch(`of this agent directory`, theirs, brokerPid, refusal.message)],
      };
    }
    if (refusal !== undefined) {
      // ERR_SHUTTING_DOWN and the like: a broker on its way out is no fault; the next session starts another.
      return { pid: undefined, notes: [`the broker refused the doctor: ${refusal.message}`], findings: [] };
    }
    if (hasErrorCode<ConnectionLostError>(error, "ERR_CONNECTION_LOST")) return "dropped";
    if (hasErrorCode<RequestTimeoutError>(error, "ERR_REQUEST_TIMEOUT")) {
      return {
        pid: undefined,
        notes: [],
        findings: [unresponsiveBroker(socketPath, noAnswer, readPidFilePid(pidPath))],
      };
    }
    throw error;
  } finally {
    connection.close();
  }
}
