// Bounds benchmarks, printed as ratios measured in this one run. A bound's cost must follow what it lets through,
// not what it leaves out: the parent's context is not the only thing a 100 MB output should not flood.
// 1. fan-out render: 4 children of 4 MiB each cost at most 2x 4 children of 4 KiB each (budget 1200, artifacts on
//    an in-memory file system whose writes are free, so only the rendering is timed; writing is linear by nature).
// 2. chain splice: {previous} over a 4 MiB output costs at most 2x the same over 4 KiB.
import { performance } from "node:perf_hooks";
import {
  boundFanOut,
  expandChainTemplate,
  openArtifactRun,
  type ArtifactFs,
  type FanOutChild,
} from "@orphus/bounds";
import { reportRatio } from "../../../bench-support/report.js";

const WORDS = "parser cache retry module found checked issue path test the a of in no with must bound".split(" ");

/** About `chars` characters of numbered report lines (40 to 90 characters), as one flat string. */
function prose(chars: number): string {
  const lines: string[] = [];
  for (let i = 0, total = 0; total < chars; i++) {
    const line = `${i}: ${WORDS.slice(i % 9).join(" ")}`;
    lines.push(line);
    total += line.length + 1;
  }
  // Through bytes and back: a flat string, as a child's decoded stdout is.
  return Buffer.from(lines.join("\n").slice(0, chars)).toString();
}

const freeFs: ArtifactFs = {
  mkdir: async () => undefined,
  mkdtemp: async (prefix) => `${prefix}000001`,
  writeFile: async () => undefined,
  rename: async () => undefined,
  rm: async () => undefined,
};

const KiB = 1024;
const MiB = 1024 * KiB;
let sink = 0;

function children(size: number): FanOutChild[] {
  return [1, 2, 3, 4].map((i) => ({
    name: `scout-${i}`,
    outcome: i === 2 ? "failed" : "ok",
    output: prose(size),
    error: i === 2 ? prose(size / 4) : undefined,
  }));
}

/**
 * Median milliseconds per call of `a` and of `b`, over `rounds` rounds of `reps` calls each, alternating a and b
 * (so drift on the shared machine and garbage from one side fall on both), after a warm-up round and a collection.
 */
async function pairedMs(
  rounds: number,
  reps: number,
  a: () => Promise<number> | number,
  b: () => Promise<number> | number,
): Promise<[number, number]> {
  const times: [number[], number[]] = [[], []];
  for (let round = -1; round < rounds; round++) {
    for (const [side, fn] of [a, b].entries()) {
      globalThis.gc?.();
      const start = performance.now();
      for (let r = 0; r < reps; r++) sink += await fn();
      if (round >= 0) times[side]!.push((performance.now() - start) / reps);
    }
  }
  const median = (list: number[]) => list.sort((x, y) => x - y)[Math.floor(list.length / 2)]!;
  return [median(times[0]), median(times[1])];
}

const small = children(4 * KiB);
const large = children(4 * MiB);
// A new run per round keeps artifact numbers below MAX_ARTIFACTS_PER_RUN.
const fanOut = async (list: FanOutChild[]) => {
  const artifacts = await openArtifactRun({ dir: "/bench/artifacts", fs: freeFs });
  return (await boundFanOut(list, { artifacts })).text.length;
};
const [largeFanOut, smallFanOut] = await pairedMs(15, 200, () => fanOut(large), () => fanOut(small));
reportRatio({
  name: "bounds.fanout-4x4MiB-vs-4x4KiB",
  ratio: largeFanOut / smallFanOut,
  target: { kind: "at-most", value: 2 },
  detail: `${(largeFanOut * 1000).toFixed(0)} µs vs ${(smallFanOut * 1000).toFixed(0)} µs per fan-out render`,
});

const smallStep = [{ name: "plan", output: prose(4 * KiB), path: "/bench/artifacts/run-000001/001-plan.txt" }];
const largeStep = [{ name: "plan", output: prose(4 * MiB), path: "/bench/artifacts/run-000001/001-plan.txt" }];
const template = "Review the plan below.\n\n{previous}\n\nList what is missing.";
const [largeSplice, smallSplice] = await pairedMs(
  15,
  2000,
  () => expandChainTemplate(template, largeStep).length,
  () => expandChainTemplate(template, smallStep).length,
);
reportRatio({
  name: "bounds.splice-4MiB-vs-4KiB",
  ratio: largeSplice / smallSplice,
  target: { kind: "at-most", value: 2 },
  detail: `${(largeSplice * 1000).toFixed(1)} µs vs ${(smallSplice * 1000).toFixed(1)} µs per expansion`,
});

if (sink === 0) process.stdout.write("(unreachable)\n");
