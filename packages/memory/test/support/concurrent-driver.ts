// A process of the concurrency test; it coordinates with the test by lines, never by time.
//   `write <dir> <folder> <files>`: writes <files> Markdown files of five sections each into <folder>, opens the
//     store, prints "ready", waits for the line "go" on stdin, then ingests the files one by one (one transaction
//     each) and prints {"entries": n}.
//   `read <dir> <tokens…>`: queries the tokens round after round; after the first round it prints "ready"; it stops
//     after the round in which its stdin ended, and prints every hit count it saw that was neither 0 nor 5 (a file
//     seen in part) with the number of queries and rounds.
// Both wait for locks as long as SQLite allows them here: a loaded machine must not turn a wait into a failure.
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { openMemory } from "@orphus/memory";

const [mode, dir, ...rest] = process.argv.slice(2);
if (dir === undefined) throw new Error("usage: write|read <dir> …");
const busyTimeoutMs = 600_000;

if (mode === "write") {
  const [folder, count] = rest as [string, string];
  mkdirSync(folder, { recursive: true });
  const files = Array.from({ length: Number(count) }, (_, i) => {
    const token = `${path.basename(folder)}x${i}`;
    const file = path.join(folder, `${token}.md`);
    writeFileSync(
      file,
      Array.from({ length: 5 }, (_, s) => `# Section ${s}\n\n${token} part ${s} ${"filler ".repeat(30)}`).join("\n\n"),
    );
    return file;
  });
  const store = openMemory({ dir, role: "librarian", env: {}, busyTimeoutMs });
  store.stats();
  process.stdout.write("ready\n");
  let go = false;
  for await (const line of createInterface({ input: process.stdin })) if ((go = line === "go")) break;
  if (!go) throw new Error("stdin ended before the line go");
  let entries = 0;
  for (const file of files) entries += store.ingestPaths([file]).entriesAdded;
  store.close();
  process.stdout.write(`${JSON.stringify({ entries })}\n`);
} else {
  let stdinEnded = false;
  process.stdin.on("end", () => (stdinEnded = true)).resume();
  const store = openMemory({ dir, env: {}, busyTimeoutMs });
  const partial: string[] = [];
  let queries = 0;
  let rounds = 0;
  for (;;) {
    const last = stdinEnded;
    for (const token of rest) {
      const answer = store.query(token, { limit: 50 });
      queries++;
      if (answer.total !== 0 && answer.total !== 5) partial.push(`${token}: ${answer.total}`);
    }
    rounds++;
    if (rounds === 1) process.stdout.write("ready\n");
    if (last) break;
    // Let the end of stdin be noticed between rounds.
    await new Promise((resolve) => setImmediate(resolve));
  }
  store.close();
  process.stdout.write(`${JSON.stringify({ queries, rounds, partial })}\n`);
}
