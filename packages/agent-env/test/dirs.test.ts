import { mkdtempSync, rmSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AGENT_DIR_ENV,
  MEMORY_DIR_ENV,
  ROLE_ENV,
  ensurePrivateDir,
  resolveAgentDir,
  resolveMemoryDir,
  roleFromEnv,
} from "@orphus/agent-env";

describe("resolveAgentDir", () => {
  it("takes the variable, else ~/.orphus/agent", () => {
    expect(resolveAgentDir({ ORPHUS_CODING_AGENT_DIR: "/srv/agents" }, "/home/me", "linux")).toBe("/srv/agents");
    expect(resolveAgentDir({}, "/home/me", "linux")).toBe("/home/me/.orphus/agent");
    expect(resolveAgentDir({ ORPHUS_CODING_AGENT_DIR: "  " }, "/home/me", "linux")).toBe("/home/me/.orphus/agent");
    expect(resolveAgentDir({}, "/Users/me", "darwin")).toBe("/Users/me/.orphus/agent");
    expect(resolveAgentDir({}, "C:\\Users\\me", "win32")).toBe("C:\\Users\\me\\.orphus\\agent");
  });

  it("expands ~ and resolves relative paths from the working directory", () => {
    expect(resolveAgentDir({ ORPHUS_CODING_AGENT_DIR: "~/agents" }, "/home/me", "linux")).toBe("/home/me/agents");
    expect(resolveAgentDir({ ORPHUS_CODING_AGENT_DIR: "~" }, "/home/me", "linux")).toBe("/home/me");
    expect(resolveAgentDir({ ORPHUS_CODING_AGENT_DIR: "rel/a" }, "/home/me", "linux", "/work")).toBe("/work/rel/a");
    expect(resolveAgentDir({ ORPHUS_CODING_AGENT_DIR: "~\\agents" }, "C:\\Users\\me", "win32")).toBe(
      "C:\\Users\\me\\agents",
    );
    expect(resolveAgentDir({ ORPHUS_CODING_AGENT_DIR: "rel\\a" }, "C:\\Users\\me", "win32", "D:\\work")).toBe(
      "D:\\work\\rel\\a",
    );
  });
});

describe("resolveMemoryDir", () => {
  it("takes ORPHUS_MEMORY_DIR, else the agent directory's memory folder, and says which", () => {
    expect(resolveMemoryDir({ ORPHUS_MEMORY_DIR: "~/notes" }, "/home/me", "linux")).toEqual({
      dir: "/home/me/notes",
      source: "ORPHUS_MEMORY_DIR",
    });
    expect(resolveMemoryDir({ ORPHUS_CODING_AGENT_DIR: "/srv/a" }, "/home/me", "linux")).toEqual({
      dir: "/srv/a/memory",
      source: "ORPHUS_CODING_AGENT_DIR",
    });
    expect(resolveMemoryDir({}, "/home/me", "linux")).toEqual({
      dir: "/home/me/.orphus/agent/memory",
      source: "default",
    });
    expect(resolveMemoryDir({ ORPHUS_MEMORY_DIR: "m" }, "/home/me", "linux", "/w")).toEqual({
      dir: "/w/m",
      source: "ORPHUS_MEMORY_DIR",
    });
  });

  it("without ORPHUS_MEMORY_DIR is always <resolveAgentDir>/memory, absolute (property)", () => {
    const value = fc.oneof(
      fc.constant(undefined),
      fc.constantFrom("", " ", "~", "~/x", "/abs/d", "rel/d"),
      fc.string(),
    );
    fc.assert(
      fc.property(value, (agentDir) => {
        const env = { [AGENT_DIR_ENV]: agentDir };
        const memory = resolveMemoryDir(env, "/home/me", "linux", "/cwd");
        expect(memory.dir).toBe(path.posix.join(resolveAgentDir(env, "/home/me", "linux", "/cwd"), "memory"));
        expect(path.posix.isAbsolute(memory.dir)).toBe(true);
      }),
    );
  });

  it("names its variables literally", () => {
    expect([AGENT_DIR_ENV, MEMORY_DIR_ENV, ROLE_ENV]).toEqual([
      "ORPHUS_CODING_AGENT_DIR",
      "ORPHUS_MEMORY_DIR",
      "ORPHUS_ROUNDTABLE_ROLE",
    ]);
  });
});

describe("roleFromEnv", () => {
  it("trims, and treats blank as unset", () => {
    expect(roleFromEnv({ ORPHUS_ROUNDTABLE_ROLE: " librarian " })).toBe("librarian");
    expect(roleFromEnv({ ORPHUS_ROUNDTABLE_ROLE: "  " })).toBeUndefined();
    expect(roleFromEnv({})).toBeUndefined();
  });
});

describe("ensurePrivateDir", () => {
  it("creates 0700, tightens an open one, refuses a file", () => {
    const root = mkdtempSync(path.join(tmpdir(), "agent-env-"));
    try {
      const dir = path.join(root, "a", "b");
      ensurePrivateDir(dir, (problem) => new Error(problem));
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      chmodSync(dir, 0o755);
      ensurePrivateDir(dir, (problem) => new Error(problem));
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      const file = path.join(root, "file");
      writeFileSync(file, "x");
      expect(() => ensurePrivateDir(file, (problem) => new Error(`refused: ${problem}`))).toThrow(
        "refused: it is not a directory",
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
