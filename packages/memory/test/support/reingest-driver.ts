// A process of the snapshot test; it coordinates with the test by lines, never by time.
//   `reingest <dir> <sources>`: ingests <sources> texts under fixed sources again and again, each round with other
//     words, so every round replaces every entry (new ids); prints "ready" after its first round, stops after the
//     round in which its stdin ended, and prints {"rounds": n}.
//   `query <dir> <queries>`: queries the word every text holds <queries> times, reading every hit an answer shows,
//     and prints {"queries": n, "ghosts": n, "examples": [...]}: a ghost is a hit an answer shows without its source,
//     title or text (an id the index gave that the entries, read later, no longer held).
import { createInterface } from "node:readline";
import { openMemory } from "@orphus/memory";

const [mode, dir, count] = process.argv.slice(2);
if (dir === undefined || count === undefined) throw new Error("usage: reingest|query <dir> <n>");
const busyTimeoutMs = 600_000;

if (mode === "reingest") {
  let stdinEnded = false;
  createInterface({ input: process.stdin }).on("close", () => (stdinEnded = true));
  const store = openMemory({ dir, role: "librarian", env: {}, busyTimeoutMs });
  let rounds = 0;
  for (;;) {
    const last = stdinEnded;
    store.ingestTexts(
      Array.from({ length: Number(count) }, (_, i) => ({
        title: `Ghost note ${i}`,
        body: `ghostword round${rounds} part${i} ${"filler ".repeat(20 + (i % 7))}`,
        source: `ghost-${i}`,
      })),
    );
    rounds++;
    if (rounds === 1) process.stdout.write("ready\n");
    if (last) break;
    // Let the end of stdin be noticed between rounds.
    await new Promise((resolve) => setImmediate(resolve));
  }
  store.close();
  process.stdout.write(`${JSON.stringify({ rounds })}\n`);
} else {
  const store = openMemory({ dir, env: {}, busyTimeoutMs });
  let ghosts = 0;
  const examples: string[] = [];
  for (let query = 0; query < Number(count); query++) {
    const answer = store.query("ghostword", { limit: 10, budget: 50_000 });
    const bad = answer.hits.filter(
      (hit) => hit.source === "" || hit.title === "" || hit.excerpt === undefined || hit.excerpt === "",
    );
    if (bad.length > 0 || answer.text.includes("(untitled)")) {
      ghosts++;
      if (examples.length < 3)
        examples.push(answer.text.split("\n").find((line) => line.includes("(untitled)")) ?? JSON.stringify(bad[0]));
    }
  }
  store.close();
  process.stdout.write(`${JSON.stringify({ queries: Number(count), ghosts, examples })}\n`);
}
