// orphus-memory: the memory store from a shell. Reads never create a store; ingest and forget are for the
// librarian. Every outcome a script must tell apart has its own exit code (MEMORY_CLI_EXIT).
import { parseArgs } from "node:util";
import { sanitizeText } from "@orphus/digest";
import { boundedText, shownValue, showableJson } from "@orphus/shared-tool";
import { z } from "zod";
import { MemoryError, MemoryUsageError, NotLibrarianError, QUERY_TOO_LONG, StoreMissingError } from "./errors.js";
import {
  DEFAULT_GET_PAGE_CHARS,
  DEFAULT_QUERY_BUDGET,
  DEFAULT_QUERY_LIMIT,
  MAX_GET_PAGE_CHARS,
  MAX_MEMORY_ERROR_CHARS,
  MAX_QUERY_BUDGET,
  MAX_QUERY_CHARS,
  MAX_QUERY_LIMIT,
  MAX_TAGS,
  MAX_TITLE_CHARS,
} from "./limits.js";
import { openMemory, type IngestProgress, type MemoryOptions } from "./store/store.js";
import { MEMORY_VERSION } from "./version.js";

/** Exit codes of `orphus-memory`. */
export const MEMORY_CLI_EXIT = {
  /** Done; a query found hits. */
  ok: 0,
  /** The store refused (damaged, foreign, newer, busy) or the command failed. */
  failed: 1,
  /** The arguments are wrong. */
  usage: 2,
  /** No store exists at the resolved location. */
  missing: 3,
  /** The store exists and holds nothing. */
  empty: 4,
  /** The store holds entries, none matching the query. */
  noMatch: 5,
  /** ingest or forget by a role other than librarian. */
  notLibrarian: 6,
} as const;

export const MEMORY_CLI_USAGE = `Usage: orphus-memory <command> [options]

The memory store shared by every Orphus session of this user (SQLite FTS5).

Commands:
  query <words…>        search, best first: hits within --budget characters plus one line saying how many more
                        matched and how to get them (--limit hits, --offset to continue)
  get <id>              one entry in full, --limit characters a page from --offset
  stats                 entries, sources, size, last ingest, schema version, and where the store is
  ingest <path…>        files and folders, chunked at headings and paragraphs; unchanged files are left alone;
                        what was skipped is counted by reason (hidden folders and node_modules are not read);
                        progress on stderr (a line every 5 s when stderr is not a terminal)
  ingest --title <t> --text <text> [--tags a,b] [--source <s>]
                        one text as one entry; the same source later replaces it
  forget <id>           one entry;  forget --source <s>: every entry of a source (a file's path, or a text's source)

Options:
  --dir <dir>           memory directory (default: $ORPHUS_MEMORY_DIR, else $ORPHUS_CODING_AGENT_DIR/memory, else
                        ~/.orphus/agent/memory)
  --as <role>           the role to act as (default: $ORPHUS_ROUNDTABLE_ROLE); only librarian may ingest and forget
  --budget <n>          query: characters of hits (default ${DEFAULT_QUERY_BUDGET}, at most ${MAX_QUERY_BUDGET})
  --limit <n>           query: most hits (default ${DEFAULT_QUERY_LIMIT}); get: characters a page (default ${DEFAULT_GET_PAGE_CHARS})
  --offset <n>          query: hits to pass over; get: characters to pass over
  --json                print the result as JSON (for scripts)
  -h, --help            this help
  --version             the version

Exit codes: 0 done (query: hits), 1 failed (a damaged, foreign or newer store is refused and left untouched),
2 bad arguments, 3 no store at this location, 4 the store is empty, 5 no entry matches, 6 not the librarian.
The librarian role keeps writers from colliding; it is a convention, not a security boundary.
`;

/** Where the CLI writes, and what it reads; injected so tests run it in-process. */
export interface MemoryCliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly env?: NodeJS.ProcessEnv;
  /** Passed to openMemory (tests shorten timeouts or fix the clock). */
  readonly memoryOptions?: MemoryOptions;
  /** The clock progress lines are paced by, in ms; default Date.now. */
  readonly now?: () => number;
}

const count = (max: number) => z.coerce.number().int().min(0).max(max);

const argsSchema = z.object({
  dir: z.string().min(1).optional(),
  as: z.string().min(1).max(64).optional(),
  budget: count(MAX_QUERY_BUDGET).optional(),
  limit: count(MAX_GET_PAGE_CHARS).optional(),
  offset: count(Number.MAX_SAFE_INTEGER).optional(),
  title: z.string().min(1).max(MAX_TITLE_CHARS).optional(),
  text: z.string().min(1).optional(),
  tags: z.string().optional(),
  source: z.string().min(1).optional(),
  json: z.boolean().optional(),
});

type CliValues = z.infer<typeof argsSchema>;

function usage(message: string): never {
  throw new MemoryUsageError(message);
}

function parse(argv: readonly string[]): {
  values: CliValues;
  command: string | undefined;
  rest: string[];
  help: boolean;
  version: boolean;
} {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
        json: { type: "boolean" },
        dir: { type: "string" },
        as: { type: "string" },
        budget: { type: "string" },
        limit: { type: "string" },
        offset: { type: "string" },
        title: { type: "string" },
        text: { type: "string" },
        tags: { type: "string" },
        source: { type: "string" },
      },
    });
  } catch (error) {
    // node's messages may run over several lines; a usage error is one.
    return usage((error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, " "));
  }
  const { help, version, ...rest } = parsed.values;
  const values = argsSchema.safeParse(rest);
  if (!values.success) {
    const issue = values.error.issues[0];
    return usage(`--${String(issue?.path[0] ?? "option")}: ${issue?.message ?? "invalid"}`);
  }
  const [command, ...positionals] = parsed.positionals;
  return { values: values.data, command, rest: positionals, help: help === true, version: version === true };
}

function positiveId(text: string | undefined, command: string): number {
  const id = Number(text);
  if (text === undefined || !Number.isSafeInteger(id) || id < 1)
    usage(`${command} takes one entry id, a positive integer`);
  return id;
}

/** Least time between two redraws of the progress line on a terminal. */
const REDRAW_EVERY_MS = 100;

/** Time between two progress lines where stderr is not a terminal (an agent, CI): a steady pace, not every file. */
const PROGRESS_EVERY_MS = 5_000;

/**
 * Progress of an ingest of paths on stderr, paced by the CLI's clock: on a terminal one line drawn over itself (the
 * first file's, then at most every REDRAW_EVERY_MS, and the last), elsewhere a line every PROGRESS_EVERY_MS, so a
 * long ingest run by an agent or in CI says it is alive and how far it got, and a short one prints nothing.
 */
function progressLines(io: MemoryCliIo): (progress: IngestProgress) => void {
  const now = io.now ?? Date.now;
  const tty = io.stderr.isTTY === true;
  let last = tty ? Number.NEGATIVE_INFINITY : now();
  return (progress) => {
    const at = now();
    const summary =
      `ingesting: ${progress.filesDone}/${progress.filesTotal} files, ${progress.entriesAdded} entries` +
      (progress.skipped > 0 ? `, ${progress.skipped} skipped` : "");
    if (tty) {
      if (at - last < REDRAW_EVERY_MS && progress.filesDone < progress.filesTotal) return;
      last = at;
      io.stderr.write(`\r\u001b[2K${summary}`);
    } else if (at - last >= PROGRESS_EVERY_MS) {
      last = at;
      io.stderr.write(`orphus-memory: ${summary}\n`);
    }
  };
}

/**
 * Runs `orphus-memory` with `argv` (without node and the script); resolves to the exit code. Everything it prints
 * passes the one sanitiser: an answer's text as the store rendered it (names escaped, content sanitised, bounded),
 * `--json` as showable JSON (every character the sanitiser would drop written as a `\uXXXX` escape, so a script
 * parses the raw values back while nothing invisible reaches a terminal), and a failure as one line on stderr of at
 * most MAX_MEMORY_ERROR_CHARS characters after its prefix.
 */
export async function runMemoryCli(argv: readonly string[], io: MemoryCliIo): Promise<number> {
  let json = false;
  const print = (text: string, result: unknown): void => {
    io.stdout.write(json ? `${showableJson(result, 2) ?? "null"}\n` : `${sanitizeText(text)}\n`);
  };
  try {
    const { values, command, rest, help, version } = parse(argv);
    json = values.json === true;
    if (help) {
      io.stdout.write(MEMORY_CLI_USAGE);
      return MEMORY_CLI_EXIT.ok;
    }
    if (version) {
      io.stdout.write(`${MEMORY_VERSION}\n`);
      return MEMORY_CLI_EXIT.ok;
    }
    if (command === undefined) usage("no command given");
    const store = openMemory({
      ...io.memoryOptions,
      env: io.env ?? process.env,
      ...(values.dir === undefined ? {} : { dir: values.dir }),
      ...(values.as === undefined ? {} : { role: values.as }),
    });
    try {
      switch (command) {
        case "query": {
          const words = rest.join(" ");
          if (words.trim() === "") usage("query takes the words to search for");
          if (words.length > MAX_QUERY_CHARS) usage(QUERY_TOO_LONG);
          if (values.limit !== undefined && (values.limit < 1 || values.limit > MAX_QUERY_LIMIT)) {
            usage(`--limit: a query shows 1 to ${MAX_QUERY_LIMIT} hits`);
          }
          const answer = store.query(words, {
            ...(values.budget === undefined ? {} : { budget: values.budget }),
            ...(values.limit === undefined ? {} : { limit: values.limit }),
            ...(values.offset === undefined ? {} : { offset: values.offset }),
          });
          print(answer.text, answer);
          const codes = {
            missing: MEMORY_CLI_EXIT.missing,
            empty: MEMORY_CLI_EXIT.empty,
            "no-match": MEMORY_CLI_EXIT.noMatch,
            "no-words": MEMORY_CLI_EXIT.usage,
            hits: MEMORY_CLI_EXIT.ok,
          };
          return codes[answer.status];
        }
        case "get": {
          if (rest.length !== 1) usage("get takes one entry id");
          if (values.limit !== undefined && values.limit < 1) usage("--limit: a page holds at least 1 character");
          const answer = store.get(positiveId(rest[0], "get"), {
            ...(values.offset === undefined ? {} : { offset: values.offset }),
            ...(values.limit === undefined ? {} : { limit: values.limit }),
          });
          print(answer.text, answer);
          return MEMORY_CLI_EXIT.ok;
        }
        case "stats": {
          if (rest.length !== 0) usage("stats takes no arguments");
          const stats = store.stats();
          print(stats.text, stats);
          return stats.status === "missing"
            ? MEMORY_CLI_EXIT.missing
            : stats.status === "empty"
              ? MEMORY_CLI_EXIT.empty
              : MEMORY_CLI_EXIT.ok;
        }
        case "ingest": {
          let report;
          if (values.text !== undefined || values.title !== undefined) {
            if (rest.length > 0) usage("ingest takes either paths or --title with --text, not both");
            if (values.text === undefined || values.title === undefined)
              usage("ingest of a text needs --title and --text");
            const tags =
              values.tags === undefined
                ? []
                : values.tags
                    .split(",")
                    .map((t) => t.trim())
                    .filter((t) => t !== "");
            if (tags.length > MAX_TAGS) usage(`--tags: at most ${MAX_TAGS}`);
            report = store.ingestTexts([
              {
                title: values.title,
                body: values.text,
                tags,
                ...(values.source === undefined ? {} : { source: values.source }),
              },
            ]);
          } else {
            if (rest.length === 0) usage("ingest takes files or folders, or --title with --text");
            report = store.ingestPaths(rest, { onProgress: progressLines(io) });
            if (io.stderr.isTTY === true) io.stderr.write("\r\u001b[2K");
          }
          print(report.text, report);
          return MEMORY_CLI_EXIT.ok;
        }
        case "forget": {
          if (values.source !== undefined ? rest.length !== 0 : rest.length !== 1)
            usage("forget takes one entry id, or --source <source>");
          const report = store.forget(
            values.source !== undefined ? { source: values.source } : { id: positiveId(rest[0], "forget") },
          );
          print(report.text, report);
          return MEMORY_CLI_EXIT.ok;
        }
        default:
          return usage(`unknown command ${shownValue(command)}`);
      }
    } finally {
      store.close();
    }
  } catch (error) {
    const code =
      error instanceof MemoryUsageError
        ? MEMORY_CLI_EXIT.usage
        : error instanceof NotLibrarianError
          ? MEMORY_CLI_EXIT.notLibrarian
          : error instanceof StoreMissingError
            ? MEMORY_CLI_EXIT.missing
            : MEMORY_CLI_EXIT.failed;
    const message = boundedText(error instanceof Error ? error.message : String(error), MAX_MEMORY_ERROR_CHARS, {
      oneLine: true,
    });
    if (json)
      io.stdout.write(
        `${showableJson({ error: { code: error instanceof MemoryError ? error.code : "ERR_FAILED", message } }, 2)}\n`,
      );
    io.stderr.write(
      `orphus-memory: ${message}\n${code === MEMORY_CLI_EXIT.usage ? "Run orphus-memory --help for usage.\n" : ""}`,
    );
    return code;
  }
}
