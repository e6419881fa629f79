import * as path from "node:path";
import { afterEach } from "vitest";
import { openMemory, type MemoryOptions, type MemoryStore } from "@orphus/memory";
import { tempDir } from "../../../../test-support/tmp.js";

const stores: MemoryStore[] = [];

// Closed after the test, before its temporary directories are removed (test-support/tmp.ts removes them last).
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

/** A store in a fresh directory (closed after the test); the environment is empty so nothing leaks in. */
export function tempStore(
  options: MemoryOptions = {},
  dir: string = path.join(tempDir("memory-"), "memory"),
): MemoryStore {
  const store = openMemory({ dir, env: {}, ...options });
  stores.push(store);
  return store;
}
