import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";

const packagesDir = join(import.meta.dirname, "..", "..", "packages");

/**
 * Names exported by more than one package, left to rename once the packages involved settle (renaming them touches
 * every package that imports them). Each may only leave this list: a name that no longer clashes fails the test
 * below until it is taken out, and a new clash fails it at once.
 */
const KNOWN_CLASHES: Readonly<Record<string, string>> = {
  // Different values: 1,000,000 for the library, 100,000 on the wire.
  MAX_DIGEST_BUDGET: "digest, roundtable-protocol",
};

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
