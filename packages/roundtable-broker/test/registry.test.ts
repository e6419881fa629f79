// The registry as a running broker keeps it: its entry written while it listens, removed when it closes. Reading and
// writing entries is @orphus/roundtable-locator's (its test/registry.test.ts).
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { BrokerLogger } from "@orphus/roundtable-broker";
import { readBrokerRegistry } from "@orphus/roundtable-locator";
import { startTestBroker } from "./helpers.js";
import { tempDir } from "../../../test-support/tmp.js";

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
      protocolVersion: 3,
      startedAt: expect.any(Number),
      store: "memory",
    });
    expect(readBrokerRegistry(registryDir).entries).toEqual([{ ...JSON.parse(readFileSync(file, "utf8")), file }]);
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
    const logger: BrokerLogger = {
      info: () => {},
      warn: (m, f) => lines.push(`${m} ${String(f?.["error"])}`),
      error: () => {},
    };
    const broker = await startTestBroker({ registryDir, logger });
    expect(broker.registryEntry).toBeUndefined();
    expect(lines).toEqual([
      `running unregistered: the broker registry cannot be written Cannot register the broker in ${registryDir}: it is not a directory`,
    ]);
  });
});
