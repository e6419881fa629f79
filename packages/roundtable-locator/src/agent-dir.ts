import { lstatSync } from "node:fs";
import * as path from "node:path";
import {
  AgentDirNotDirectoryError,
  AgentDirPermissionError,
  AgentDirReadOnlyError,
  type BrokerError,
} from "./errors.js";

/** The first component of `target` (from the root down) that exists and is not a directory, if any. */
function firstNonDirectory(target: string): string | undefined {
  const parts = path.resolve(target).split(path.sep);
  for (let i = 2; i <= parts.length; i++) {
    const prefix = parts.slice(0, i).join(path.sep) || path.sep;
    try {
      if (!lstatSync(prefix).isDirectory()) return prefix;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The typed error for a file-system failure inside the agent directory, or undefined when `cause` is not one of
 * them: EROFS (read-only), EACCES or EPERM (permission), ENOTDIR (a file where a directory must be). The error names
 * the agent directory, the path that failed (the error's own, else `fallbackPath`; for ENOTDIR, the file in the
 * way) and what to do.
 */
export function agentDirError(agentDir: string, cause: unknown, fallbackPath = agentDir): BrokerError | undefined {
  const { code, path: failed } = (cause ?? {}) as NodeJS.ErrnoException;
  const where = typeof failed === "string" ? failed : fallbackPath;
  switch (code) {
    case "EROFS":
      return new AgentDirReadOnlyError(agentDir, where, { cause });
    case "EACCES":
    case "EPERM":
      return new AgentDirPermissionError(agentDir, where, { cause });
    case "ENOTDIR":
      return new AgentDirNotDirectoryError(agentDir, firstNonDirectory(where) ?? where, { cause });
    default:
      return undefined;
  }
}
