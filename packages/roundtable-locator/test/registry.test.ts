import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  BrokerRegistryError,
  readBrokerRegistry,
  registerBroker,
  registryEntryPath,
  removeRegistryEntry,
  resolveRegistryDir,
  type RegistryEntry,
} from "@orphus/roundtable-locator";
import { tempDir } from "../../../test-support/tmp.js";

function entry(pid: number, overrides: Partial<RegistryEntry> = {}): RegistryEntry {
  return {
    pid,
    instance: "0a1b2c3d4e5f6a7b",
    agentDir: `/home/u/agent-${pid}`,
    socketPath: `/home/u/agent-${pid}/roundtable/broker.sock`,
    brokerVersion: "1.2.3",
    protocol: "orphus-roundtable",
    protocolVersion: 1,
    startedAt: 1_700_000_000_000 + pid,
    ...overrides,
  };
}

describe("where the registry lives", () => {
  test("ORPHUS_ROUNDTABLE_REGISTRY_DIR when set, else ~/.orphus/roundtable-brokers", () => {
    expect(resolveRegistryDir({ ORPHUS_ROUNDTABLE_REGISTRY_DIR: "/tmp/reg" }, "/home/u")).toBe("/tmp/reg");
    expect(resolveRegistryDir({ ORPHUS_ROUNDTABLE_REGISTRY_DIR: "  " }, "/home/u")).toBe(
      "/home/u/.orphus/roundtable-brokers",
    );
    expect(resolveRegistryDir({}, "/home/u")).toBe("/home/u/.orphus/roundtable-brokers");
    expect(registryEntryPath("/r", { pid: 42, instance: "ab12" })).toBe("/r/42-ab12.json");
  });
});

describe("writing an entry", () => {
  test("a registry that cannot be written is a BrokerRegistryError", () => {
    const registryDir = join(tempDir(), "registry");
    writeFileSync(registryDir, "not a directory");
    expect(() => registerBroker(registryDir, entry(7))).toThrow(BrokerRegistryError);
    expect(() => registerBroker(registryDir, entry(7))).toThrow(
      expect.objectContaining({ code: "ERR_BROKER_REGISTRY" }),
    );
  });
});

describe("reading the registry", () => {
  test("a missing directory is an empty registry", () => {
    const dir = join(tempDir(), "none");
    expect(readBrokerRegistry(dir)).toEqual({
      dir,
      entries: [],
      invalid: [],
      truncated: false,
    });
  });

  test("files that are not entries are reported as invalid, other names ignored", () => {
    const dir = join(tempDir(), "registry");
    registerBroker(dir, entry(11));
    writeFileSync(join(dir, "12-aa.json"), "{ not json");
    writeFileSync(join(dir, "13-bb.json"), JSON.stringify({ ...entry(13), pid: "13" }));
    writeFileSync(join(dir, "14-cc.json"), JSON.stringify({ ...entry(14), agentDir: "x".repeat(5000) }));
    writeFileSync(join(dir, "notes.txt"), "ignored");
    const listing = readBrokerRegistry(dir);
    expect(listing.entries).toEqual([{ ...entry(11), file: join(dir, "11-0a1b2c3d4e5f6a7b.json") }]);
    expect(listing.invalid).toEqual([join(dir, "12-aa.json"), join(dir, "13-bb.json"), join(dir, "14-cc.json")]);
    expect(removeRegistryEntry(join(dir, "12-aa.json"))).toBe(true);
    expect(removeRegistryEntry(join(dir, "12-aa.json"))).toBe(false);
  });

  test("at most 256 entries are read", () => {
    const dir = join(tempDir(), "registry");
    for (let pid = 1; pid <= 257; pid++) registerBroker(dir, entry(pid));
    const listing = readBrokerRegistry(dir);
    expect(listing.entries).toHaveLength(256);
    expect(listing.truncated).toBe(true);
  });
});
