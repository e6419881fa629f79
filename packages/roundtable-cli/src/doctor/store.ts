// The doctor's room-store checks, apart from the rest so they move as one piece: where the running broker keeps its
// rooms, whether that is where this environment's setting says, and which live brokers share rooms at all.
import { hasErrorCode, plural } from "@orphus/internal";
import { MAX_HELD_BYTES_ENV, sameStore, type RegisteredBroker } from "@orphus/roundtable-locator";
import type { ResultFor, WireRefusalError } from "@orphus/roundtable-protocol";
import { shownPath } from "@orphus/roundtable-client";
import { storeMismatch, storeUnavailable, type DoctorFinding } from "./findings.js";

/** What a store check saw. */
export interface StoreSeen {
  readonly notes: string[];
  readonly findings: DoctorFinding[];
}

/**
 * Checks the store the broker of this agent directory reported (`status`) against the one this environment's
 * setting names (`expected`, masked): a session started here would join the running broker and share its rooms,
 * whatever its own setting says, which is a split fleet. A store that does not answer is a finding too.
 */
export function checkBrokerStore(
  status: Pick<ResultFor<"status">, "pid" | "store" | "storeAvailable" | "heldText">,
  expected: string,
  expectedSource: string,
): StoreSeen {
  const store = shownPath(status.store);
  const notes = [`rooms kept in ${store === "memory" ? "the broker's memory" : store}`];
  if (status.heldText !== undefined) notes.push(`message text: ${heldTextLine(status.heldText)}`);
  else if (status.store !== "memory") {
    notes.push("message text held in the room store, not the broker: bound its memory there (Redis: maxmemory)");
  }
  const findings: DoctorFinding[] = [];
  if (!sameStore(status.store, expected))
    findings.push(storeMismatch(status.pid, store, shownPath(expected), expectedSource));
  if (!status.storeAvailable) findings.push(storeUnavailable(status.pid, store));
  return { notes, findings };
}

/** A refusal because the broker's room store is away or lost its data: the store's fault, not the broker's. */
export function isStoreRefusal(error: unknown): error is WireRefusalError {
  return (
    hasErrorCode<WireRefusalError>(error, "ERR_WIRE_REFUSED") &&
    (error.wireCode === "ERR_STORE_UNAVAILABLE" || error.wireCode === "ERR_STORE_RESET")
  );
}

/**
 * The set of rooms a live broker serves: a broker on the memory store serves its own (one per agent directory), the
 * brokers on one shared store serve the same ones, whatever their agent directories. An entry of a broker older
 * than room stores names none: it kept its rooms in memory.
 */
export function roomSpace(entry: Pick<RegisteredBroker, "agentDir" | "store">): string {
  const store = entry.store ?? "memory";
  return store === "memory" ? `memory of ${entry.agentDir}` : store;
}

/** Groups live brokers by the rooms they serve; more than one group is a split fleet. */
export function roomSpaces(live: readonly RegisteredBroker[]): RegisteredBroker[][] {
  const groups: RegisteredBroker[][] = [];
  for (const entry of live) {
    const space = roomSpace(entry);
    const group = groups.find(([first]) => first !== undefined && sameStore(roomSpace(first), space));
    if (group === undefined) groups.push([entry]);
    else group.push(entry);
  }
  return groups;
}

/** MiB with one decimal, the unit a text budget is set in. */
function mib(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MiB`;
}

/**
 * What a broker holds against its text budget, one line (`roundtable status` and the doctor): held, the budget,
 * and how many messages it evicted, which their readers were told of.
 */
export function heldTextLine(heldText: NonNullable<ResultFor<"status">["heldText"]>): string {
  const { heldBytes, maxHeldBytes, evictedMessages } = heldText;
  return (
    `${mib(heldBytes)} held of a ${mib(maxHeldBytes)} budget (${MAX_HELD_BYTES_ENV}); ` +
    `${plural(evictedMessages, "message")} evicted to stay under it`
  );
}
