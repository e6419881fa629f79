#!/usr/bin/env node
// orphus-roundtable-broker: what a client spawns detached (no terminal, its own process group). Starts the broker
// of the agent directory, or stands down with exit code 0 when one already answers; exits 0 once idle. Logs to
// <agentDir>/roundtable/broker.log (size-bounded). Exit code 1: it could not start; 2: bad arguments.
import { mkdirSync } from "node:fs";
import { parseArgs } from "node:util";
import * as z from "zod";
import { AGENT_DIR_ENV, resolveAgentDir } from "@orphus/agent-env";
import { errorCode, hasErrorCode } from "@orphus/internal";
import {
  MAX_HELD_BYTES_ENV,
  MEMORY_STORE,
  STORE_ENV,
  STORE_PASSWORD_FILE_ENV,
  brokerDir,
  brokerLogPath,
  brokerSocketPath,
  checkSocketPath,
  resolveStoreSetting,
  type StoreSetting,
  type StoreSettingError,
} from "@orphus/roundtable-locator";
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_HEADLINE_BYTES, DEFAULT_MAX_HELD_BYTES } from "@orphus/rooms";
import { startBroker } from "../broker.js";
import { BrokerArgumentsError } from "../errors.js";
import { createFileLogger, silentLogger, type BrokerLogger } from "../log.js";
import { BROKER_VERSION } from "../version.js";

/** The least --max-held-bytes at the default limits: the largest message, at two bytes a code unit. */
const LEAST_HELD_BYTES = 2 * (DEFAULT_MAX_BODY_BYTES + DEFAULT_MAX_HEADLINE_BYTES);

const USAGE = `Usage: orphus-roundtable-broker [--agent-dir DIR] [--idle-ms MS] [--hello-timeout-ms MS] [--store URL]
                               [--max-held-bytes BYTES]

Serves the roundtable rooms of one agent directory on <DIR>/roundtable/broker.sock, or stands down (exit 0) when a
broker already answers there. Exits 0 once idle. Clients spawn it detached; there is no need to run it by hand.

  --agent-dir DIR  the agent directory (default: $${AGENT_DIR_ENV}, else ~/.orphus/agent)
  --idle-ms MS     wait after the last connection closes before exiting (default: 5000)
  --hello-timeout-ms MS
                   close a connection that has not said hello by then (default: 10000)
  --store URL      where the rooms are kept (default: $${STORE_ENV}, else memory):
                     memory                       this process's memory, gone when it exits
                     redis://[user@]host[:port][/db], rediss://… (TLS)
                                                  a Redis shared with the brokers of other hosts (the Redis store
                                                  is bundled with this bin)
                   Nothing secret on a command line (other users can read it): a --store URL carrying a password is
                   refused. Give the whole URL, password included, in $${STORE_ENV}, or the password alone in a file:
  --store-password-file FILE
                   a file holding the store's password, for a URL without one (default: $${STORE_PASSWORD_FILE_ENV})
  --max-held-bytes BYTES
                   the memory ceiling for message text, all rooms together, counted two bytes per UTF-16 code
                   unit of bodies and headlines (default: $${MAX_HELD_BYTES_ENV}, else ${DEFAULT_MAX_HELD_BYTES},
                   128 MiB; at least twice the largest body and headline, ${LEAST_HELD_BYTES}). A post that takes
                   the total past it evicts the oldest messages of the largest rooms, and their readers are told.
                   Memory store only: on Redis the rooms are held in Redis; the flag is refused there, the
                   variable ignored (logged)
  --help           print this and exit
  --version        print the version and exit

A broker configured for Redis that cannot reach it within 2 s does not start (exit 1); it never falls back to memory.
Logs, status and \`roundtable doctor\` name the store with its password masked.

Logs to <DIR>/roundtable/broker.log. While it listens, an entry in $ORPHUS_ROUNDTABLE_REGISTRY_DIR (default
~/.orphus/roundtable-brokers) names it, for \`roundtable doctor\`.
Exit codes: 0 done or stood down, 1 could not start, 2 bad arguments, options or store setting.
`;

/** A whole number of milliseconds from `min` to 2^31-1, as a flag's string. */
function milliseconds(flag: string, min: number) {
  return z
    .string()
    .regex(/^\d{1,10}$/, { error: `${flag} needs a whole number of milliseconds` })
    .transform(Number)
    .refine((ms) => ms >= min && ms <= 2 ** 31 - 1, { error: `${flag} is from ${min} to 2147483647` })
    .optional();
}

const argumentsSchema = z.object({
  help: z.boolean().optional(),
  version: z.boolean().optional(),
  "agent-dir": z.string().min(1, { error: "--agent-dir needs a directory" }).optional(),
  "idle-ms": milliseconds("--idle-ms", 0),
  "hello-timeout-ms": milliseconds("--hello-timeout-ms", 1),
  store: z.string().min(1, { error: "--store needs memory or a redis:// URL" }).optional(),
  "store-password-file": z.string().min(1, { error: "--store-password-file needs a file" }).optional(),
  "max-held-bytes": heldBytes("--max-held-bytes"),
});

/** A whole number of bytes, as the text budget's flag or variable gives it. */
function heldBytes(setting: string) {
  return z
    .string()
    .regex(/^\d{1,15}$/, { error: `${setting} needs a whole number of bytes` })
    .transform(Number)
    .optional();
}

/**
 * The text budget for `startBroker`: the flag, else the variable (for the memory store; a broker on Redis logs that
 * it ignores the variable, which is set for every broker a shell starts); undefined for the default.
 */
function heldBytesSetting(flag: number | undefined, store: StoreSetting, logger: BrokerLogger): number | undefined {
  if (flag !== undefined) return flag;
  const raw = process.env[MAX_HELD_BYTES_ENV]?.trim() ?? "";
  if (raw === "") return undefined;
  if (store.url !== MEMORY_STORE) {
    logger.info(`${MAX_HELD_BYTES_ENV} ignored: the rooms are held in the room store, not this broker`);
    return undefined;
  }
  const parsed = heldBytes(MAX_HELD_BYTES_ENV).safeParse(raw);
  if (!parsed.success) throw new BrokerArgumentsError(parsed.error.issues.map((i) => i.message).join("; "));
  return parsed.data;
}

function parseArguments(argv: readonly string[]): z.infer<typeof argumentsSchema> {
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        "agent-dir": { type: "string" },
        "idle-ms": { type: "string" },
        "hello-timeout-ms": { type: "string" },
        store: { type: "string" },
        "store-password-file": { type: "string" },
        "max-held-bytes": { type: "string" },
        help: { type: "boolean" },
        version: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (cause) {
    throw new BrokerArgumentsError((cause as Error).message, { cause });
  }
  const parsed = argumentsSchema.safeParse(values);
  if (!parsed.success) throw new BrokerArgumentsError(parsed.error.issues.map((i) => i.message).join("; "));
  return parsed.data;
}

function openLog(agentDir: string): BrokerLogger {
  try {
    mkdirSync(brokerDir(agentDir), { recursive: true, mode: 0o700 });
    return createFileLogger(brokerLogPath(agentDir));
  } catch {
    return silentLogger;
  }
}

/** The log once the agent directory is known; uncaught errors go there too. */
let log: BrokerLogger = silentLogger;

async function main(): Promise<number> {
  let args: z.infer<typeof argumentsSchema>;
  try {
    args = parseArguments(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  if (args.help === true) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args.version === true) {
    process.stdout.write(`${BROKER_VERSION}\n`);
    return 0;
  }
  const agentDir =
    args["agent-dir"] === undefined
      ? resolveAgentDir()
      : resolveAgentDir({ ORPHUS_CODING_AGENT_DIR: args["agent-dir"] });
  const logger = openLog(agentDir);
  log = logger;
  // Resolved once, here: flag over variable; the password from the URL in the variable or from a file.
  let store: StoreSetting;
  try {
    store = resolveStoreSetting({ flag: args.store, passwordFile: args["store-password-file"] });
  } catch (error) {
    if (!hasErrorCode<StoreSettingError>(error, "ERR_STORE_SETTING_INVALID")) throw error;
    logger.error("broker failed to start", { code: error.code, error: error.message });
    process.stderr.write(`orphus-roundtable-broker: ${error.message}\n`);
    return 2;
  }
  let maxHeldBytes: number | undefined;
  try {
    maxHeldBytes = heldBytesSetting(args["max-held-bytes"], store, logger);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  try {
    // Checked here first so the advice names what was used to set the directory: this flag, or the variable.
    const fromEnv = (process.env[AGENT_DIR_ENV]?.trim() ?? "") !== "";
    const setting = args["agent-dir"] !== undefined ? "--agent-dir" : fromEnv ? AGENT_DIR_ENV : "default";
    checkSocketPath(brokerSocketPath(agentDir), process.platform, setting);
    const start = await startBroker({
      agentDir,
      ownsProcess: true,
      logger,
      store: store.url,
      ...(args["idle-ms"] === undefined ? {} : { idleMs: args["idle-ms"] }),
      ...(args["hello-timeout-ms"] === undefined ? {} : { helloTimeoutMs: args["hello-timeout-ms"] }),
      ...(maxHeldBytes === undefined ? {} : { maxHeldBytes }),
    });
    if (start.status === "stood-down") return 0;
    const shutdown = (): void => void start.broker.close();
    process.once("SIGTERM", shutdown);
    process.once("SIGINT", shutdown);
    process.once("SIGHUP", shutdown);
    // The broker exits the process itself once closed (it owns it); until then the server keeps it alive.
    return -1;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logger.error("broker failed to start", {
      // The code of any error of ours, the broker's or a package's it called (a room option out of range).
      code: errorCode(error),
      error: message,
    });
    process.stderr.write(`orphus-roundtable-broker: ${message}\n`);
    // An option out of range (a budget below the largest message, or one given for a Redis store) is a bad argument.
    return errorCode(error) === "ERR_BROKER_INVALID_OPTION" ? 2 : 1;
  }
}

process.on("uncaughtException", (error) => {
  log.error("broker crashed", { error: error.stack ?? error.message });
  process.stderr.write(`orphus-roundtable-broker: ${error.stack ?? error.message}\n`);
  process.exit(1);
});

const code = await main();
if (code >= 0) process.exit(code);
