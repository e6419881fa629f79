// A process of the concurrency test. `write <dir> <folder> <files>`: writes <files> Markdown files of five sections
// each into <folder> and ingests them one by one (one transaction each). `read <dir> <tokens…>`: until the file
// <dir>/stop exists (at most 60 s), queries the tokens round-robin and prints every hit count it saw that was
// neither 0 nor 5, i.e. a file seen in part. Prints one JSON line at the end.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { openMemory } from "../../src/index.js";

const [mode, dir, ...rest] = process.argv.slice(2);
if (dir === undefined) throw new Error("usage: write|read <dir> …");

if (mode === "write") {
  const [folder, count] = rest as [string, string];
  const store = openMemory({ dir, role: "librarian", env: {} });
  mkdirSync(folder, { recursive: true });
  let entries = 0;
  for (let i = 0; i < Number(count); i++) {
    const token = `${path.basename(folder)}x${i}`;
    const file = path.join(folder, `${token}.md`);
    writeFileSync(file, Array.from({ length: 5 }, (_, s) => `# Section ${s}\n\n${token} part ${s} ${"filler ".repeat(30)}`).join("\n\n"));
    entries += store.ingestPaths([file]).entriesAdded;
  }
  store.close();
  process.stdout.write(`${JSON.stringify({ entries })}\n`);
} else {
  const store = openMemory({ dir, env: {} });
  const partial: string[] = [];
  let queries = 0;
  const deadline = Date.now() + 60_000;
  // At least one full round, even when the writers finished before this process got going.
  do {
    for (const token of rest) {
      const answer = store.query(token, { limit: 50 });
      queries++;
      if (answer.total !== 0 && answer.total !== 5) partial.push(`${token}: ${answer.total}`);
    }
  } while (!existsSync(path.join(dir, "stop")) && Date.now() < deadline);
  store.close();
  process.stdout.write(`${JSON.stringify({ queries, partial })}\n`);
}
