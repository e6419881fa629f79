// Bounds benchmarks, each a median ratio over alternating blocks of this one run (bench-support/harness.ts). A
// bound's cost must follow what it lets through, not what it leaves out: the parent's context is not the only thing
// a 100 MB output should not flood.
// 1. fan-out render: 4 children of 4 MiB each cost at most 2x 4 children of 4 KiB each (budget 1200, artifacts on
//    an in-memory file system whose writes are free, so only the rendering is timed; writing is linear by nature).
// 2. chain splice: {previous} over a 4 MiB output costs at most 2x the same over 4 KiB.
import { performance } from "node:perf_hooks";
import { boundFanOut, expandChainTemplate, openArtifactRun, type ArtifactFs, type FanOutChild } from "@orphus/bounds";
import { compareInBlocks } from "../../../bench-support/harness.js";

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

/** Milliseconds per call of `fn`, over `reps` calls. */
async function perCallMs(reps: number, fn: () => Promise<number> | number): Promise<number> {
  const start = performance.now();
  for (let r = 0; r < reps; r++) sink += await fn();
  return (performance.now() - start) / reps;
}

const small = children(4 * KiB);
const large = children(4 * MiB);
// A new run per round keeps artifact numbers below MAX_ARTIFACTS_PER_RUN.
const fanOut = async (list: FanOutChild[]) => {
  const artifacts = await openArtifactRun({ dir: "/bench/artifacts", fs: freeFs });
  return (await boundFanOut(list, { artifacts })).text.length;
};
await compareInBlocks({
  name: "bounds.fanout-4x4MiB-vs-4x4KiB",
  about:
    "Rendering a fan-out of 4 children with 4 MiB of output each (budget 1200, artifact writes free) against the same " +
    "fan-out of 4 KiB each: a bound's cost must follow what it lets through.",
  unit: "ms per fan-out render",
  blocks: 15,
  subject: () => perCallMs(200, () => fanOut(large)),
  baseline: () => perCallMs(200, () => fanOut(small)),
  target: { kind: "at-most", value: 2 },
  detail: ({ subject, baseline }) =>
    `${(subject * 1000).toFixed(0)} µs vs ${(baseline * 1000).toFixed(0)} µs per fan-out render`,
});

const smallStep = [{ name: "plan", output: prose(4 * KiB), path: "/bench/artifacts/run-000001/001-plan.txt" }];
const largeStep = [{ name: "plan", output: prose(4 * MiB), path: "/bench/artifacts/run-000001/001-plan.txt" }];
const template = "Review the plan below.\n\n{previous}\n\nList what is missing.";
await compareInBlocks({
  name: "bounds.splice-4MiB-vs-4KiB",
  about: "A `{previous}` splice of a 4 MiB output into a chain template against the same splice of a 4 KiB output.",
  unit: "ms per expansion",
  blocks: 15,
  subject: () => perCallMs(2000, () => expandChainTemplate(template, largeStep).length),
  baseline: () => perCallMs(2000, () => expandChainTemplate(template, smallStep).length),
  target: { kind: "at-most", value: 2 },
  detail: ({ subject, baseline }) =>
    `${(subject * 1000).toFixed(1)} µs vs ${(baseline * 1000).toFixed(1)} µs per expansion`,
});

if (sink === 0) process.stdout.write("(unreachable)\n");
