// An agent directory the broker cannot use is a typed error naming the directory and what to do, never a raw errno.
// A read-only file system and a directory of another user are tried for real by the reliability suite (they need
// root to set up); here ENOTDIR is real and the mapping of each errno is pinned.
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  AgentDirError,
  AgentDirPermissionError,
  AgentDirReadOnlyError,
  agentDirError,
  ensureBrokerDir,
} from "@orphus/roundtable-locator";
import { tempDir } from "../../../test-support/tmp.js";

function errno(code: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: failed, mkdir '${path}'`), { code, path, syscall: "mkdir" });
}

describe("an agent directory the broker cannot use", () => {
  test("a file further up the path is the one named", () => {
    const parent = tempDir();
    writeFileSync(join(parent, "blocker"), "");
    const agentDir = join(parent, "blocker", "deeper", "agent");
    expect(() => ensureBrokerDir(agentDir)).toThrow(
      expect.objectContaining({ code: "ERR_AGENT_DIR_NOT_A_DIRECTORY", path: join(parent, "blocker") }),
    );
  });

  test("missing parents are created one level at a time, each private", () => {
    const parent = tempDir();
    const agentDir = join(parent, "a", "b");
    ensureBrokerDir(agentDir);
    for (const dir of [join(parent, "a"), agentDir, join(agentDir, "roundtable")]) {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    }
  });

  test("EROFS, EACCES and EPERM map to typed errors naming the directory and the fix", () => {
    const agentDir = "/ro/agent";
    const advice =
      ": the broker keeps its socket, pid file and log there. FIX, or point ORPHUS_CODING_AGENT_DIR (or " +
      "--agent-dir) at a writable directory of your own (e.g. ~/.orphus/agent).";
    const cases = [
      [
        "EROFS",
        AgentDirReadOnlyError,
        "ERR_AGENT_DIR_READ_ONLY",
        "The agent directory /ro/agent is on a read-only file system (cannot write /ro/agent/roundtable)",
        "Make that file system writable",
      ],
      [
        "EACCES",
        AgentDirPermissionError,
        "ERR_AGENT_DIR_PERMISSION_DENIED",
        "Permission denied in the agent directory /ro/agent (cannot create or use /ro/agent/roundtable)",
        "Give yourself access (chmod u+rwx /ro/agent)",
      ],
      [
        "EPERM",
        AgentDirPermissionError,
        "ERR_AGENT_DIR_PERMISSION_DENIED",
        "Permission denied in the agent directory /ro/agent (cannot create or use /ro/agent/roundtable)",
        "Give yourself access (chmod u+rwx /ro/agent)",
      ],
    ] as const;
    for (const [errnoCode, type, code, problem, fix] of cases) {
      const error = agentDirError(agentDir, errno(errnoCode, "/ro/agent/roundtable"));
      expect(error).toBeInstanceOf(type);
      expect(error).toBeInstanceOf(AgentDirError);
      expect(error).toMatchObject({ code, agentDir, path: "/ro/agent/roundtable" });
      expect(error?.message).toBe(problem + advice.replace("FIX", fix));
    }
    // A listen error names no path: the broker folder is named instead.
    const listen = Object.assign(new Error("listen EACCES"), { code: "EACCES" });
    expect(agentDirError(agentDir, listen, "/ro/agent/roundtable")).toMatchObject({ path: "/ro/agent/roundtable" });
    expect(agentDirError(agentDir, errno("ENOSPC", "/ro/agent/roundtable"))).toBeUndefined();
    expect(agentDirError(agentDir, new Error("no code"))).toBeUndefined();
  });
});
