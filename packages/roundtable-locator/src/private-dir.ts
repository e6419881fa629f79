import { ensurePrivateDir } from "@orphus/agent-env";
import { agentDirError } from "./agent-dir.js";
import { BrokerDirectoryError, type BrokerError } from "./errors.js";
import { brokerDir } from "./paths.js";

// ensurePrivateDir is shared with the memory store: one rule for every private directory of an agent.

/**
 * Creates the broker folder of `agentDir` (`<agentDir>/roundtable`) private to the user, as a broker needs it for
 * its socket, pid file and log, and as a client does before it starts one. Throws AgentDirReadOnlyError,
 * AgentDirPermissionError or AgentDirNotDirectoryError when the agent directory's file system says no, naming the
 * directory and what to do; BrokerDirectoryError when the folder is not a directory or belongs to another user.
 */
export function ensureBrokerDir(agentDir: string, platform: NodeJS.Platform = process.platform): void {
  const dir = brokerDir(agentDir, platform);
  ensurePrivateDir(
    dir,
    (problem, cause): BrokerError =>
      agentDirError(agentDir, cause) ?? new BrokerDirectoryError(dir, problem, { cause }),
  );
}
