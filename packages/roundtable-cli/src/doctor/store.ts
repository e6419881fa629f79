// The doctor's room-store checks, apart from the rest so they move as one piece: where the running broker keeps its
// rooms, whether that is where this environment's setting says, and which live brokers share rooms at all.
import { hasErrorCode } from "@orphus/internal";
import { sameStore, type RegisteredBroker } from "@orphus/roundtable-locator";
import type { WireRefusalError } from "@orphus/roundtable-protocol";
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
  status: { readonly pid: number; readonly store: string; readonly storeAvailable: boolean },
  expected: string,
  expectedSource: string,
): StoreSeen {
  const store = shownPath(status.store);
  const notes = [`rooms kept in ${store === "memory" ? "the broker's memory" : store}`];
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
