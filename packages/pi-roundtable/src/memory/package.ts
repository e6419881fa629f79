// The memory store is an optional peer: @orphus/memory carries better-sqlite3, a native addon that compiles at install
// where no prebuilt binary can be fetched, and a pi user who wants only the roundtable should not need it. It is
// loaded once, when the extension loads (its tool's schema is needed to register the tool), by a dynamic import that
// touches no database; the store itself opens on a session's first memory call. The part used is declared by shape,
// as pi's API is (pi.ts), so the published types name no module a user may not have.
import { boundedText } from "@orphus/roundtable-client";

/**
 * Options the extension opens a store with: the session's role, where it came from, the environment, and the agent
 * directory of the extension's `agentDir` option (which answers then name as where the location came from).
 */
export interface MemoryOpenOptions {
  readonly role?: string;
  readonly roleSource?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly agentDir?: string;
}

/** A result of the memory tool: text for the model, and whether the call failed. */
export interface MemoryToolOutcome {
  readonly text: string;
  readonly isError: boolean;
}

/** The part of @orphus/memory the extension uses. `Store` is its store, opaque here. */
export interface MemoryPackage<Store = unknown> {
  readonly MEMORY_TOOL_NAME: string;
  readonly MEMORY_TOOL_DESCRIPTION: string;
  memoryToolJsonSchema(): Record<string, unknown>;
  parseMemoryToolInput(input: unknown): unknown;
  /** The error text of a failed call (a refusal of its arguments: the refusal alone), bounded and sanitised. */
  describeMemoryToolError(action: string, error: unknown): string;
  /** Opens nothing: the store opens on its first operation. */
  openMemory(options: MemoryOpenOptions): Store & { readonly path: string; close(): void };
  runMemoryTool(store: Store, input: unknown): MemoryToolOutcome;
}

/** Loads the memory package; rejects when it is not installed where this extension can import it. */
export type MemoryLoader = () => Promise<MemoryPackage>;

/** The default loader: `import("@orphus/memory")`, resolved from this package's own location. */
export const loadMemoryPackage: MemoryLoader = () => import("@orphus/memory");

/** The memory package as an extension sees it: loaded, or not available and why. */
export type MemoryAvailability =
  { readonly available: true; readonly memory: MemoryPackage } | { readonly available: false; readonly reason: string };

/** Longest reason a failed load gives (it goes into the tool's description, its results and the status). */
const MAX_REASON_CHARS = 300;

/**
 * Loads the package with `load`, turning any failure into the reason memory is not available: one line, sanitised
 * and at most 300 characters, since it reaches the model in the tool's description and results.
 */
export async function findMemory(load: MemoryLoader): Promise<MemoryAvailability> {
  try {
    return { available: true, memory: await load() };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const reason =
      code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND"
        ? "@orphus/memory is not installed beside @orphus/pi-roundtable"
        : `@orphus/memory could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
    return { available: false, reason: boundedText(reason, MAX_REASON_CHARS, { oneLine: true }) };
  }
}
