import { readFileSync } from "node:fs";
import type { ExtensionFactory } from "@mariozechner/pi-coding-agent";
import { expect, test } from "vitest";
import * as api from "@orphus/pi-roundtable";

test("the public surface is exactly this, and the default export is the extension pi loads", () => {
  expect(Object.keys(api).sort()).toEqual([
    "CLAIM_CHANNEL",
    "COMMAND_USAGE",
    "DOCTOR_PI_ROLE_HINT",
    "MAX_COMMAND_TEXT_CHARS",
    "MAX_PENDING_NOTES",
    "PING_RECHECK_MS",
    "ROLE_FLAG",
    "ROLE_SOURCE_LABELS",
    "ROUNDTABLE_COMMAND",
    "ROUNDTABLE_MESSAGE_TYPE",
    "RoundtableSeat",
    "SessionOutlet",
    "createRoundtableExtension",
    "default",
    "ephemeralRoleWarning",
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
  expect(api.CLAIM_CHANNEL).toBe("orphus:pi-roundtable:claim");
  expect(api.PING_RECHECK_MS).toBe(250);
  expect(api.MAX_PENDING_NOTES).toBe(4);
  expect(api.MAX_COMMAND_TEXT_CHARS).toBe(8000);
  expect(api.ROLE_SOURCE_LABELS).toEqual({
    flag: "--roundtable-role",
    "session-name": "the session name",
    env: "ORPHUS_ROUNDTABLE_ROLE",
    fallback: "no role configured",
  });
});

test("the manifest is a pi package: the keyword, the extension entry, pi as a peer with pi's own range", () => {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as Record<string, unknown>;
  expect(manifest["keywords"]).toContain("pi-package");
  expect(manifest["pi"]).toEqual({ extensions: ["./dist/index.js"] });
  expect(manifest["peerDependencies"]).toEqual({ "@mariozechner/pi-coding-agent": "*" });
  // Optional: nothing imports pi (its API is declared by shape), so npm, which pi installs packages with, must not
  // put a second pi beside the one that loads the extension.
  expect(manifest["peerDependenciesMeta"]).toEqual({ "@mariozechner/pi-coding-agent": { optional: true } });
  expect(manifest["dependencies"]).toEqual({
    "@orphus/digest": "workspace:^",
    // The doctor behind `/roundtable doctor` lives with the CLI.
    "@orphus/roundtable-cli": "workspace:^",
    "@orphus/roundtable-client": "workspace:^",
  });
});

test("the tool pi registers is the shared one: its name, description and JSON Schema, unchanged", async () => {
  const client = await import("@orphus/roundtable-client");
  const seat = new api.RoundtableSeat({ getFlag: () => undefined, getSessionName: () => "planner" }, {}, {
    onActivity: () => undefined,
    onWarning: () => undefined,
  });
  const tool = api.roundtableTool(seat);
  expect(tool.name).toBe("roundtable");
  expect(tool.description).toBe(client.ROUNDTABLE_TOOL_DESCRIPTION);
  expect(tool.parameters).toEqual(client.roundtableToolJsonSchema());
  seat.close();
});
