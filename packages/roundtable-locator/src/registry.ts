import { lstatSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensurePrivateDir } from "@orphus/agent-env";
import * as z from "zod";
import { BrokerRegistryError } from "./errors.js";
import { MAX_REGISTRY_ENTRIES, MAX_REGISTRY_ENTRY_BYTES } from "./limits.js";

/** The variable naming the registry directory; tests point it at a temporary directory so they never touch the home. */
export const REGISTRY_DIR_ENV = "ORPHUS_ROUNDTABLE_REGISTRY_DIR";

/** Folder under `~/.orphus` holding one entry per running broker of the user. */
export const REGISTRY_DIR_NAME = "roundtable-brokers";

/** Suffix of an entry file; the name before it is `<pid>-<instance>`. */
const ENTRY_SUFFIX = ".json";

/** One running broker as its registry entry describes it. */
export interface RegistryEntry {
  readonly pid: number;
  /** Random per broker, so two brokers of one process (embedded in a test) keep apart. */
  readonly instance: string;
  readonly agentDir: string;
  readonly socketPath: string;
  /** Package version of the broker. */
  readonly brokerVersion: string;
  readonly protocol: string;
  readonly protocolVersion: number;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  /**
   * Where the broker keeps its rooms, masked: "memory", or a store URL with its password masked. Absent from the
   * entries of brokers older than room stores, which kept their rooms in memory.
   */
  readonly store?: string;
}

/** An entry as read back, with the file it came from. */
export interface RegisteredBroker extends RegistryEntry {
  readonly file: string;
}

/** What {@link readBrokerRegistry} found. */
export interface RegistryListing {
  readonly dir: string;
  /** Entries that parsed, oldest start first. Their brokers may have died since: check before trusting one. */
  readonly entries: readonly RegisteredBroker[];
  /** Files that are not valid entries (too large, not JSON, wrong fields), by path. */
  readonly invalid: readonly string[];
  /** True when the directory held more entry files than are read (256) and the rest were not read. */
  readonly truncated: boolean;
}

const entrySchema = z.object({
  pid: z.number().int().min(1),
  instance: z.string().regex(/^[0-9a-f]{1,64}$/),
  agentDir: z.string().min(1).max(4096),
  socketPath: z.string().min(1).max(4096),
  brokerVersion: z.string().max(64),
  protocol: z.string().max(64),
  protocolVersion: z.number().int().min(0),
  startedAt: z.number().int().min(0),
  store: z.string().max(1024).optional(),
});

/**
 * The registry directory: `ORPHUS_ROUNDTABLE_REGISTRY_DIR` when set and non-empty (resolved from the working
 * directory), else `~/.orphus/roundtable-brokers`. Per user, and independent of the agent directory, which is the
 * point: brokers of different agent directories (a split fleet) all register here.
 */
export function resolveRegistryDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
  homedir: string = os.homedir(),
): string {
  const configured = env[REGISTRY_DIR_ENV]?.trim();
  if (configured === undefined || configured === "") return path.join(homedir, ".orphus", REGISTRY_DIR_NAME);
  return path.resolve(configured);
}

/** The entry file of a broker: `<dir>/<pid>-<instance>.json`. */
export function registryEntryPath(dir: string, entry: Pick<RegistryEntry, "pid" | "instance">): string {
  return path.join(dir, `${entry.pid}-${entry.instance}${ENTRY_SUFFIX}`);
}

/**
 * Writes the entry of a running broker (0600, atomically: a sibling file renamed into place) and returns its path.
 * Throws BrokerRegistryError when the directory cannot be made private or the file cannot be written.
 */
export function registerBroker(dir: string, entry: RegistryEntry): string {
  ensurePrivateDir(dir, (problem, cause) => new BrokerRegistryError(dir, problem, { cause }));
  const file = registryEntryPath(dir, entry);
  const temporary = `${file}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(entrySchema.parse(entry))}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  } catch (cause) {
    throw new BrokerRegistryError(dir, (cause as Error).message, { cause });
  }
  return file;
}

/** Removes a registry entry file; returns whether it did. Never throws (a missing file is already removed). */
export function removeRegistryEntry(file: string): boolean {
  try {
    unlinkSync(file);
    return true;
  } catch {
    return false;
  }
}

function readEntry(file: string): RegistryEntry | undefined {
  try {
    const stats = lstatSync(file);
    if (!stats.isFile() || stats.size > MAX_REGISTRY_ENTRY_BYTES) return undefined;
    const parsed = entrySchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Lists the registry: every entry file parsed, at most 256 of them (MAX_REGISTRY_ENTRIES), each at most 4,096 bytes
 * (MAX_REGISTRY_ENTRY_BYTES). A missing directory is an empty registry. An entry says a broker started; only
 * its socket says whether it still runs (a broker killed with SIGKILL leaves its entry behind).
 */
export function readBrokerRegistry(dir: string): RegistryListing {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((name) => name.endsWith(ENTRY_SUFFIX))
      .sort();
  } catch {
    return { dir, entries: [], invalid: [], truncated: false };
  }
  const entries: RegisteredBroker[] = [];
  const invalid: string[] = [];
  for (const name of names.slice(0, MAX_REGISTRY_ENTRIES)) {
    const file = path.join(dir, name);
    const entry = readEntry(file);
    if (entry === undefined) invalid.push(file);
    else entries.push({ ...entry, file });
  }
  entries.sort((a, b) => a.startedAt - b.startedAt || a.pid - b.pid);
  return { dir, entries, invalid, truncated: names.length > MAX_REGISTRY_ENTRIES };
}
