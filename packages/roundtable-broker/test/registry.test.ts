import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  BrokerRegistryError,
  MAX_REGISTRY_ENTRIES,
  readBrokerRegistry,
  registerBroker,
  registryEntryPath,
  removeRegistryEntry,
  resolveRegistryDir,
  type BrokerLogger,
  type RegistryEntry,
} from "@orphus/roundtable-broker";
import { startTestBroker } from "./helpers.js";
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
      "/home/u/.orphus/roundtable-brokers"
    );
    expect(resolveRegistryDir({}, "/home/u")).toBe("/home/u/.orphus/roundtable-brokers");
    expect(registryEntryPath("/r", { pid: 42, instance: "ab12" })).toBe("/r/42-ab12.json");
  });
});

describe("a running broker's entry", () => {
  test("is written (0600, in a 0700 directory) while the broker listens and removed when it closes", async () => {
    const registryDir = join(tempDir(), "registry");
    const agentDir = tempDir();
    const broker = await startTestBroker({ agentDir, registryDir });
    const file = broker.registryEntry as string;
    expect(readdirSync(registryDir)).toEqual([file.slice(registryDir.length + 1)]);
    expect(file).toMatch(new RegExp(`/${process.pid}-[0-9a-f]{16}\\.json$`));
    expect(statSync(registryDir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      pid: process.pid,
      instance: expect.stringMatching(/^[0-9a-f]{16}$/),
      agentDir,
      socketPath: join(agentDir, "roundtable", "broker.sock"),
      brokerVersion: expect.any(String),
      protocol: "orphus-roundtable",
      protocolVersion: 2,
      startedAt: expect.any(Number),
      store: "memory",
    });
    expect(readBrokerRegistry(registryDir).entries).toEqual([
      { ...JSON.parse(readFileSync(file, "utf8")), file },
    ]);
    await broker.close();
    expect(existsSync(file)).toBe(false);
    expect(readBrokerRegistry(registryDir).entries).toEqual([]);
  });

  test("brokers of two agent directories are both listed, oldest first", async () => {
    const registryDir = join(tempDir(), "registry");
    const first = await startTestBroker({ registryDir });
    const second = await startTestBroker({ registryDir, clock: () => first.startedAt + 1000 });
    const listing = readBrokerRegistry(registryDir);
    expect(listing.entries.map((e) => e.agentDir)).toEqual([first.agentDir, second.agentDir]);
    expect(listing).toMatchObject({ dir: registryDir, invalid: [], truncated: false });
  });

  test("registryDir false writes nothing", async () => {
    const broker = await startTestBroker({ registryDir: false });
    expect(broker.registryEntry).toBeUndefined();
  });

  test("a registry directory open to others is tightened to 0700", async () => {
    const registryDir = join(tempDir(), "registry");
    mkdirSync(registryDir);
    chmodSync(registryDir, 0o755);
    await startTestBroker({ registryDir });
    expect(statSync(registryDir).mode & 0o777).toBe(0o700);
  });

  test("a registry that cannot be written is logged and the broker runs unregistered", async () => {
    const registryDir = join(tempDir(), "registry");
    writeFileSync(registryDir, "not a directory");
    const lines: string[] = [];
    const logger: BrokerLogger = { info: () => {}, warn: (m, f) => lines.push(`${m} ${String(f?.["error"])}`), error: () => {} };
    const broker = await startTestBroker({ registryDir, logger });
    expect(broker.registryEntry).toBeUndefined();
    expect(lines).toEqual([
      `running unregistered: the broker registry cannot be written Cannot register the broker in ${registryDir}: it is not a directory`,
    ]);
    expect(() => registerBroker(registryDir, entry(7))).toThrow(BrokerRegistryError);
    expect(() => registerBroker(registryDir, entry(7))).toThrow(expect.objectContaining({ code: "ERR_BROKER_REGISTRY" }));
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

  test(`at most ${MAX_REGISTRY_ENTRIES} entries are read`, () => {
    const dir = join(tempDir(), "registry");
    for (let pid = 1; pid <= 257; pid++) registerBroker(dir, entry(pid));
    const listing = readBrokerRegistry(dir);
    expect(listing.entries).toHaveLength(256);
    expect(listing.truncated).toBe(true);
  });
});
