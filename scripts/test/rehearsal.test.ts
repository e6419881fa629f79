import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { workspacePackages, type WorkspacePackage } from "../lib/package-map.js";
import { callScripts, offersVersionFlag, planBinChecks, REQUIRED_CALLS } from "../lib/rehearsal.js";

const root = join(import.meta.dirname, "..", "..");
const scratch = mkdtempSync(join(tmpdir(), "rehearsal-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const pkg = (dir: string, bins: Record<string, string> = {}, isPrivate = false): WorkspacePackage => ({
  dir,
  name: `@orphus/${dir}`,
  version: "0.1.0",
  private: isPrivate,
  bins,
});

describe("bin checks follow the manifests", () => {
  test("every bin runs installed; a package with exactly one bin also runs by its package name", () => {
    const plan = planBinChecks([
      pkg("framing"),
      pkg("roundtable-mcp", { "orphus-roundtable-mcp": "./dist/bin/mcp.js" }),
      pkg("two-bins", { b: "./b.js", a: "./a.js" }),
      pkg("hidden", { hidden: "./h.js" }, true),
    ]);
    expect(plan).toEqual([
      { packageName: "@orphus/roundtable-mcp", bin: "orphus-roundtable-mcp", how: "installed" },
      { packageName: "@orphus/roundtable-mcp", bin: "orphus-roundtable-mcp", how: "npx-package" },
      { packageName: "@orphus/two-bins", bin: "a", how: "installed" },
      { packageName: "@orphus/two-bins", bin: "b", how: "installed" },
    ]);
  });

  test("today's packages: the broker, the CLI's roundtable, the MCP server and the memory CLI, each also by package name", () => {
    const plan = planBinChecks(workspacePackages(root)).map(
      (check) => `${check.how} ${check.packageName} ${check.bin}`,
    );
    expect(plan).toContain("npx-package @orphus/roundtable-mcp orphus-roundtable-mcp");
    expect(plan).toContain("installed @orphus/roundtable-cli roundtable");
    expect(plan).toContain("npx-package @orphus/roundtable-cli roundtable");
    expect(plan).toContain("installed @orphus/roundtable-broker orphus-roundtable-broker");
    expect(plan).toContain("installed @orphus/memory orphus-memory");
    expect(plan.filter((line) => line.includes("@orphus/roundtable-client"))).toEqual([]);
  });

  test("every bin's help offers --version, which the rehearsal then checks against the published version", async () => {
    const { CLI_USAGE } = await import("../../packages/roundtable-cli/src/index.js");
    const { MCP_USAGE } = await import("../../packages/roundtable-mcp/src/index.js");
    const { MEMORY_CLI_USAGE } = await import("../../packages/memory/src/index.js");
    for (const usage of [CLI_USAGE, MCP_USAGE, MEMORY_CLI_USAGE]) expect(offersVersionFlag(usage)).toBe(true);
  });

  test("--version is read from a help text", () => {
    expect(
      offersVersionFlag("usage: orphus-roundtable-mcp [options]\n  --version        print the version and exit\n"),
    ).toBe(true);
    expect(offersVersionFlag("usage: x [--help | --version]")).toBe(true);
    expect(offersVersionFlag("usage: roundtable <command>\n  --help  this text\n  --versions-dir <d>")).toBe(false);
  });
});

describe("import-and-call scripts", () => {
  test("every leaf, the client and the CLI have one in the repository", () => {
    expect([...REQUIRED_CALLS].sort()).toEqual([
      "agent-env",
      "digest",
      "framing",
      "rooms",
      "roundtable-cli",
      "roundtable-client",
    ]);
    const scripts = callScripts(workspacePackages(root), join(root, "scripts", "release-rehearsal", "calls"));
    for (const dir of REQUIRED_CALLS) expect(scripts.has(dir)).toBe(true);
  });

  test("a leaf without one stops the rehearsal before anything is published", () => {
    writeFileSync(join(scratch, "rooms.mjs"), "");
    expect(() => callScripts([pkg("rooms"), pkg("framing")], scratch)).toThrow(
      /@orphus\/framing needs an import-and-call script at .*framing\.mjs/,
    );
    expect([...callScripts([pkg("rooms"), pkg("bounds")], scratch).keys()]).toEqual(["rooms"]);
  });
});
