// Cold start: from no broker to the first reply (spawn the bin, wait for its socket, hello, reply), as a ratio to
// starting `node` on an empty script and waiting for it to exit, on the same Node. The broker is the bundled bin a
// published install ships (see test/bundle-bin.ts). The block harness alternates the two, so machine load colours
// both alike. The target is per Node line: bare `node` starts in about two thirds of the time on Node 24 as on Node
// 20, while the broker's own loading shrinks less, so one ratio cannot serve both (the notes below give the figures).
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { compareInBlocks } from "../../../bench-support/harness.js";
import { benchNotes } from "../../../bench-support/report.js";
import { BenchClient, bundledBin, helloFrame, stop, tempDir } from "./support.js";

const BLOCKS = 15;

benchNotes([
  "Why the target is per Node line: bare `node` on an empty script took a median 67 ms on Node 20 and 43 to 44 ms on " +
    "Node 24, while the broker's bin took 154 ms on Node 20 and 135 to 158 ms on Node 24, so the same broker is 2.2x " +
    "to 2.7x of bare `node` on Node 20 and 3.1x to 3.3x on Node 24 (two runs on each line, alternating, pinned to one " +
    "CPU). A target of 2.5x on Node 24 would ask the broker to load faster than it does on Node 20 only because " +
    "`node` itself got faster; hence at most 2.5x on Node 20 and at most 3.5x on Node 24, each against `node` on its " +
    "own line.",
]);

const cleanups: (() => void)[] = [];
try {
  const bin = await bundledBin(cleanups);
  const empty = join(tempDir(cleanups), "empty.mjs");
  writeFileSync(empty, "");

  const nodeStart = (): Promise<number> =>
    new Promise((resolve) => {
      const start = performance.now();
      spawn(process.execPath, [empty], { stdio: "ignore" }).on("exit", () => resolve(performance.now() - start));
    });

  const brokerStart = async (): Promise<number> => {
    const agentDir = tempDir(cleanups);
    const start = performance.now();
    const child = spawn(process.execPath, [bin, "--agent-dir", agentDir, "--idle-ms", "60000"], { stdio: "ignore" });
    const client = await BenchClient.connect(join(agentDir, "roundtable", "broker.sock"));
    await client.roundTrip(helloFrame("bench"));
    const elapsed = performance.now() - start;
    client.close();
    await stop(child);
    return elapsed;
  };

  await compareInBlocks({
    name: "roundtable-broker.cold-start-to-first-reply",
    about:
      "From spawning the broker's bundled bin to its reply to a hello, against spawning bare `node` on an empty script " +
      "until it exits, on the same Node line.",
    blocks: BLOCKS,
    subject: brokerStart,
    baseline: nodeStart,
    target: { kind: "at-most", byNode: { 20: 2.5, 24: 3.5 } },
    unit: "ms per start",
    detail: ({ subject, baseline }) =>
      `${subject.toFixed(1)} ms from spawn to the hello reply vs ${baseline.toFixed(
        1,
      )} ms for node on an empty script (median blocks of one start each)`,
  });
} finally {
  for (const cleanup of cleanups.reverse()) cleanup();
}
