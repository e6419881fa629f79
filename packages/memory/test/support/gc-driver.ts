// A process that uses a store the way a long session does and then lets the garbage collector take its statements,
// as an idle process's collector does: `gc-driver <dir>`. It prints the driver it ran on and whether better-sqlite3 was
// ever loaded, as JSON. On Node 24 with better-sqlite3 12 the collection aborts the process (see the README).
import { createRequire } from "node:module";
import { openMemory } from "@orphus/memory";

const dir = process.argv[2] ?? "";

let driver = "";
for (let round = 0; round < 20; round++) {
  const store = openMemory({ dir, role: "librarian", env: {} });
  driver = store.sqliteDriver;
  store.ingestTexts([{ title: `round ${round}`, body: `garbage collection round ${round}`, source: `round-${round}` }]);
  store.query("collection");
  store.get(1);
  store.stats();
  // Dropped without close(), as a host that exits or forgets a store would: the collector finalizes its statements.
}
// No explicit gc(): a collection called from JavaScript finalizes the statements safely. The one that aborts runs
// from V8's own tasks between callbacks, as it does after a burst of allocation; so: allocate, go idle, again.
const allocate = (): number => Array.from({ length: 1_000_000 }, (_, n) => ({ n })).length;
for (let burst = 0; burst < 3; burst++) {
  allocate();
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const loaded = Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes("better-sqlite3"));
process.stdout.write(`${JSON.stringify({ driver, betterSqlite3Loaded: loaded })}\n`);
