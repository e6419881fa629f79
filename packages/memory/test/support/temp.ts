import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach } from "vitest";
import { openMemory, type MemoryOptions, type MemoryStore } from "@orphus/memory";

const made: string[] = [];
const stores: MemoryStore[] = [];

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary directory, removed after the test. */
export function tempDir(prefix = "memory-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A store in a fresh directory (closed after the test); the environment is empty so nothing leaks in. */
export function tempStore(options: MemoryOptions = {}, dir: string = path.join(tempDir(), "memory")): MemoryStore {
  const store = openMemory({ dir, env: {}, ...options });
  stores.push(store);
  return store;
}
