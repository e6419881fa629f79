// The memory store each session started from this environment would use: where it is, and whether a query there
// would find anything. @orphus/memory (SQLite through a native addon) is loaded here only, when the doctor runs, so
// the other commands never load it, and an addon that cannot load costs the memory line, not the doctor: the doctor
// then names the place and says why it could not look inside.
import * as path from "node:path";
import { AGENT_DIR_ENV, resolveMemoryDir } from "@orphus/agent-env";
import { boundedText, shownPath } from "@orphus/roundtable-client";
import { plural } from "@orphus/internal";
import { emptyMemory, unusableMemory, type DoctorFinding } from "./findings.js";

/** File name of the store in the memory directory (as @orphus/memory names it). */
const STORE_FILE_NAME = "memory.db";

/** Characters of a load failure the note quotes. */
const MAX_LOAD_ERROR_CHARS = 300;

/** What the memory check saw. */
export interface MemorySeen {
  readonly notes: string[];
  readonly findings: DoctorFinding[];
}

/** Reports the memory store of `env` (with `agentDir` from --agent-dir, when given): missing, empty, or what it holds. */
export async function checkMemory(env: NodeJS.ProcessEnv, agentDir: string | undefined): Promise<MemorySeen> {
  const resolved = resolveMemoryDir(agentDir === undefined ? env : { ...env, [AGENT_DIR_ENV]: agentDir });
  const source = resolved.source === AGENT_DIR_ENV && agentDir !== undefined ? "--agent-dir" : resolved.source;
  const where = `memory store ${shownPath(path.join(resolved.dir, STORE_FILE_NAME))} (from ${source})`;
  let store: import("@orphus/memory").MemoryStore;
  try {
    const memory = await import("@orphus/memory");
    store = memory.openMemory({ dir: resolved.dir, env: {} });
  } catch (error) {
    const why = boundedText(error instanceof Error ? error.message : String(error), MAX_LOAD_ERROR_CHARS, {
      oneLine: true,
    });
    return { notes: [`${where}: not opened, @orphus/memory could not be loaded here (${why})`], findings: [] };
  }
  try {
    const stats = store.stats();
    if (stats.status === "missing") {
      return {
        notes: [`${where}: none yet (a librarian's first ingest creates it; until then queries say so)`],
        findings: [],
      };
    }
    if (stats.status === "empty") return { notes: [], findings: [emptyMemory(store.path, source)] };
    const last = stats.lastIngestAt === null ? "never" : new Date(stats.lastIngestAt).toISOString();
    return {
      notes: [
        `${where}: ${plural(stats.entries, "entry", "entries")} from ${plural(stats.sources, "source")}, schema v${stats.schemaVersion}, last ingest ${last}`,
      ],
      findings: [],
    };
  } catch (error) {
    return {
      notes: [],
      findings: [unusableMemory(store.path, error instanceof Error ? error.message : String(error))],
    };
  } finally {
    store.close();
  }
}
