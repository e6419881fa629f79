import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { packageDir, testTarget } from "../../../test-support/target.js";
import {
  SocketPathTooLongError,
  brokerBinPath,
  brokerCommand,
  brokerDir,
  brokerLogPath,
  brokerPidPath,
  brokerSocketPath,
  brokerSourceBinPath,
  checkSocketPath,
  runningFromSource,
  socketPathLimit,
} from "@orphus/roundtable-locator";

describe("where the broker lives", () => {
  test("a Unix socket under the agent directory, with the pid file and log beside it", () => {
    for (const platform of ["linux", "darwin", "freebsd"] as const) {
      expect(brokerSocketPath("/home/me/.orphus/agent", platform)).toBe(
        "/home/me/.orphus/agent/roundtable/broker.sock",
      );
      expect(brokerDir("/home/me/.orphus/agent", platform)).toBe("/home/me/.orphus/agent/roundtable");
      expect(brokerPidPath("/a", platform)).toBe("/a/roundtable/broker.pid");
      expect(brokerLogPath("/a", platform)).toBe("/a/roundtable/broker.log");
    }
  });

  test("on Windows, a named pipe derived from the case-folded agent directory", () => {
    const pipe = brokerSocketPath("C:\\Users\\me\\.orphus\\agent", "win32");
    expect(pipe).toBe("\\\\.\\pipe\\orphus-roundtable-13993233f3582dbb");
    // The hash is the first 16 hex digits of SHA-256 over the resolved, lower-cased directory.
    const expected = createHash("sha256").update("c:\\users\\me\\.orphus\\agent").digest("hex").slice(0, 16);
    expect(pipe.endsWith(expected)).toBe(true);
    expect(brokerSocketPath("c:/USERS/me/.orphus/agent/", "win32")).toBe(pipe);
    expect(brokerSocketPath("C:\\Users\\other\\.orphus\\agent", "win32")).not.toBe(pipe);
    expect(brokerLogPath("C:\\a", "win32")).toBe("C:\\a\\roundtable\\broker.log");
  });

  test("socket path limits: 108 bytes on Linux, 104 on macOS and the BSDs, none for Windows pipes", () => {
    expect(socketPathLimit("linux")).toBe(108);
    expect(socketPathLimit("darwin")).toBe(104);
    expect(socketPathLimit("freebsd")).toBe(104);
    expect(socketPathLimit("win32")).toBeUndefined();
  });

  test("a path that does not fit sun_path is a clear error naming the limit, never a cryptic bind failure", () => {
    const fits = `/${"a".repeat(106)}`;
    expect(() => checkSocketPath(fits, "linux")).not.toThrow();
    const tooLong = `/${"a".repeat(107)}`;
    expect(() => checkSocketPath(tooLong, "linux")).toThrow(SocketPathTooLongError);
    try {
      checkSocketPath(tooLong, "linux");
    } catch (error) {
      expect(error).toMatchObject({ code: "ERR_SOCKET_PATH_TOO_LONG", bytes: 108, limit: 108, platform: "linux" });
      expect((error as Error).message).toBe(
        `Broker socket path is 108 bytes; linux allows at most 107 (108 with the terminating NUL): ${tooLong}. ` +
          "Set ORPHUS_CODING_AGENT_DIR to a shorter directory.",
      );
    }
    expect(() => checkSocketPath(`/${"a".repeat(102)}`, "darwin")).not.toThrow();
    expect(() => checkSocketPath(`/${"a".repeat(103)}`, "darwin")).toThrow(/darwin allows at most 103/);
    // Multi-byte characters count in bytes.
    expect(() => checkSocketPath(`/${"é".repeat(54)}`, "linux")).toThrow(SocketPathTooLongError);
    expect(() => checkSocketPath(`\\\\.\\pipe\\${"x".repeat(300)}`, "win32")).not.toThrow();
  });

  test("the advice names what the user set the directory with: the flag, the variable, or nothing", () => {
    const tooLong = `/${"a".repeat(107)}`;
    const advice = (setting?: string): string => {
      try {
        checkSocketPath(tooLong, "linux", setting);
      } catch (error) {
        return (error as Error).message.replace(/^.*: \/a+\. /, "");
      }
      throw new Error("expected a refusal");
    };
    expect(advice()).toBe("Set ORPHUS_CODING_AGENT_DIR to a shorter directory.");
    expect(advice("--agent-dir")).toBe("Pass a shorter --agent-dir.");
    expect(advice("default")).toBe(
      "The default agent directory is too deep here: set ORPHUS_CODING_AGENT_DIR (or pass --agent-dir) to a shorter one.",
    );
  });
});

describe("the bin's location", () => {
  // The bin is a file of the broker package, whose folder the caller names. A source run loads the packages from
  // packages/*/src, the broker's folder being packages/roundtable-broker; an installed run (pnpm test:installed) loads
  // the packages npm installed from their tarballs, which ship dist only.
  const installed = testTarget() === "installed";
  const brokerRoot = packageDir("roundtable-broker");

  test("the built bin and its source, beside each other in the broker package", () => {
    expect([brokerBinPath("/pkg"), brokerSourceBinPath("/pkg")]).toEqual([
      "/pkg/dist/bin/broker.js",
      "/pkg/src/bin/broker.ts",
    ]);
    if (installed) {
      expect(brokerBinPath(brokerRoot).replaceAll("\\", "/")).toMatch(
        /\/node_modules\/@orphus\/roundtable-broker\/dist\/bin\/broker\.js$/,
      );
      expect(existsSync(brokerBinPath(brokerRoot))).toBe(true);
      expect(existsSync(brokerSourceBinPath(brokerRoot))).toBe(false);
      expect(runningFromSource()).toBe(false);
      return;
    }
    expect(brokerBinPath(brokerRoot).replaceAll("\\", "/")).toMatch(
      /\/packages\/roundtable-broker\/dist\/bin\/broker\.js$/,
    );
    expect(brokerSourceBinPath(brokerRoot).replaceAll("\\", "/")).toMatch(
      /\/packages\/roundtable-broker\/src\/bin\/broker\.ts$/,
    );
    expect(existsSync(brokerSourceBinPath(brokerRoot))).toBe(true);
    expect(runningFromSource()).toBe(true);
  });

  test("brokerCommand runs the built bin with node, or the source through tsx", () => {
    expect(brokerCommand({ brokerRoot, from: "dist", agentDir: "/a", idleMs: 250 })).toEqual({
      command: process.execPath,
      args: [brokerBinPath(brokerRoot), "--agent-dir", "/a", "--idle-ms", "250"],
    });
    expect(() => brokerCommand({ brokerRoot, from: "elsewhere" as "dist" })).toThrow(/Invalid broker option from/);
    expect(() => brokerCommand({ brokerRoot: "" })).toThrow(
      'Invalid broker option brokerRoot: expected the folder of @orphus/roundtable-broker (where its package.json is), got ""',
    );
    if (installed) {
      // As installed, the default is the built bin, and there is no source to run.
      expect(brokerCommand({ brokerRoot, agentDir: "/a" })).toEqual({
        command: process.execPath,
        args: [brokerBinPath(brokerRoot), "--agent-dir", "/a"],
      });
      expect(() => brokerCommand({ brokerRoot, from: "source" })).toThrow(/published packages ship dist only/);
      return;
    }
    const source = brokerCommand({ brokerRoot, agentDir: "/a" });
    expect(source.command).toBe(process.execPath);
    expect(source.args.slice(0, 2)).toEqual(["--conditions=@orphus/source", "--import"]);
    expect(source.args[2]).toMatch(/^file:\/\/.*\/tsx\/dist\/loader\.mjs$/);
    expect(source.args.slice(3)).toEqual([brokerSourceBinPath(brokerRoot), "--agent-dir", "/a"]);
  });
});
