// The benchmark record: what a run is recorded as, how the record is bounded, and that it reads back what it wrote.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, test } from "vitest";
import {
  appendRun,
  BenchRecordError,
  boundRecord,
  formatRecord,
  nodeLine,
  parseRecord,
  readRecord,
  recordedFigure,
  type RecordedRun,
} from "../lib/bench-record.js";
import { recordedRun, type FileOutcome } from "../lib/bench-runner.js";

const scratch = mkdtempSync(join(tmpdir(), "bench-record-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A run of `files` ("pkg/file") on Node `line`, one figure each. */
function run(line: string, files: readonly string[], date = "2026-01-01T00:00:00Z"): RecordedRun {
  return {
    date,
    commit: "abc1234",
    dirty: false,
    node: `v${line}.1.0`,
    line,
    cpu: 0,
    files: files.map((key) => {
      const [pkg, file] = key.split("/") as [string, string];
      return {
        package: pkg,
        file,
        status: 0,
        steal: 0.5,
        figures: [{ name: `${pkg}.x`, about: "x", median: 1, met: true }],
        notes: [],
      };
    }),
  };
}

describe("a run as recorded", () => {
  test("the conditions and every figure, rounded, with the target judged and the absolute sides", () => {
    const outcome: FileOutcome = {
      file: { packageName: "framing", file: "framing.bench.ts", path: "/p/framing/bench/framing.bench.ts" },
      status: 1,
      results: [
        {
          kind: "figure",
          name: "framing.decode-throughput",
          about: "decode against JSON.parse",
          ratio: 0.912345678,
          summary: { median: 0.912345678, q1: 0.8811111, q3: 0.95, min: 0.7, max: 1.0123456, blocks: 9 },
          target: { kind: "at-least", value: 0.85 },
          met: true,
          hasTarget: true,
          detail: "1,234 frames/s",
          sides: { subject: 81.23456, baseline: 74.0000001, unit: "ms per block" },
        },
        {
          kind: "figure",
          name: "framing.budget",
          about: "a share",
          ratio: 0.5,
          met: false,
          hasTarget: true,
          target: { kind: "at-least", value: 0.95 },
        },
      ],
      notes: ["Why."],
    };
    expect(
      recordedRun({
        date: new Date("2026-03-04T05:06:07.891Z"),
        commit: "1a2b3c4",
        dirty: true,
        nodeVersion: "v24.21.0",
        cpu: 0,
        outcomes: [outcome],
        steals: [3.14159],
      }),
    ).toEqual({
      date: "2026-03-04T05:06:07Z",
      commit: "1a2b3c4",
      dirty: true,
      node: "v24.21.0",
      line: "24",
      cpu: 0,
      files: [
        {
          package: "framing",
          file: "framing.bench.ts",
          status: 1,
          steal: 3.1,
          notes: ["Why."],
          figures: [
            {
              name: "framing.decode-throughput",
              about: "decode against JSON.parse",
              median: 0.9123,
              q1: 0.8811,
              q3: 0.95,
              min: 0.7,
              max: 1.0123,
              blocks: 9,
              target: { kind: "at-least", value: 0.85 },
              met: true,
              detail: "1,234 frames/s",
              sides: { subject: 81.23, baseline: 74, unit: "ms per block" },
            },
            {
              name: "framing.budget",
              about: "a share",
              median: 0.5,
              target: { kind: "at-least", value: 0.95 },
              met: false,
            },
          ],
        },
      ],
    });
  });

  test("unpinned and with no steal reading: null, not absent", () => {
    const recorded = recordedRun({
      date: new Date("2026-03-04T05:06:07Z"),
      commit: "unknown",
      dirty: true,
      nodeVersion: "v20.19.0",
      cpu: undefined,
      outcomes: [{ file: { packageName: "p", file: "a.bench.ts", path: "/a" }, status: null, results: [], notes: [] }],
      steals: [undefined],
    });
    expect(recorded.cpu).toBeNull();
    expect(recorded.files[0]).toEqual({
      package: "p",
      file: "a.bench.ts",
      status: null,
      steal: null,
      figures: [],
      notes: [],
    });
  });

  test("a figure that is not summarised keeps its median only", () => {
    expect(
      recordedFigure({ kind: "figure", name: "n", about: "a", ratio: 2 / 3, met: true, hasTarget: false }),
    ).toEqual({
      name: "n",
      about: "a",
      median: 0.6667,
      met: true,
    });
  });

  test("the Node line of a version", () => {
    expect(nodeLine("v20.19.0")).toBe("20");
    expect(nodeLine("24.1.0")).toBe("24");
    expect(() => nodeLine("node")).toThrow('a Node version is like v20.19.0, got "node"');
  });
});

describe("bounding the record", () => {
  test("each Node line keeps the newest results of each file; a run with nothing left is dropped", () => {
    const runs = [
      run("20", ["a/x.bench.ts", "b/y.bench.ts"], "2026-01-01T00:00:00Z"),
      run("20", ["a/x.bench.ts"], "2026-01-02T00:00:00Z"),
      run("24", ["a/x.bench.ts"], "2026-01-03T00:00:00Z"),
      run("20", ["a/x.bench.ts"], "2026-01-04T00:00:00Z"),
    ];
    const bounded = boundRecord(runs, 2);
    expect(bounded.map((r) => [r.date.slice(0, 10), r.line, r.files.map((f) => f.package)])).toEqual([
      // The first run keeps b (its only result) but loses a (two newer on Node 20).
      ["2026-01-01", "20", ["b"]],
      ["2026-01-02", "20", ["a"]],
      ["2026-01-03", "24", ["a"]],
      ["2026-01-04", "20", ["a"]],
    ]);
    expect(boundRecord(runs, 1).map((r) => r.date.slice(0, 10))).toEqual(["2026-01-01", "2026-01-03", "2026-01-04"]);
  });

  test("property: what is kept is exactly the newest `keep` results of each file per line, in the order recorded", () => {
    const arbitraryRun = fc.record({
      line: fc.constantFrom("20", "22", "24"),
      files: fc.uniqueArray(fc.constantFrom("a/x.bench.ts", "a/y.bench.ts", "b/z.bench.ts"), {
        minLength: 1,
        maxLength: 3,
      }),
    });
    fc.assert(
      fc.property(fc.array(arbitraryRun, { maxLength: 30 }), fc.integer({ min: 1, max: 5 }), (shapes, keep) => {
        const runs = shapes.map((shape, i) =>
          run(shape.line, shape.files, `2026-01-01T00:00:${String(i).padStart(2, "0")}Z`),
        );
        const bounded = boundRecord(runs, keep);
        // The naive reference: for every (line, file), the dates of its newest `keep` results.
        const expected = new Map<string, string[]>();
        for (const r of runs) {
          for (const f of r.files) {
            const key = `${r.line} ${f.package}/${f.file}`;
            expected.set(key, [...(expected.get(key) ?? []), r.date].slice(-keep));
          }
        }
        const kept = new Map<string, string[]>();
        for (const r of bounded) {
          expect(r.files.length).toBeGreaterThan(0);
          for (const f of r.files) {
            const key = `${r.line} ${f.package}/${f.file}`;
            kept.set(key, [...(kept.get(key) ?? []), r.date]);
          }
        }
        expect(kept).toEqual(expected);
        // Order kept, and bounding twice changes nothing.
        expect(bounded.map((r) => r.date)).toEqual([...bounded.map((r) => r.date)].sort());
        expect(boundRecord(bounded, keep)).toEqual(bounded);
      }),
    );
  });
});

describe("reading and appending", () => {
  test("appending writes one run a line and reads back what it wrote, bounded", () => {
    const path = join(scratch, "new", "record.jsonl");
    expect(readRecord(path)).toEqual([]);
    const first = run("20", ["a/x.bench.ts"], "2026-01-01T00:00:00Z");
    const second = run("20", ["a/x.bench.ts"], "2026-01-02T00:00:00Z");
    const third = run("20", ["a/x.bench.ts"], "2026-01-03T00:00:00Z");
    appendRun(path, first, 2);
    appendRun(path, second, 2);
    expect(appendRun(path, third, 2)).toEqual([second, third]);
    const text = readFileSync(path, "utf8");
    expect(text.split("\n")).toHaveLength(3);
    expect(text).toBe(formatRecord([second, third]));
    expect(readRecord(path)).toEqual([second, third]);
  });

  test("a line that is not a run is refused, naming the line", () => {
    const good = formatRecord([run("20", ["a/x.bench.ts"])]);
    expect(() => parseRecord(`${good}{"date":1}\n`)).toThrow(BenchRecordError);
    expect(() => parseRecord(`${good}{"date":1}\n`)).toThrow('line 2: "date" is not a string');
    expect(() => parseRecord("not json\n")).toThrow(/^line 1: not JSON/);
    expect(() => parseRecord(good.replace('"median":1', '"median":"1"'))).toThrow(
      "line 1: a figure has no name or median",
    );
    expect(parseRecord(`\n${good}\n`)).toHaveLength(1);
    const path = join(scratch, "broken.jsonl");
    writeFileSync(path, "[]\n");
    expect(() => readRecord(path)).toThrow("line 1: not a JSON object");
  });
});
