// A process of the directory race. It says "ready", then for each line `go <JSON list of fresh homes>` on stdin (the
// test sends it to every process at once) makes `<home>/.orphus/agent/roundtable` private in each home, and prints
// one JSON line with what failed.
import { createInterface } from "node:readline";
import * as path from "node:path";
import { ensurePrivateDir } from "@orphus/agent-env";

process.stdout.write("ready\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const homes = JSON.parse(line.slice("go ".length)) as string[];
  const failures: string[] = [];
  for (const home of homes) {
    try {
      ensurePrivateDir(
        path.join(home, ".orphus", "agent", "roundtable"),
        (problem, cause) => new Error(problem, { cause }),
      );
    } catch (error) {
      failures.push((error as Error).message);
    }
  }
  process.stdout.write(`${JSON.stringify({ failures })}\n`);
});
