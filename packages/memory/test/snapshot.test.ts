// A query, a page and stats each read one snapshot of the store: a librarian re-ingesting the same sources in a loop
// (every round replacing every entry) and a reader querying all the while, as two real processes. Before each read
// was one transaction, an answer could take its ranking from one state of the store and its titles, sources and
// texts from a later one: a hit `[#26502] (untitled) · ` with no source, whose id `get` could not read.
import * as path from "node:path";
import { expect, it } from "vitest";
import type { Finished } from "./support/process.js";
import { startSource } from "./support/process.js";
import { tempDir } from "../../../test-support/tmp.js";

const DRIVER = "test/support/reingest-driver.ts";

function lastLine(finished: Finished): unknown {
  return JSON.parse(finished.stdout.trim().split("\n").at(-1) ?? "");
}

// The timeout is a backstop for a hung process only; nothing in the test waits on the clock. The number of queries
// is the bound: on the code before the fix 2 to 6% of the answers held a ghost.
it(
  "no answer shows a hit without its source or text while the same sources are re-ingested",
  { timeout: 600_000 },
  async () => {
    const dir = path.join(tempDir(), "memory");
    const writer = startSource(DRIVER, ["reingest", dir, "20"], {});
    try {
      await writer.line("ready");
      const reader = startSource(DRIVER, ["query", dir, "1500"], {});
      reader.child.stdin.end();
      const read = await reader.finished;
      writer.child.stdin.end();
      const written = await writer.finished;
      expect(read.stderr).toBe("");
      expect(written.stderr).toBe("");
      expect(lastLine(read)).toEqual({ queries: 1500, ghosts: 0, examples: [] });
      // The writer was replacing entries from before the first query until after the last.
      expect((lastLine(written) as { rounds: number }).rounds).toBeGreaterThanOrEqual(2);
    } finally {
      if (writer.child.exitCode === null) writer.child.kill();
    }
  },
);
