import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";

const packagesDir = join(import.meta.dirname, "..", "..", "packages");

/**
 * Names exported by more than one package with different values. None is left (the last, MAX_DIGEST_BUDGET, was
 * 1,000,000 in the digest library and 100,000 on the wire, which is now MAX_REQUEST_DIGEST_BUDGET); a new clash fails
 * the test below at once.
 */
const KNOWN_CLASHES: Readonly<Record<string, string>> = {};

test("one name per constant: no two packages export the same name (DEFAULT_MAX_FRAME_BYTES was 16 MiB in one, 1 MiB in the other)", async () => {
  // A package may re-export another's value (the client re-exports the broker's errors a caller must catch): one
  // value under one name is no clash. Two different values under one name are.
  const owners = new Map<string, { dirs: string[]; values: Set<unknown> }>();
  for (const dir of readdirSync(packagesDir).sort()) {
    const api = (await import(join(packagesDir, dir, "src", "index.ts"))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(api)) {
      const owner = owners.get(name) ?? { dirs: [], values: new Set<unknown>() };
      owner.dirs.push(dir);
      owner.values.add(value);
      owners.set(name, owner);
    }
  }
  const clashes = Object.fromEntries(
    [...owners].filter(([, owner]) => owner.values.size > 1).map(([name, owner]) => [name, owner.dirs.join(", ")]),
  );
  expect(clashes).toEqual(KNOWN_CLASHES);
}, 60_000);
