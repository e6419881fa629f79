// Two librarians ingesting at once and a reader querying all the while, as three real processes on one store. The
// processes are kept in step by lines on their stdin and stdout, not by time: the reader is querying before the
// writers start, both writers start ingesting on the same signal, and the reader stops only after both are done.
import * as path from "node:path";
import { expect, it } from "vitest";
import { openMemory } from "@orphus/memory";
import { startSource, type Finished } from "./support/process.js";
import { tempDir } from "../../../test-support/tmp.js";

const DRIVER = "test/support/concurrent-driver.ts";

function lastLine(finished: Finished): unknown {
  return JSON.parse(finished.stdout.trim().split("\n").at(-1) ?? "");
}

// The timeout is a backstop for a hung process only; nothing in the test waits on the clock.
it(
  "two processes ingesting at once lose nothing, and a third querying never sees part of a file",
  { timeout: 600_000 },
  async () => {
    const root = tempDir();
    const dir = path.join(root, "memory");
    const files = 30;
    // The store exists before the reader starts, so it queries from the first moment.
    const seed = openMemory({ dir, role: "librarian", env: {} });
    seed.ingestTexts([{ title: "seed", body: "seed" }]);
    seed.close();
    const tokens = ["ax", "bx"].flatMap((w) => Array.from({ length: files }, (_, i) => `${w}${i}`));
    const reader = startSource(DRIVER, ["read", dir, ...tokens], {});
    const writers = ["a", "b"].map((w) => startSource(DRIVER, ["write", dir, path.join(root, w), String(files)], {}));
    try {
      await reader.line("ready");
      await Promise.all(writers.map((writer) => writer.line("ready")));
      for (const writer of writers) writer.child.stdin.end("go\n");
      const written = await Promise.all(writers.map((writer) => writer.finished));
      reader.child.stdin.end();
      const read = await reader.finished;
      for (const writer of written) {
        expect(writer.stderr).toBe("");
        expect(lastLine(writer)).toEqual({ entries: files * 5 });
      }
      expect(read.stderr).toBe("");
      const seen = lastLine(read) as { queries: number; rounds: number; partial: string[] };
      expect(seen.partial).toEqual([]);
      // A round before the writers were told to go, and at least one after they were done.
      expect(seen.rounds).toBeGreaterThanOrEqual(2);
      expect(seen.queries).toBe(seen.rounds * tokens.length);
    } finally {
      for (const running of [reader, ...writers]) if (running.child.exitCode === null) running.child.kill();
    }
    const store = openMemory({ dir, env: {} });
    try {
      expect(store.stats().entries).toBe(1 + 2 * files * 5);
      for (const token of tokens) expect(store.query(token).total, token).toBe(5);
    } finally {
      store.close();
    }
  },
);
