import { parse } from "node:path";
import { AGENT_DIR_ENV, resolveAgentDir } from "@orphus/agent-env";
import {
  STORE_ENV,
  brokerCommand,
  describeStoreSetting,
  brokerLogPath,
  brokerSocketPath,
  checkSocketPath,
  ensureBrokerDir,
} from "@orphus/roundtable-locator";
import { brokerPackageRoot } from "./broker-package.js";
import { RoundtableClient, type Connector, type RoundtableClientOptions } from "./client.js";
import { ClientOptionError } from "./errors.js";
import { roleFromEnv } from "./role.js";
import { openBrokerSocket, type BrokerSpawnPlan } from "./ensure.js";
import type { BrokerCommand, SpawnFunction, SpawnedBroker } from "./spawner.js";

/** Where a client finds its broker, and how it starts one. */
export interface BrokerLocation {
  readonly agentDir: string;
  readonly socketPath: string;
  /** Undefined when this client never spawns. */
  readonly spawn: BrokerSpawnPlan | undefined;
}

/** Options of {@link createRoundtableClient}: a client wired to the broker of an agent directory. */
export interface CreateRoundtableClientOptions extends Omit<RoundtableClientOptions, "connector"> {
  /**
   * The role to speak as; default `ORPHUS_ROUNDTABLE_ROLE` from `env`, else `session-<pid>` with a warning that read
   * positions will not survive a restart.
   */
  readonly role?: string;
  /** The agent directory; default `ORPHUS_CODING_AGENT_DIR`, else `~/.orphus/agent`. One per fleet. */
  readonly agentDir?: string;
  /**
   * What the user set `agentDir` with, named in advice about the directory (a socket path too long for it): a flag
   * such as `--agent-dir`. Default: "the agentDir option" when `agentDir` is given, else the variable, else "default".
   */
  readonly agentDirSetting?: string;
  /**
   * Environment the agent directory, the role and the room store are resolved from, and the spawned broker runs
   * with (so `ORPHUS_ROUNDTABLE_STORE` and `ORPHUS_ROUNDTABLE_STORE_PASSWORD_FILE` pass through); default process.env.
   */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * The room store of a broker this client spawns: `memory` or a Redis URL; default `ORPHUS_ROUNDTABLE_STORE` from
   * `env`, else memory. Handed to the broker in its environment, never on its command line (the URL may carry a
   * password). A broker found running on another store is warned about (`onWarning`).
   */
  readonly store?: string;
  /** Start a broker when nothing answers; default true. False for read-only callers (BrokerNotRunningError). */
  readonly spawnBroker?: boolean;
  /** Idle time of a broker this client spawns (`--idle-ms`); default the broker's own (5 s). */
  readonly brokerIdleMs?: number;
  /**
   * The program that runs a broker; default the `orphus-roundtable-broker` bin, built or (in the workspace) source, of
   * the `@orphus/roundtable-broker` found from this package (a client bundled where none can be found needs it).
   */
  readonly brokerCommand?: BrokerCommand;
  /** Where a spawned broker's output goes; default `<agentDir>/roundtable/broker.log`; false discards it. */
  readonly brokerLogPath?: string | false;
  /** Total wait for a spawned broker to answer; default 15 s. */
  readonly startTimeoutMs?: number;
  /** Called with each broker process the client starts. */
  readonly onSpawn?: (broker: SpawnedBroker) => void;
  /** Replaces node's spawn (to count or refuse spawns). */
  readonly spawn?: SpawnFunction;
  /** Replaces the whole connect-or-spawn step. */
  readonly connector?: Connector;
}

function checkIdleMs(idleMs: number | undefined): void {
  if (idleMs !== undefined && (!Number.isInteger(idleMs) || idleMs < 1 || idleMs > 86_400_000)) {
    throw new ClientOptionError("brokerIdleMs", "an integer number of milliseconds from 1 to 86400000", idleMs);
  }
}

/** What the user set the agent directory with: the given label, the option, the variable, or nothing ("default"). */
function agentDirSetting(options: CreateRoundtableClientOptions, env: NodeJS.ProcessEnv): string {
  if (options.agentDirSetting !== undefined) return options.agentDirSetting;
  if (options.agentDir !== undefined) return "the agentDir option";
  return (env[AGENT_DIR_ENV]?.trim() ?? "") !== "" ? AGENT_DIR_ENV : "default";
}

/**
 * Works out the agent directory (absolute), the socket, the log and the command that starts a broker. Starts
 * nothing; the command is resolved (tsx is located when running from source), so a client calls this on its first
 * connect. Throws the broker's SocketPathTooLongError, naming what set the directory, when the socket path cannot
 * fit: no broker is spawned only to fail on it.
 */
export function locateBroker(options: CreateRoundtableClientOptions = {}): BrokerLocation {
  checkIdleMs(options.brokerIdleMs);
  const env = options.env ?? process.env;
  const agentDir = resolveAgentDir(
    options.agentDir === undefined ? env : { ORPHUS_CODING_AGENT_DIR: options.agentDir },
  );
  const socketPath = brokerSocketPath(agentDir);
  checkSocketPath(socketPath, process.platform, agentDirSetting(options, env));
  if (options.spawnBroker === false) return { agentDir, socketPath, spawn: undefined };
  const command: BrokerCommand = options.brokerCommand ?? {
    ...brokerCommand({
      brokerRoot: brokerPackageRoot(),
      agentDir,
      ...(options.brokerIdleMs === undefined ? {} : { idleMs: options.brokerIdleMs }),
    }),
    env: options.store === undefined ? env : { ...env, [STORE_ENV]: options.store },
    // A daemon should not pin the directory it happened to be started from.
    cwd: parse(process.cwd()).root,
  };
  const logPath = options.brokerLogPath === false ? undefined : (options.brokerLogPath ?? brokerLogPath(agentDir));
  return {
    agentDir,
    socketPath,
    spawn: {
      command,
      ...(logPath === undefined ? {} : { logPath }),
      ...(options.spawn === undefined ? {} : { spawn: options.spawn }),
      prepare: () => ensureBrokerDir(agentDir),
    },
  };
}

/**
 * A lazy client of the broker of an agent directory: nothing is looked up on disk, connected or spawned until the
 * first call, which starts a broker (detached) when none answers. Before it spawns one it makes the broker folder
 * (`ensureBrokerDir`), so an agent directory that cannot hold it fails at once with AgentDirReadOnlyError,
 * AgentDirPermissionError or AgentDirNotDirectoryError naming the directory and the fix. Options are checked at once.
 */
export function createRoundtableClient(options: CreateRoundtableClientOptions = {}): RoundtableClient {
  const {
    agentDir: _a,
    agentDirSetting: _d,
    env: _e,
    spawnBroker: _s,
    brokerIdleMs: _i,
    brokerCommand: _c,
    brokerLogPath: _l,
    store: _store,
    ...rest
  } = options;
  const { startTimeoutMs, onSpawn, spawn: _spawn, connector: given, ...clientOptions } = rest;
  checkIdleMs(options.brokerIdleMs);
  let location: BrokerLocation | undefined;
  const connector: Connector =
    given ??
    ((connect) => {
      location ??= locateBroker(options);
      return openBrokerSocket({
        socketPath: location.socketPath,
        spawn: connect?.spawn === false ? false : (location.spawn ?? false),
        ...(startTimeoutMs === undefined ? {} : { startTimeoutMs }),
        ...(onSpawn === undefined ? {} : { onSpawn }),
      });
    });
  const env = options.env ?? process.env;
  const role = clientOptions.role ?? roleFromEnv(env);
  // Resolved once, without reading a password file: only the description is compared with the broker's.
  const expectedStore = clientOptions.expectedStore ?? describeStoreSetting(env, options.store);
  return new RoundtableClient({ ...clientOptions, ...(role === undefined ? {} : { role }), expectedStore, connector });
}
