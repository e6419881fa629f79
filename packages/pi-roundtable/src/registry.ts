import type { ActivityNotice, RoundtableClient } from "@orphus/roundtable-client";

/** Receives the activity notices of a shared client. */
export type ActivityListener = (notice: ActivityNotice) => void;

interface SharedClient {
  readonly client: RoundtableClient;
  readonly listeners: Set<ActivityListener>;
}

/**
 * The clients of this process, by agent directory and role, kept on globalThis under a registered symbol: pi loads
 * an extension through jiti without a module cache, and a package can be installed twice (global and project), so
 * module state would be duplicated where this is not. The entry's shape is part of the contract between copies.
 */
const REGISTRY_KEY = Symbol.for("@orphus/pi-roundtable/shared-clients@1");

function registry(): Map<string, SharedClient> {
  const holder = globalThis as { [REGISTRY_KEY]?: Map<string, SharedClient> };
  holder[REGISTRY_KEY] ??= new Map();
  return holder[REGISTRY_KEY];
}

/** A hold on a shared client; the last release closes it. */
export interface ClientLease {
  readonly client: RoundtableClient;
  /** Releases this hold, once; closes the client when no other hold is left. */
  release(): void;
}

/** The registry key of a client: one connection per agent directory and role in a process. */
export function sharedClientKey(agentDir: string, role: string): string {
  return `${agentDir}\u0000${role}`;
}

/**
 * Holds the process's client for `key`, creating it with `create` (given the function that fans its notices out to
 * every holder) when there is none. Sessions of one process that speak as the same role share one connection,
 * which is what the broker sees them as anyway.
 */
export function leaseSharedClient(
  key: string,
  listener: ActivityListener,
  create: (onActivity: ActivityListener) => RoundtableClient,
): ClientLease {
  const clients = registry();
  let entry = clients.get(key);
  if (entry === undefined) {
    const listeners = new Set<ActivityListener>();
    const fanOut: ActivityListener = (notice) => {
      for (const each of listeners) {
        try {
          each(notice);
        } catch {
          // One session's failure to take a ping must not keep it from the others.
        }
      }
    };
    entry = { client: create(fanOut), listeners };
    clients.set(key, entry);
  }
  const held = entry;
  // A function's identity per lease, so the same listener leased twice is released twice.
  const own: ActivityListener = (notice) => listener(notice);
  held.listeners.add(own);
  let released = false;
  return {
    client: held.client,
    release: () => {
      if (released) return;
      released = true;
      held.listeners.delete(own);
      if (held.listeners.size === 0 && clients.get(key) === held) {
        clients.delete(key);
        held.client.close();
      }
    },
  };
}

/** Clients this process holds now, for diagnostics and tests. */
export function sharedClientCount(): number {
  return registry().size;
}
