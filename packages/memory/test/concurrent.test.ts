// Two librarians ingesting at once and a reader querying all the while, as three real processes on one store.
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { expect, it } from "vitest";
import { openMemory } from "../src/index.js";
import { runSource } from "./support/process.js";
import { tempDir } from "./support/temp.js";

it("two processes ingesting at once lose nothing, and a third querying never sees part of a file", { timeout: 120_000 }, async () => {
  const root = tempDir();
  const dir = path.join(root, "memory");
  const files = 30;
  // The store exists before the reader starts, so it queries from the first moment.
  const seed = openMemory({ dir, role: "librarian", env: {} });
  seed.ingestTexts([{ title: "seed", body: "seed" }]);
  seed.close();
  const tokens = ["ax", "bx"].flatMap((w) => Array.from({ length: files }, (_, i) => `${w}${i}`));
  const reader = runSource("test/support/concurrent-driver.ts", ["read", dir, ...tokens], {});
  const writers = await Promise.all(
    ["a", "b"].map((w) => runSource("test/support/concurrent-driver.ts", ["write", dir, path.join(root, w), String(files)], {})),
  );
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "stop"), "");
  const read = await reader;
  for (const writer of writers) {
    expect(writer.stderr).toBe("");
    expect(JSON.parse(writer.stdout)).toEqual({ entries: files * 5 });
  }
  expect(read.stderr).toBe("");
  const seen = JSON.parse(read.stdout) as { queries: number; partial: string[] };
  expect(seen.partial).toEqual([]);
  expect(seen.queries).toBeGreaterThan(0);
  const store = openMemory({ dir, env: {} });
  try {
    expect(store.stats().entries).toBe(1 + 2 * files * 5);
    for (const token of tokens) expect(store.query(token).total, token).toBe(5);
  } finally {
    store.close();
  }
});
