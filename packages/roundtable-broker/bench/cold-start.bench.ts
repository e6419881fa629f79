// Cold start: from no broker to the first reply (spawn the bin, wait for its socket, hello, reply), as a ratio to
// starting `node` on an empty script and waiting for it to exit. The broker is the bundled bin a published install
// ships (see test/bundle-bin.ts). The block harness alternates the two, so machine load colours both alike.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { compareInBlocks } from "../../../bench-support/harness.js";
import { BenchClient, bundledBin, helloFrame, stop, tempDir } from "./support.js";

const BLOCKS = 15;

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
    target: { kind: "at-most", value: 2.5 },
    unit: "ms per start",
    detail: ({ subject, baseline }) =>
      `${subject.toFixed(1)} ms from spawn to the hello reply vs ${baseline.toFixed(
        1
      )} ms for node on an empty script (median blocks of one start each)`,
  });
} finally {
  for (const cleanup of cleanups.reverse()) cleanup();
}
