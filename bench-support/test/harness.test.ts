import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import { alternateBlocks, blockRatios, compareInBlocks, summarise } from "../harness.js";
import { benchNotes, formatRatio, reportRatio, resolveTarget, RESULTS_FILE_ENV } from "../report.js";
import { BENCH_CPU_ENV, benchCpu, latencyPlacements, parseCpu, pinnedCommand } from "../cpu.js";

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

const silence = () => vi.spyOn(process.stdout, "write").mockImplementation(() => true);

describe("alternateBlocks", () => {
  test("rotates which side goes first, so neither always runs first (A B | B A | A B ...)", async () => {
    const order: string[] = [];
    const figures = await alternateBlocks(
      { a: () => (order.push("a"), 1), b: () => (order.push("b"), 2) },
      { blocks: 4, warmupBlocks: 1, collectGarbage: false },
    );
    expect(order.join("")).toBe("ab" + "ba" + "ab" + "ba" + "ab");
    expect(figures).toEqual({ a: [1, 1, 1, 1], b: [2, 2, 2, 2] });
  });

  test("with three sides each goes first in turn; warm-up blocks are run but not kept", async () => {
    const order: string[] = [];
    let n = 0;
    const figures = await alternateBlocks(
      { x: () => (order.push("x"), n++), y: () => (order.push("y"), n++), z: () => (order.push("z"), n++) },
      { blocks: 2, warmupBlocks: 1, collectGarbage: false },
    );
    expect(order.join(" ")).toBe("x y z y z x z x y");
    // The warm-up block produced 0, 1, 2; the kept blocks 3..8 in the order run.
    expect(figures).toEqual({ x: [5, 7], y: [3, 8], z: [4, 6] });
  });

  test("awaits asynchronous sides one at a time", async () => {
    let running = 0;
    let most = 0;
    const side = async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve)); // a side that yields: a second one could start meanwhile
      running--;
      return 1;
    };
    await alternateBlocks({ a: side, b: side }, { blocks: 3, collectGarbage: false });
    expect(most).toBe(1);
  });

  test("refuses a block count that is not a positive integer, and no sides", async () => {
    await expect(alternateBlocks({ a: () => 1 }, { blocks: 0 })).rejects.toThrow(
      /blocks must be an integer of at least 1, got 0/,
    );
    await expect(alternateBlocks({ a: () => 1 }, { warmupBlocks: -1 })).rejects.toThrow(/warmupBlocks/);
    await expect(alternateBlocks({}, {})).rejects.toThrow(/at least one side/);
  });
});

describe("summaries", () => {
  test("median, quartiles and range of per-block ratios", () => {
    expect(summarise([3, 1, 2, 5, 4])).toEqual({ median: 3, q1: 2, q3: 4, min: 1, max: 5, blocks: 5 });
  });

  test("block ratios pair the blocks of each side", () => {
    expect(blockRatios([2, 4, 9], [1, 2, 3])).toEqual({ median: 2, q1: 2, q3: 3, min: 2, max: 3, blocks: 3 });
    expect(() => blockRatios([1], [1, 2])).toThrow(/blocks differ: 1 numerators, 2 denominators/);
    expect(() => summarise([])).toThrow(/no blocks/);
  });

  test("a summary prints as the median with its spread", () => {
    expect(formatRatio({ median: 1.2345, q1: 1.18, q3: 1.31, min: 1.05, max: 1.6, blocks: 11 })).toBe(
      "1.234x [IQR 1.180–1.310, range 1.050–1.600, 11 blocks]",
    );
    expect(formatRatio(0.5)).toBe("0.500x");
  });

  test("a figure in a unit prints in it, its target too, and the results file keeps the unit", () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (lines.push(String(chunk)), true));
    expect(formatRatio(2.9894, "ms")).toBe("2.989 ms");
    expect(formatRatio({ median: 2.5, q1: 2, q3: 3, min: 1, max: 4, blocks: 5 }, "ms")).toBe(
      "2.500 ms [IQR 2.000–3.000, range 1.000–4.000, 5 blocks]",
    );
    const dir = mkdtempSync(join(tmpdir(), "bench-results-"));
    try {
      const file = join(dir, "results.jsonl");
      const met = reportRatio(
        { name: "e.p50", about: "e", ratio: 2.9894, unit: "ms", target: { kind: "at-most", value: 5 } },
        { [RESULTS_FILE_ENV]: file },
      );
      expect(met).toBe(true);
      expect(lines.join("")).toBe("e.p50: 2.989 ms (target <= 5 ms) ok\n");
      expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ name: "e.p50", ratio: 2.9894, unit: "ms" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("compareInBlocks and reportRatio", () => {
  test("a cost ratio is subject over baseline; the verdict follows the median, not one lucky block", async () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (lines.push(String(chunk)), true));
    const subject = [30, 10, 30, 30, 30];
    const result = await compareInBlocks({
      name: "demo.cost",
      about: "a demo against its floor",
      blocks: 5,
      warmupBlocks: 0,
      collectGarbage: false,
      subject: () => subject.shift() as number,
      baseline: () => 10,
      target: { kind: "at-most", value: 2 },
      detail: ({ subject: s, baseline: b }) => `${s} vs ${b}`,
    });
    expect(result.met).toBe(false);
    expect(result.summary.median).toBe(3);
    expect(result.summary.min).toBe(1);
    expect(lines.join("")).toBe(
      "demo.cost: 3.000x [IQR 3.000–3.000, range 1.000–3.000, 5 blocks] (target <= 2x) MISSED — 30 vs 10\n",
    );
    expect(process.exitCode).toBe(1);
  });

  test("a throughput ratio is baseline over subject: the subject's speed as a share of the ceiling's", async () => {
    silence();
    const result = await compareInBlocks({
      name: "demo.speed",
      about: "a demo against its ceiling",
      ratio: "throughput",
      blocks: 3,
      collectGarbage: false,
      subject: () => 20,
      baseline: () => 10,
      target: { kind: "at-least", value: 0.4 },
    });
    expect(result.summary.median).toBe(0.5);
    expect(result.met).toBe(true);
  });

  test("every reported figure is appended to the runner's results file, whole, and notes beside them", async () => {
    silence();
    const dir = mkdtempSync(join(tmpdir(), "bench-results-"));
    try {
      const file = join(dir, "results.jsonl");
      const env = { [RESULTS_FILE_ENV]: file };
      reportRatio({ name: "a.met", about: "a", ratio: 1, target: { kind: "at-most", value: 2 } }, env);
      reportRatio(
        { name: "b.missed", about: "b", ratio: 3, target: { kind: "at-most", value: 2 }, detail: "3 ms vs 1 ms" },
        env,
      );
      reportRatio({ name: "c.informative", about: "c", ratio: 9, sides: { subject: 9, baseline: 1, unit: "ms" } }, env);
      reportRatio(
        { name: "d.summarised", about: "d", ratio: { median: 2, q1: 1, q3: 3, min: 0.5, max: 4, blocks: 5 } },
        env,
      );
      benchNotes(["Why the floor is what it is."], env);
      expect(
        readFileSync(file, "utf8")
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line)),
      ).toEqual([
        {
          kind: "figure",
          name: "a.met",
          about: "a",
          ratio: 1,
          target: { kind: "at-most", value: 2 },
          met: true,
          hasTarget: true,
        },
        {
          kind: "figure",
          name: "b.missed",
          about: "b",
          ratio: 3,
          target: { kind: "at-most", value: 2 },
          met: false,
          hasTarget: true,
          detail: "3 ms vs 1 ms",
        },
        {
          kind: "figure",
          name: "c.informative",
          about: "c",
          ratio: 9,
          met: true,
          hasTarget: false,
          sides: { subject: 9, baseline: 1, unit: "ms" },
        },
        {
          kind: "figure",
          name: "d.summarised",
          about: "d",
          ratio: 2,
          summary: { median: 2, q1: 1, q3: 3, min: 0.5, max: 4, blocks: 5 },
          met: true,
          hasTarget: false,
        },
        { kind: "note", text: "Why the floor is what it is." },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("compareInBlocks records each side's median block, in the unit it names", async () => {
    silence();
    const dir = mkdtempSync(join(tmpdir(), "bench-results-"));
    const file = join(dir, "results.jsonl");
    vi.stubEnv(RESULTS_FILE_ENV, file);
    try {
      const subject = [4, 8, 6];
      await compareInBlocks({
        name: "demo.sides",
        about: "sides",
        blocks: 3,
        warmupBlocks: 0,
        collectGarbage: false,
        unit: "ms per 10 calls",
        subject: () => subject.shift() as number,
        baseline: () => 2,
      });
      expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({
        name: "demo.sides",
        summary: { median: 3, q1: 2, q3: 4, min: 2, max: 4, blocks: 3 },
        sides: { subject: 6, baseline: 2, unit: "ms per 10 calls" },
      });
    } finally {
      vi.unstubAllEnvs();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("targets per Node line", () => {
  const byNode = { kind: "at-most", byNode: { 20: 2.5, 24: 3.5 } } as const;

  test("a target per line resolves to that line's value; a line it does not list has none", () => {
    expect(resolveTarget(byNode, "20.19.0")).toEqual({ kind: "at-most", value: 2.5 });
    expect(resolveTarget(byNode, "24.21.0")).toEqual({ kind: "at-most", value: 3.5 });
    expect(resolveTarget(byNode, "22.12.0")).toBeUndefined();
    expect(resolveTarget({ kind: "at-least", value: 0.6 }, "22.12.0")).toEqual({ kind: "at-least", value: 0.6 });
    expect(resolveTarget(undefined, "20.19.0")).toBeUndefined();
  });

  test("the printed line names the line a per-line target is judged on, or that it has none there", () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (lines.push(String(chunk)), true));
    expect(reportRatio({ name: "cold", about: "c", ratio: 3, target: byNode }, {}, "24.21.0")).toBe(true);
    expect(reportRatio({ name: "cold", about: "c", ratio: 3, target: byNode }, {}, "20.19.0")).toBe(false);
    expect(reportRatio({ name: "cold", about: "c", ratio: 3, target: byNode }, {}, "22.12.0")).toBe(true);
    expect(lines).toEqual([
      "cold: 3.000x (target <= 3.5x on Node 24) ok\n",
      "cold: 3.000x (target <= 2.5x on Node 20) MISSED\n",
      "cold: 3.000x (no target on Node 22)\n",
    ]);
  });
});

describe("CPU pinning", () => {
  test("a pinned command runs under taskset -c; an unpinned one is unchanged", () => {
    expect(pinnedCommand("node", ["a.js"], undefined)).toEqual({ command: "node", args: ["a.js"] });
    if (process.platform === "linux") {
      expect(pinnedCommand("node", ["a.js"], 0)).toEqual({ command: "taskset", args: ["-c", "0", "node", "a.js"] });
    } else {
      expect(() => pinnedCommand("node", ["a.js"], 0)).toThrow(/needs taskset/);
    }
  });

  test("the runner's CPU comes from the environment and must be a number", () => {
    expect(benchCpu({})).toBeUndefined();
    expect(benchCpu({ [BENCH_CPU_ENV]: "1" })).toBe(1);
    expect(parseCpu("12")).toBe(12);
    expect(() => parseCpu("0-3")).toThrow(/a CPU is a number such as 0, got "0-3"/);
    expect(() => parseCpu("")).toThrow(/a CPU is a number/);
  });

  test("a latency benchmark runs same-CPU (judged), then cross-CPU; unpinned, saying why, without taskset", () => {
    expect(latencyPlacements({ cpu: 1, cpuCount: 2, taskset: true })).toEqual([
      { kind: "same-cpu", clientCpu: 1, serverCpu: 1, note: "client and servers on CPU 1" },
      { kind: "cross-cpu", clientCpu: 1, serverCpu: 0, note: "client on CPU 1, servers on CPU 0" },
    ]);
    expect(latencyPlacements({ cpuCount: 1, taskset: true, cpu: 0 })[1]).toEqual({
      kind: "cross-cpu",
      note: "client and servers on different CPUs",
      unavailable: "this machine has one CPU",
    });
    expect(latencyPlacements({ taskset: false })).toEqual([
      { kind: "unpinned", note: "unpinned: taskset is not available here, so the scheduler placed client and servers" },
    ]);
  });
});
