// Properties of the locator's algorithms against naive references: the socket path limit in bytes, where the files of
// an agent directory are, the Windows pipe name, and the registry's entries read back as they were written (and
// anything else in the directory named invalid, never thrown).
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  brokerLogPath,
  brokerPidPath,
  brokerSocketPath,
  checkSocketPath,
  readBrokerRegistry,
  registerBroker,
  type RegistryEntry,
} from "@orphus/roundtable-locator";
import { tempDir } from "../../../test-support/tmp.js";

/** The naive rule: a path fits when its UTF-8 bytes leave room for the NUL of `sun_path`. */
const LIMITS: Record<string, number | undefined> = {
  linux: 108,
  android: 108,
  darwin: 104,
  freebsd: 104,
  openbsd: 104,
  win32: undefined,
};

const segment = fc.stringMatching(/^[a-zA-Z0-9._é😀-]{1,24}$/).filter((name) => name !== "." && name !== "..");

describe("socket paths", () => {
  test("property: checkSocketPath refuses exactly the paths whose UTF-8 bytes do not fit", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(LIMITS)),
        fc.string({ unit: "binary", maxLength: 140 }),
        (platform, tail) => {
          const socketPath = `/${tail}`;
          const limit = LIMITS[platform];
          const fits = limit === undefined || new TextEncoder().encode(socketPath).length < limit;
          let refused: unknown;
          try {
            checkSocketPath(socketPath, platform as NodeJS.Platform);
          } catch (error) {
            refused = error;
          }
          if (fits) expect(refused).toBeUndefined();
          else expect(refused).toMatchObject({ code: "ERR_SOCKET_PATH_TOO_LONG", limit, platform });
        },
      ),
    );
  });

  test("property: on Unix the socket, pid file and log are the agent directory's roundtable/ files", () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 6 }),
        fc.constantFrom("linux", "darwin", "freebsd"),
        (parts, platform) => {
          const agentDir = `/${parts.join("/")}`;
          const p = platform as NodeJS.Platform;
          expect([brokerSocketPath(agentDir, p), brokerPidPath(agentDir, p), brokerLogPath(agentDir, p)]).toEqual([
            `${agentDir}/roundtable/broker.sock`,
            `${agentDir}/roundtable/broker.pid`,
            `${agentDir}/roundtable/broker.log`,
          ]);
        },
      ),
    );
  });

  test("property: a Windows pipe names the directory whatever its case and trailing separators", () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc.stringMatching(/^[\\/]{0,3}$/),
        (parts, trailing) => {
          const agentDir = `C:\\${parts.join("\\")}`;
          const hash = createHash("sha256").update(agentDir.toLowerCase(), "utf8").digest("hex").slice(0, 16);
          expect(brokerSocketPath(agentDir, "win32")).toBe(`\\\\.\\pipe\\orphus-roundtable-${hash}`);
          expect(brokerSocketPath(`${agentDir.toUpperCase()}${trailing}`, "win32")).toBe(
            brokerSocketPath(agentDir, "win32"),
          );
        },
      ),
    );
  });
});

const entryArbitrary: fc.Arbitrary<RegistryEntry> = fc.record(
  {
    pid: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    instance: fc.stringMatching(/^[0-9a-f]{1,64}$/),
    agentDir: fc.string({ minLength: 1, maxLength: 200 }),
    socketPath: fc.string({ minLength: 1, maxLength: 200 }),
    brokerVersion: fc.string({ maxLength: 64 }),
    protocol: fc.string({ maxLength: 64 }),
    protocolVersion: fc.nat(),
    startedAt: fc.nat(),
    store: fc.string({ maxLength: 1024 }),
  },
  {
    requiredKeys: [
      "pid",
      "instance",
      "agentDir",
      "socketPath",
      "brokerVersion",
      "protocol",
      "protocolVersion",
      "startedAt",
    ],
  },
);

describe("the registry", () => {
  test("property: every entry written is read back as it was, oldest start first, and other files are named invalid", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(entryArbitrary, { maxLength: 8, selector: (entry) => entry.pid }),
        fc.array(fc.oneof(fc.string({ maxLength: 50 }), fc.json()), { maxLength: 3 }),
        (entries, junk) => {
          const dir = join(tempDir(), "registry");
          for (const entry of entries) registerBroker(dir, entry);
          mkdirSync(dir, { recursive: true });
          // Files with the entries' suffix that hold no entry: text, JSON of the wrong shape, an entry's fields wrong.
          const invalid = junk.map((text, i) => {
            const file = join(dir, `junk-${i}.json`);
            writeFileSync(file, text);
            return file;
          });
          const listing = readBrokerRegistry(dir);
          const expected = entries
            .map((entry) => ({ ...entry, file: join(dir, `${entry.pid}-${entry.instance}.json`) }))
            .sort((a, b) => a.startedAt - b.startedAt || a.pid - b.pid);
          expect(listing.entries).toEqual(expected);
          expect([...listing.invalid].sort()).toEqual(invalid.sort());
          expect(listing.truncated).toBe(false);
        },
      ),
      { numRuns: 40 },
    );
  });
});
