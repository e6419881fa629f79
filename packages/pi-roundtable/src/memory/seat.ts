import { ROLE_ENV } from "@orphus/roundtable-client";
import { MemorySeatClosedError } from "../errors.js";
import type { MemoryPackage } from "./package.js";

/** Where a memory seat finds its store and its role. */
export interface MemorySeatOptions {
  /** The agent directory the store defaults under (`<agent dir>/memory`) when ORPHUS_MEMORY_DIR is unset. */
  readonly agentDir?: string;
  readonly env?: NodeJS.ProcessEnv;
  /**
   * The session's role and where it came from, asked at the first memory call (the roundtable seat's, so both tools
   * speak as one role); throws when the role cannot be resolved.
   */
  readonly role: () => { readonly role: string; readonly source: string };
}

/**
 * One pi session's hold on the memory store: nothing is opened until the session's first memory call, which opens
 * one connection for the session's life; the session's shutdown closes it. A session that never calls the memory
 * tool opens no database.
 */
export class MemorySeat {
  readonly #memory: MemoryPackage;
  readonly #options: MemorySeatOptions;
  #store: ReturnType<MemoryPackage["openMemory"]> | undefined;
  #closed = false;

  constructor(memory: MemoryPackage, options: MemorySeatOptions) {
    this.#memory = memory;
    this.#options = options;
  }

  /** The store's file, as the package resolves it (nothing is opened or read). */
  storePath(): string {
    return this.#store?.path ?? this.#open().path;
  }

  /** Whether the session has made a memory call, so the store is open. */
  get opened(): boolean {
    return this.#store !== undefined;
  }

  /** The store, opened lazily on the first call (the package opens the file on the store's first operation). */
  take(): ReturnType<MemoryPackage["openMemory"]> {
    if (this.#closed) throw new MemorySeatClosedError();
    this.#store ??= this.#open();
    return this.#store;
  }

  /** Closes the store; later calls fail with MemorySeatClosedError. */
  close(): void {
    this.#closed = true;
    this.#store?.close();
    this.#store = undefined;
  }

  /** A store object for this session (the package's openMemory opens no file until its first operation). */
  #open(): ReturnType<MemoryPackage["openMemory"]> {
    const { agentDir, role } = this.#options;
    const base = this.#options.env ?? process.env;
    // The option for a package that takes it (its answers then say the location came from the agentDir option, not
    // from a variable), the variable too for one from before that reads only the environment.
    const env = agentDir === undefined ? base : { ...base, ORPHUS_CODING_AGENT_DIR: agentDir };
    const where = agentDir === undefined ? { env } : { env, agentDir };
    try {
      const resolved = role();
      return this.#memory.openMemory({ role: resolved.role, roleSource: resolved.source, ...where });
    } catch (error) {
      // No valid role: reads still work; a write is refused, saying why this session has none.
      const why = error instanceof Error ? error.message : String(error);
      return this.#memory.openMemory({
        roleSource: why.slice(0, 300),
        ...where,
        env: { ...env, [ROLE_ENV]: undefined },
      });
    }
  }
}
