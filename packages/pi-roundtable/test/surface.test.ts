import { readFileSync } from "node:fs";
import type { ExtensionFactory } from "@mariozechner/pi-coding-agent";
import { expect, test } from "vitest";
import { parse } from "yaml";
import * as api from "@orphus/pi-roundtable";

test("the public surface is exactly this, and the default export is the extension pi loads", () => {
  expect(Object.keys(api).sort()).toEqual([
    "CLAIM_CHANNEL",
    "COMMAND_USAGE",
    "DOCTOR_PI_ROLE_HINT",
    "MAX_COMMAND_TEXT_CHARS",
    "MEMORY_TOOL",
    "MemorySeat",
    "MemorySeatClosedError",
    "PING_RECHECK_MS",
    "PiRoundtableError",
    "ROLE_FLAG",
    "ROLE_SOURCE_LABELS",
    "ROUNDTABLE_COMMAND",
    "ROUNDTABLE_MESSAGE_TYPE",
    "RoundtableSeat",
    "SessionOutlet",
    "ToolArgumentsRefusedError",
    "checkedBy",
    "createRoundtableExtension",
    "default",
    "ephemeralRoleWarning",
    "findMemory",
    "loadMemoryPackage",
    "memoryTool",
    "memoryUnavailableText",
    "mergeActivityNotices",
    "registerSharedTools",
    "resolveSessionRole",
    "roundtableExtension",
    "roundtableTool",
    "sharedClientCount",
    "statusText",
  ]);
  expect(api.default).toBe(api.roundtableExtension);
  // The package declares pi's API by shape; pi's own ExtensionAPI must fit it, which this assignment type-checks.
  const factory: ExtensionFactory = api.default;
  expect(typeof factory).toBe("function");
});

test("names and limits users and other copies of the extension rely on", () => {
  expect(api.ROUNDTABLE_MESSAGE_TYPE).toBe("roundtable");
  expect(api.ROUNDTABLE_COMMAND).toBe("roundtable");
  expect(api.ROLE_FLAG).toBe("roundtable-role");
  expect(api.MEMORY_TOOL).toBe("memory");
  expect(api.CLAIM_CHANNEL).toBe("orphus:pi-roundtable:claim");
  expect(api.PING_RECHECK_MS).toBe(250);
  expect(api.MAX_COMMAND_TEXT_CHARS).toBe(8000);
  expect(api.ROLE_SOURCE_LABELS).toEqual({
    flag: "--roundtable-role",
    "session-name": "the session name",
    env: "ORPHUS_ROUNDTABLE_ROLE",
    fallback: "no role configured",
  });
});

test("the manifest is a pi package: the keyword, the extension entry, pi as a peer with pi's own range", () => {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as Record<
    string,
    unknown
  >;
  expect(manifest["keywords"]).toContain("pi-package");
  expect(manifest["pi"]).toEqual({ extensions: ["./dist/index.js"] });
  expect(manifest["peerDependencies"]).toEqual({
    "@mariozechner/pi-coding-agent": "catalog:pi-host",
    "@orphus/memory": "workspace:>=0.0.0 <1.0.0",
  });
  // pi's own range, "*", stated in the workspace's pi-host catalog, which pnpm pack writes into the tarball.
  const workspace = parse(readFileSync(new URL("../../../pnpm-workspace.yaml", import.meta.url), "utf8")) as {
    catalogs: Record<string, unknown>;
  };
  expect(workspace.catalogs["pi-host"]).toEqual({ "@mariozechner/pi-coding-agent": "*" });
  // Optional: nothing imports pi (its API is declared by shape), so npm, which pi installs packages with, must not
  // put a second pi beside the one that loads the extension. @orphus/memory is optional too: it carries a native
  // addon, and a pi user who wants only the roundtable does not build it (the memory tool then says how to install it).
  expect(manifest["peerDependenciesMeta"]).toEqual({
    "@mariozechner/pi-coding-agent": { optional: true },
    "@orphus/memory": { optional: true },
  });
  expect(manifest["dependencies"]).toEqual({
    "@orphus/digest": "workspace:^",
    // The doctor behind `/roundtable doctor` lives with the CLI.
    "@orphus/roundtable-cli": "workspace:^",
    "@orphus/roundtable-client": "workspace:^",
  });
});

test("the tool pi registers is the shared one: its name, description and JSON Schema, unchanged", async () => {
  const client = await import("@orphus/roundtable-client");
  const seat = new api.RoundtableSeat(
    { getFlag: () => undefined, getSessionName: () => "planner" },
    {},
    {
      onActivity: () => undefined,
      onWarning: () => undefined,
    },
  );
  const tool = api.roundtableTool(seat);
  expect(tool.name).toBe("roundtable");
  expect(tool.description).toBe(client.ROUNDTABLE_TOOL_DESCRIPTION);
  expect(tool.parameters).toEqual(client.roundtableToolJsonSchema());
  seat.close();
});

test("the memory tool pi registers is the shared one of @orphus/memory, unchanged", async () => {
  const memory = await import("@orphus/memory");
  const availability = await api.findMemory(api.loadMemoryPackage);
  expect(availability.available).toBe(true);
  const seat = availability.available
    ? new api.MemorySeat(availability.memory, { env: {}, role: () => ({ role: "critic", source: "test" }) })
    : undefined;
  const tool = api.memoryTool(availability, seat);
  expect(tool.name).toBe(memory.MEMORY_TOOL_NAME);
  expect(api.MEMORY_TOOL).toBe(memory.MEMORY_TOOL_NAME);
  expect(tool.description).toBe(memory.MEMORY_TOOL_DESCRIPTION);
  expect(tool.parameters).toEqual(memory.memoryToolJsonSchema());
  expect(seat?.opened).toBe(false);
  seat?.close();
});
