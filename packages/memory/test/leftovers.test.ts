// A process killed while it creates the store leaves its private file (`.memory.db.<pid>-<hex>.creating`, with its
// write-ahead log) beside the store; later opens remove what a process that is gone left long ago, and never a file of
// a process that is alive (whose pid may have been reused: the file then stays) or one touched lately.
import { readdirSync, utimesSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { expect, it } from "vitest";
import { openMemory } from "@orphus/memory";
import { startSource } from "./support/process.js";
import { tempDir } from "../../../test-support/tmp.js";

const creating = (dir: string): string[] =>
  readdirSync(dir)
    .filter((name) => name.includes(".creating"))
    .sort();

it(
  "an open removes the creating files of a process killed long ago, and nothing of a live or recent one",
  { timeout: 120_000 },
  async () => {
    const dir = path.join(tempDir(), "memory");
    const killed = startSource("test/support/creating-driver.ts", [dir], {});
    killed.child.stdin.end();
    const pid = killed.child.pid as number;
    // Waits for the file the store is being built in, then kills the builder: a file system poll, not a timing.
    for (;;) {
      let names: string[] = [];
      try {
        names = creating(dir);
      } catch {
        // The folder is not there yet.
      }
      if (names.some((name) => name.startsWith(`.memory.db.${pid}-`))) break;
      if (killed.child.exitCode !== null)
        throw new Error(`the builder ended first: ${(await killed.finished).stderr.slice(0, 2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    killed.child.kill("SIGKILL");
    await killed.finished;
    const left = creating(dir);
    expect(left.length).toBeGreaterThanOrEqual(1);
    expect(left.every((name) => name.startsWith(`.memory.db.${pid}-`))).toBe(true);

    // An hour untouched; a file of a live process (this one's parent), as old; one of the killed process, fresh.
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const name of left) utimesSync(path.join(dir, name), hourAgo, hourAgo);
    const live = `.memory.db.${process.ppid}-0123abcd.creating`;
    writeFileSync(path.join(dir, live), "");
    utimesSync(path.join(dir, live), hourAgo, hourAgo);
    const recent = `.memory.db.${pid}-89abcdef.creating`;
    writeFileSync(path.join(dir, recent), "");
    // This process's own pid, on a file it is not building: a process gone before it had the pid.
    const reused = `.memory.db.${process.pid}-00c0ffee.creating`;
    writeFileSync(path.join(dir, reused), "");
    utimesSync(path.join(dir, reused), hourAgo, hourAgo);

    const store = openMemory({ dir, role: "librarian", env: {} });
    try {
      expect(store.ingestTexts([{ title: "Release", body: "We release with changesets." }]).added).toBe(1);
      expect(creating(dir)).toEqual([live, recent].sort());
      expect(store.query("changesets").status).toBe("hits");
    } finally {
      store.close();
    }
  },
);
