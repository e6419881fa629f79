import {
  ClientClosedError,
  createRoundtableClient,
  locateBroker,
  type ActivityNotice,
  type BrokerLocation,
  type CreateRoundtableClientOptions,
  type RoundtableClient,
  type ClientTimers,
} from "@orphus/roundtable-client";
import type { MemoryLoader } from "./memory/package.js";
import { leaseSharedClient, sharedClientKey, type ClientLease } from "./registry.js";
import { ephemeralRoleWarning, resolveSessionRole, type SessionRole } from "./role.js";
import { ROLE_FLAG } from "./names.js";

/** How the extension's client starts and reaches a broker: the client's own options, for embedders and tests. */
export type SeatClientOptions = Pick<
  CreateRoundtableClientOptions,
  | "brokerCommand"
  | "brokerIdleMs"
  | "brokerLogPath"
  | "startTimeoutMs"
  | "requestTimeoutMs"
  | "onSpawn"
  | "spawn"
  | "spawnBroker"
  | "connector"
>;

/** Options of the extension, and so of each session's seat. */
export interface RoundtableExtensionOptions {
  /** The agent directory whose broker the sessions use; default `ORPHUS_CODING_AGENT_DIR` from `env`, else `~/.orphus/agent`. */
  readonly agentDir?: string;
  /** Where the role, the agent directory and a spawned broker's environment come from; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Coalescing window of activity pings, and the least time between two ping lines; default 1.5 s. */
  readonly pingWindowMs?: number;
  /** How the client starts and reaches the broker (its idle time, the program that runs it, spawn hooks). */
  readonly client?: SeatClientOptions;
  /** Process id of the `session-<pid>` fallback role; default process.pid. */
  readonly pid?: number;
  readonly timers?: ClientTimers;
  /**
   * Loads @orphus/memory (an optional peer) for the `memory` tool; default its dynamic import. Rejecting stands for
   * a pi where it is not installed: the tool then answers every call with how to install it.
   */
  readonly loadMemory?: MemoryLoader;
}

/** The part of pi's ExtensionAPI a seat reads its role from. */
export interface SeatHost {
  getFlag(name: string): boolean | string | undefined;
  getSessionName(): string | undefined;
}

/** What a seat tells its session. */
export interface SeatEvents {
  /** A coalesced activity notice of the rooms this role is in. */
  readonly onActivity: (notice: ActivityNotice) => void;
  /** A one-time warning line (the `session-<pid>` fallback). */
  readonly onWarning: (line: string) => void;
}

/**
 * One pi session's place at the roundtable: its role and its hold on the process's client for that role. Nothing is
 * resolved, connected or started until the first tool call; the role is fixed then, for the session's life.
 */
export class RoundtableSeat {
  readonly #host: SeatHost;
  readonly #options: RoundtableExtensionOptions;
  readonly #events: SeatEvents;
  #role: SessionRole | undefined;
  #lease: ClientLease | undefined;
  #closed = false;

  constructor(host: SeatHost, options: RoundtableExtensionOptions, events: SeatEvents) {
    this.#host = host;
    this.#options = options;
    this.#events = events;
  }

  /** The role: the one fixed at the first call, or what it would be now. Throws for an invalid flag or variable. */
  role(): SessionRole {
    return (
      this.#role ??
      resolveSessionRole({
        flag: this.#host.getFlag(ROLE_FLAG),
        sessionName: this.#host.getSessionName(),
        env: this.#options.env ?? process.env,
        pid: this.#options.pid ?? process.pid,
      })
    );
  }

  /** Where the broker of this seat's agent directory lives (nothing is read or started). */
  location(): BrokerLocation {
    return locateBroker({ spawnBroker: false, ...this.#agentDirOptions() });
  }

  /** The client once the session has made its first call; undefined before. */
  get client(): RoundtableClient | undefined {
    return this.#lease?.client;
  }

  /**
   * The client, leased on the first call: the role is fixed, the `session-<pid>` warning goes out once, and the
   * process's client for this directory and role is shared or created (lazy: it connects on its first request).
   */
  take(): RoundtableClient {
    if (this.#closed) throw new ClientClosedError("call");
    if (this.#lease !== undefined) return this.#lease.client;
    const role = this.role();
    const key = sharedClientKey(this.location().agentDir, role.role);
    const { pingWindowMs, timers, pid } = this.#options;
    this.#lease = leaseSharedClient(key, this.#events.onActivity, (onActivity) =>
      createRoundtableClient({
        ...this.#options.client,
        ...this.#agentDirOptions(),
        role: role.role,
        onActivity,
        ...(pingWindowMs === undefined ? {} : { pingWindowMs }),
        ...(timers === undefined ? {} : { timers }),
        ...(pid === undefined ? {} : { pid }),
      }),
    );
    this.#role = role;
    if (role.ephemeral) this.#events.onWarning(ephemeralRoleWarning(role.role, this.#host.getSessionName()));
    return this.#lease.client;
  }

  /** Lets go of the client (the last seat of a role closes it); later calls fail with ClientClosedError. */
  close(): void {
    this.#closed = true;
    this.#lease?.release();
    this.#lease = undefined;
  }

  #agentDirOptions(): { agentDir?: string; env?: NodeJS.ProcessEnv } {
    const { agentDir, env } = this.#options;
    return { ...(agentDir === undefined ? {} : { agentDir }), ...(env === undefined ? {} : { env }) };
  }
}
