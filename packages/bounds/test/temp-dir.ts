// A real temporary directory for the tests in one file, removed after them.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";

/** Registers hooks that create the directory before the file's tests and remove it after; call `path()` inside tests. */
export function useTempDir(prefix: string): { path: () => string } {
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
  return {
    path: () => {
      if (dir === undefined) throw new Error("the temporary directory exists only inside tests");
      return dir;
    },
  };
}
