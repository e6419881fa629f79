import { readFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  BoundsInputError,
  BoundsLimitError,
  BoundsOptionError,
  boundFanOut,
  displayName,
  openArtifactRun,
  TASK_OUTCOMES,
  type FanOutChild,
  type TaskOutcome,
} from "@orphus/bounds";
import { maxDigestLength } from "@orphus/digest";
import { memoryFs } from "./memory-fs.js";
import { useTempDir } from "./temp-dir.js";

const temp = useTempDir("bounds-fanout-");

/** About `size` characters of report-like text: numbered lines of words, deterministic. */
function report(who: string, size: number): string {
  const words = ["checked", "the", "module", "found", "no", "issue", "in", "parser", "cache", "retry", "path", "test"];
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const line = `${who} ${i}: ${Array.from({ length: 8 }, (_, k) => words[(i * 7 + k * 5) % words.length]).join(" ")}`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join("\n").slice(0, size);
}

const KB100 = 100 * 1024;
const fourChildren: FanOutChild[] = [1, 2, 3, 4].map((i) => ({
  name: `scout-${i}`,
  outcome: "ok",
  output: report(`scout-${i}`, KB100),
}));

describe("the spec's figure", () => {
  test("four children emitting 100 KB each reach the parent as at most 2 KB, every name and path present", async () => {
    const artifacts = await openArtifactRun({ dir: join(temp.path(), "figure") });
    const result = await boundFanOut(fourChildren, { artifacts });
    expect(result.bounded).toBe(true);
    expect(Buffer.byteLength(result.text, "utf8")).toBeLessThanOrEqual(2048);
    expect(result.text.length).toBeGreaterThan(1200); // the budget is spent, not left idle
    for (const [i, task] of result.tasks.entries()) {
      expect(task.name).toBe(`scout-${i + 1}`);
      expect(task.path).toBe(join(artifacts.dir, `00${i + 1}-scout-${i + 1}.txt`));
      expect(result.text).toContain(`ok · scout-${i + 1} · output: ${task.path}`);
      expect(await readFile(task.path!, "utf8")).toBe(fourChildren[i]!.output);
    }
    // Every child shows its head and its tail, not only a headline.
    for (const child of fourChildren) {
      const text = child.output as string;
      expect(result.text).toContain(text.slice(0, 40));
      expect(result.text).toContain(text.slice(-15));
    }
  });

  test("the same fan-out under a fixed directory renders the stored golden text", async () => {
    const artifacts = await openArtifactRun({ dir: "/home/user/.orphus/agent/artifacts", fs: memoryFs() });
    const result = await boundFanOut(fourChildren, { artifacts });
    const golden = await readFile(join(import.meta.dirname, "golden", "fanout-4x100k.txt"), "utf8");
    expect(`${result.text}\n`).toBe(golden);
    expect(Buffer.byteLength(result.text, "utf8")).toBe(1564);
  });
});

describe("failures first", () => {
  const mixed: FanOutChild[] = [
    { name: "writer", outcome: "ok", output: "wrote docs/a.md" },
    { name: "tester", outcome: "failed", output: "ran 12 tests", error: "npm test exited 1\nexpected 2, got 3" },
    { name: "scout", outcome: "ok", output: "found 3 call sites", error: "warning: slow disk" },
    { name: "linter", outcome: "timed-out", output: "" },
    { name: "fixer", outcome: "cancelled", output: "", error: "cancelled by the parent" },
    { name: "idle", outcome: "empty", output: "" },
  ];

  test("stubs and blocks: failed, timed out, cancelled, empty, then ok; a failure shows its error detail", async () => {
    const artifacts = await openArtifactRun({ dir: "/a", fs: memoryFs() });
    const result = await boundFanOut(mixed, { artifacts });
    const run = "/a/run-000001";
    expect(result.text).toBe(
      [
        `failed · tester · output: ${run}/002-tester.txt · error: ${run}/003-tester.error.txt`,
        "[#2 tester] error: npm test exited 1",
        "  expected 2, got 3",
        `timed-out · linter · output: ${run}/006-linter.txt`,
        "[#4 linter]",
        `cancelled · fixer · output: ${run}/007-fixer.txt · error: ${run}/008-fixer.error.txt`,
        "[#5 fixer] error: cancelled by the parent",
        `empty · idle · output: ${run}/009-idle.txt`,
        "[#6 idle]",
        `ok · writer · output: ${run}/001-writer.txt`,
        "[#1 writer] wrote docs/a.md",
        `ok · scout · output: ${run}/004-scout.txt · error: ${run}/005-scout.error.txt`,
        "[#3 scout] found 3 call sites",
      ].join("\n"),
    );
    expect(result.tasks.map((t) => t.errorPath)).toEqual([
      null,
      `${run}/003-tester.error.txt`,
      `${run}/005-scout.error.txt`,
      null,
      `${run}/008-fixer.error.txt`,
      null,
    ]);
  });

  test("a failure is never what collapses: budget goes to it first", async () => {
    const children: FanOutChild[] = [
      ...[1, 2, 3].map((i): FanOutChild => ({ name: `ok-${i}`, outcome: "ok", output: report(`ok-${i}`, 500) })),
      { name: "broken", outcome: "failed", output: "", error: "TypeError: cannot read x of undefined" },
    ];
    const artifacts = await openArtifactRun({ dir: "/a", fs: memoryFs() });
    const result = await boundFanOut(children, { artifacts, budget: 60 });
    expect(result.digest?.full).toEqual([4]);
    expect(result.text.split("\n").slice(0, 3)).toEqual([
      "[digest] 3 items collapsed (#1–#3), full output via the pinned lines.",
      "failed · broken · output: /a/run-000001/004-broken.txt · error: /a/run-000001/005-broken.error.txt",
      "[#4 broken] error: TypeError: cannot read x of undefined",
    ]);
  });

  test("a failure that cannot fit collapses, and then no success shows text either", async () => {
    // The second failure's block takes 87 characters (its name escapes to a label of 64), leaving 13 of 100: not
    // enough for the first failure's 13 and its newline, but enough for the success's 10 and its newline.
    const name = "x\u200b".repeat(20);
    const artifacts = await openArtifactRun({ dir: "/a", fs: memoryFs() });
    const result = await boundFanOut(
      [
        { name: "", outcome: "failed", output: "𐀀𐀀𐀀" },
        { name, outcome: "failed", output: "", error: "𐀀".repeat(5) },
        { name: "scout", outcome: "ok", output: "" },
      ],
      { artifacts, budget: 100 },
    );
    expect(result.digest).toMatchObject({ full: [2], collapsed: [1, 3] });
    expect(result.text.split("\n")).toEqual([
      "[digest] 2 items collapsed (#1–#3), full output via the pinned lines.",
      "failed · (unnamed) · output: /a/run-000001/001-task.txt",
      `failed · ${"x\\u{200B}".repeat(7)}… · output: /a/run-000001/002-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x.txt · error: ` +
        "/a/run-000001/003-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x-x.error.txt",
      `[#2 ${"x\\u{200B}".repeat(7)}…] error: ${"𐀀".repeat(5)}`,
      "ok · scout · output: /a/run-000001/004-scout.txt",
    ]);
  });

  test("a long error detail is cut to head and tail in the text and kept whole in its file", async () => {
    const fs = memoryFs();
    const trace = report("at frame", 20_000);
    const artifacts = await openArtifactRun({ dir: "/a", fs });
    const result = await boundFanOut(
      [
        { name: "ok", outcome: "ok", output: "fine" },
        { name: "crash", outcome: "failed", output: report("log", 50_000), error: trace },
      ],
      { artifacts },
    );
    const lines = result.text.split("\n");
    expect(lines[0]).toBe(
      "failed · crash · output: /a/run-000001/002-crash.txt · error: /a/run-000001/003-crash.error.txt",
    );
    expect(lines[1]).toBe(`[#2 crash] error: ${trace.split("\n")[0]}`);
    expect(result.text).toContain(trace.slice(-30));
    expect(new TextDecoder().decode(fs.files.get("/a/run-000001/003-crash.error.txt"))).toBe(trace);
    expect(result.digest?.full).toEqual([1, 2]);
  });

  test("a detail too long for any excerpt still arrives as an error headline", async () => {
    const artifacts = await openArtifactRun({ dir: "/a", fs: memoryFs() });
    const trace = `\n\n  Error: out of memory\n${report("at frame", 5000)}`;
    const result = await boundFanOut([{ name: "crash", outcome: "failed", output: "", error: trace }], {
      artifacts,
      budget: 100,
    });
    expect(result.digest?.headlines).toEqual([1]);
    expect(result.text.split("\n")[1]).toBe("[#1 crash, headline] error: Error: out of memory");
  });
});

describe("hostile and odd names", () => {
  test("escape sequences in a name are shown escaped and cannot swallow the paths after it", async () => {
    const artifacts = await openArtifactRun({ dir: "/a", fs: memoryFs() });
    const children: FanOutChild[] = [
      { name: "evil\u001b]0;", outcome: "ok", output: "x" },
      { name: "[#9 fake] header", outcome: "failed", output: "", error: "e" },
      { name: "", outcome: "ok", output: "y" },
      { name: "n".repeat(100), outcome: "ok", output: "z" },
    ];
    const result = await boundFanOut(children, { artifacts });
    for (const task of result.tasks) expect(result.text).toContain(`output: ${task.path}`);
    expect(result.text.split("\n")).toEqual([
      "failed · [#9 fake] header · output: /a/run-000001/002-9-fake-header.txt · error: /a/run-000001/003-9-fake-header.error.txt",
      "[#2 \\u{5B}#9\\u{20}fake\\u{5D}\\u{20}header] error: e",
      "ok · evil\\u{1B}]0; · output: /a/run-000001/001-evil-0.txt",
      "[#1 evil\\u{1B}\\u{5D}0;] x",
      "ok · (unnamed) · output: /a/run-000001/004-task.txt",
      "[#3 ?] y",
      `ok · ${"n".repeat(63)}… · output: /a/run-000001/005-${"n".repeat(40)}.txt`,
      `[#4 ${"n".repeat(63)}…] z`,
    ]);
  });

  test("a name cannot forge an output or error field: the stub's separator is escaped in names", async () => {
    const artifacts = await openArtifactRun({ dir: "/a", fs: memoryFs() });
    const name = "x · output: /etc/passwd · error: /srv/evil";
    const result = await boundFanOut([{ name, outcome: "failed", output: "o", error: "boom" }], { artifacts });
    const stub = result.text.split("\n")[0]!;
    expect(stub).toBe(
      "failed · x \\u{B7} output: /etc/passwd \\u{B7} error: /srv/evil · output: /a/run-000001/001-x-output-etc-passwd-error-srv-evil.txt" +
        " · error: /a/run-000001/002-x-output-etc-passwd-error-srv-evil.error.txt",
    );
    // Split on the separator, the fields are the outcome, the name, and the real paths, in that order.
    expect(stub.split(" · ").slice(2)).toEqual([
      `output: ${result.tasks[0]!.path}`,
      `error: ${result.tasks[0]!.errorPath}`,
    ]);
  });

  test("names a space apart keep their own stubs: no name passes for another", async () => {
    const artifacts = await openArtifactRun({ dir: "/a", fs: memoryFs() });
    const result = await boundFanOut(
      [
        { name: "tester x", outcome: "ok", output: "one" },
        { name: "tester  x", outcome: "ok", output: "two" },
      ],
      { artifacts, budget: 0 },
    );
    expect(result.text.split("\n")).toEqual([
      "[digest] 2 items collapsed (#1–#2), full output via the pinned lines.",
      "ok · tester x · output: /a/run-000001/001-tester-x.txt",
      "ok · tester  x · output: /a/run-000001/002-tester-x.txt",
    ]);
  });

  test("displayName: escaped on one line, never stripped, at most 64 characters", () => {
    expect(displayName(" a\t\tb\nc\u202e ")).toBe("\\u{20}a\\u{9}\\u{9}b\\u{A}c\\u{202E}\\u{20}");
    expect(displayName("plan\u200bner")).toBe("plan\\u{200B}ner");
    expect(displayName("plan\u200bner")).not.toBe(displayName("planner"));
    expect(displayName("\u0007")).toBe("\\u{7}");
    expect(displayName("")).toBe("(unnamed)");
    expect(displayName(`${"x".repeat(62)}😀😀`)).toBe(`${"x".repeat(62)}…`);
  });
});

describe("text behind escape codes", () => {
  const codes = (n: number): string => "\x1b[32m\x1b[0m".repeat(n);

  test("an output of colour codes, then its text, shows that text whole at the default budget", async () => {
    // 4770 characters of colour codes: within what bounds measures, past what the digest read of an older item.
    for (const n of [530, 1000, 20_000]) {
      const artifacts = await openArtifactRun({ dir: "/a", fs: memoryFs() });
      const result = await boundFanOut(
        [
          { name: "calc", outcome: "ok", output: `${codes(n)}result: 42` },
          { name: "b", outcome: "ok", output: "fine" },
          { name: "c", outcome: "ok", output: "fine" },
        ],
        { artifacts },
      );
      expect(result.text.split("\n").slice(0, 2)).toEqual([
        "ok · calc · output: /a/run-000001/001-calc.txt",
        "[#1 calc] result: 42",
      ]);
    }
  });

  test("an error detail of colour codes, then its text, keeps its prefix", async () => {
    const artifacts = await openArtifactRun({ dir: "/a", fs: memoryFs() });
    const result = await boundFanOut(
      [
        { name: "t", outcome: "failed", output: "", error: `${codes(1000)}boom` },
        { name: "b", outcome: "ok", output: "fine" },
      ],
      { artifacts },
    );
    expect(result.text.split("\n")[1]).toBe("[#1 t] error: boom");
  });
});

describe("many children", () => {
  test("what does not fit collapses into the marker, and every child keeps its stub", async () => {
    const children = Array.from({ length: 60 }, (_, i): FanOutChild => ({
      name: `w${i}`,
      outcome: i % 10 === 3 ? "failed" : "ok",
      output: report(`w${i}`, 3000),
      error: i % 10 === 3 ? `exit ${i}` : undefined,
    }));
    const artifacts = await openArtifactRun({ dir: "/a", fs: memoryFs() });
    const result = await boundFanOut(children, { artifacts });
    expect(result.digest?.collapsed.length).toBeGreaterThan(0);
    expect(result.text.split("\n")[0]).toMatch(
      /^\[digest\] \d+ items collapsed \(#\d+–#\d+\), full output via the pinned lines\.$/,
    );
    expect(result.text.length).toBeLessThanOrEqual(maxDigestLength(1200, 60));
    for (const task of result.tasks)
      expect(result.text).toContain(`${task.outcome} · ${task.name} · output: ${task.path}`);
    for (const i of [3, 13, 23, 33, 43, 53]) expect(result.text).toContain(`error: exit ${i}`);
  });
});

describe("artifacts off: nothing is bounded, only the backstop", () => {
  test("every output in full, failures and their details first", async () => {
    const result = await boundFanOut(
      [
        { name: "a", outcome: "ok", output: "alpha" },
        { name: "b", outcome: "failed", output: "partial", error: "boom" },
        { name: "c", outcome: "empty", output: "" },
      ],
      { artifacts: null },
    );
    expect(result.text).toBe("=== failed · b ===\nerror: boom\npartial\n\n=== empty · c ===\n\n=== ok · a ===\nalpha");
    expect(result).toMatchObject({ bounded: false, digest: null, truncated: null, artifactError: null });
    expect(result.tasks.map((t) => t.path)).toEqual([null, null, null]);
  });

  test("both sides of the switch: the same 4 × 100 KB is 2 KB with artifacts and 200 KB without", async () => {
    const withArtifacts = await boundFanOut(fourChildren, {
      artifacts: await openArtifactRun({ dir: "/a", fs: memoryFs() }),
    });
    const without = await boundFanOut(fourChildren, { artifacts: null });
    expect(Buffer.byteLength(withArtifacts.text)).toBeLessThanOrEqual(2048);
    // 4 × 102,400 bytes of output, four 21-byte headers ("·" is 2 bytes) with their line breaks, 3 blank lines.
    expect(without.truncated).toEqual({ totalBytes: 409_694, keptBytes: 204_800, cutBytes: 204_894 });
    expect(without.text.endsWith("\n… truncated: 204894 of 409694 bytes cut by the 204800-byte backstop")).toBe(true);
    expect(without.text.startsWith(`=== ok · scout-1 ===\n${(fourChildren[0]!.output as string).slice(0, 100)}`)).toBe(
      true,
    );
  });

  test("a refused write falls back to the unbounded return and says why first", async () => {
    const fs = memoryFs();
    const artifacts = await openArtifactRun({ dir: "/a", fs });
    fs.failOn.add("002-b.txt");
    const result = await boundFanOut(
      [
        { name: "a", outcome: "ok", output: "alpha" },
        { name: "b", outcome: "ok", output: "beta" },
      ],
      { artifacts },
    );
    expect(result.bounded).toBe(false);
    expect(result.artifactError?.message).toBe(
      "Cannot write the artifact /a/run-000001/002-b.txt: EACCES: injected failure, /a/run-000001/002-b.txt",
    );
    expect(result.tasks.map((t) => t.path)).toEqual(["/a/run-000001/001-a.txt", null]);
    expect(result.text.split("\n").slice(1).join("\n")).toBe("=== ok · a ===\nalpha\n\n=== ok · b ===\nbeta");
    expect(result.text.split("\n")[0]).toBe(
      "… artifacts could not be written (Cannot write the artifact /a/run-000001/002-b.txt: EACCES: injected failure, " +
        "/a/run-000001/002-b.txt); what follows is unbounded, cut only by the 204800-byte backstop",
    );
  });
});

describe("validation", () => {
  test("children, outcomes, outputs and the budget are checked", async () => {
    const none = { artifacts: null };
    await expect(boundFanOut({} as never, none)).rejects.toThrow(BoundsInputError);
    await expect(boundFanOut([{ name: "a", outcome: "done", output: "" }] as never, none)).rejects.toThrow(
      'Invalid bounds input children[0].outcome: expected "failed", "timed-out", "cancelled", "empty", "ok", got "done"',
    );
    await expect(boundFanOut([{ name: "a", outcome: "ok", output: null }] as never, none)).rejects.toThrow(
      "children[0].output",
    );
    await expect(boundFanOut([{ name: "a", outcome: "ok", output: "", error: 1 }] as never, none)).rejects.toThrow(
      "children[0].error",
    );
    await expect(boundFanOut([], { artifacts: null, budget: -1 })).rejects.toThrow(BoundsOptionError);
    const many = Array.from({ length: 257 }, () => ({ name: "a", outcome: "ok" as const, output: "" }));
    await expect(boundFanOut(many, none)).rejects.toThrow(BoundsLimitError);
  });

  test("no children: an empty return", async () => {
    const artifacts = await openArtifactRun({ dir: "/a", fs: memoryFs() });
    expect((await boundFanOut([], { artifacts })).text).toBe("");
  });
});

describe("properties", () => {
  const outcome = fc.constantFrom<TaskOutcome>(...TASK_OUTCOMES);
  const text = fc.oneof(
    fc.string({ unit: "binary", maxLength: 80 }),
    fc
      .tuple(fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 1000 }))
      .map(([s, n]) => s.repeat(n)),
    fc.uint8Array({ maxLength: 100 }),
  );
  const child = fc.record(
    { name: fc.stringMatching(/^[A-Za-z0-9_-]{1,12}( {1,3}[a-z]{1,5})?$/), outcome, output: text, error: text },
    { requiredKeys: ["name", "outcome", "output"] },
  );
  const children = fc.array(child, { maxLength: 8 });

  test("bounded text stays under the bound plus stubs; every name and path; failures first; artifacts exact", async () => {
    await fc.assert(
      fc.asyncProperty(children, fc.integer({ min: 0, max: 2500 }), async (list, budget) => {
        const fs = memoryFs();
        const artifacts = await openArtifactRun({ dir: "/a", fs });
        const result = await boundFanOut(list, { artifacts, budget });
        expect(result.bounded).toBe(true);
        expect(result.text.length).toBeLessThanOrEqual(maxDigestLength(budget, list.length));
        const stubAt: number[] = [];
        for (const [i, task] of result.tasks.entries()) {
          const original = list[i]!;
          const stub = `${original.outcome} · ${original.name} · output: ${task.path}`;
          const line = `${stub}${task.errorPath === null ? "" : ` · error: ${task.errorPath}`}`;
          stubAt.push(`\n${result.text}\n`.indexOf(`\n${line}\n`));
          expect(stubAt[i]).toBeGreaterThanOrEqual(0);
          const same = (file: Uint8Array | undefined, c: string | Uint8Array) =>
            file !== undefined && Buffer.from(file).equals(typeof c === "string" ? Buffer.from(c, "utf8") : c);
          expect(same(fs.files.get(task.path!), original.output)).toBe(true);
          if (task.errorPath !== null) expect(same(fs.files.get(task.errorPath), original.error!)).toBe(true);
          else expect(original.error === undefined || original.error.length === 0).toBe(true);
        }
        expect(fs.files.size).toBe(artifacts.count);
        // Failures precede successes: stubs appear in rank order.
        const rank = (o: TaskOutcome) => TASK_OUTCOMES.indexOf(o);
        for (let a = 0; a < list.length; a++) {
          for (let b = 0; b < list.length; b++) {
            if (rank(list[a]!.outcome) < rank(list[b]!.outcome)) expect(stubAt[a]).toBeLessThan(stubAt[b]!);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  test("at small budgets, no child collapses while a child later in the outcome order shows text", async () => {
    const small = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.string({ unit: fc.constantFrom("𐀀", "x", " ", "\n", "\u001b[1m", "\u200b"), maxLength: 40 }),
      fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 60 })).map(([t, n]) => t.repeat(n)),
    );
    const mixed = fc.record(
      {
        name: fc.oneof(fc.stringMatching(/^[a-z]{1,8}$/), fc.string({ maxLength: 40 }), fc.constant("")),
        outcome,
        output: small,
        error: small,
      },
      { requiredKeys: ["name", "outcome", "output"] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(mixed, { maxLength: 7 }), fc.integer({ min: 0, max: 400 }), async (list, budget) => {
        const result = await boundFanOut(list, {
          artifacts: await openArtifactRun({ dir: "/a", fs: memoryFs() }),
          budget,
        });
        const collapsed = new Set(result.digest!.collapsed);
        const rank = (i: number) => TASK_OUTCOMES.indexOf(list[i]!.outcome);
        for (let a = 0; a < list.length; a++) {
          if (!collapsed.has(a + 1)) continue;
          for (let b = 0; b < list.length; b++) {
            if (rank(a) < rank(b) && !collapsed.has(b + 1)) {
              expect({ collapsed: list[a]!.outcome, shown: list[b]!.outcome, budget }).toBeNull();
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  test("artifacts off: every output whole (or cut by the backstop), failures first", async () => {
    await fc.assert(
      fc.asyncProperty(children, async (list) => {
        const result = await boundFanOut(list, { artifacts: null });
        expect(result.bounded).toBe(false);
        if (result.truncated !== null) return; // the backstop's own properties are tested beside it
        let at = -1;
        const order = list
          .map((c, i) => [c, i] as const)
          .sort(([a, i], [b, j]) => TASK_OUTCOMES.indexOf(a.outcome) - TASK_OUTCOMES.indexOf(b.outcome) || i - j);
        for (const [c] of order) {
          const next = result.text.indexOf(`=== ${c.outcome} · ${c.name} ===`, at + 1);
          expect(next).toBeGreaterThan(at);
          at = next;
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe("sharing the budget", () => {
  /** What draws nothing: escape sequences, controls, invisible characters, blank lines. */
  const invisible = fc.constantFrom(
    "\u001b[32m",
    "\u001b[0m",
    "\u001b]0;t\u0007",
    "\u0007",
    "\u200b",
    "\u202e",
    "\n",
    "\r\n",
    " ",
  );
  const body = fc.oneof(
    fc.string({ unit: "binary", maxLength: 300 }),
    fc
      .tuple(
        fc.string({
          unit: fc.constantFrom("a", " ", "\n", "\r\n", "é", "😀", "\u001b[1m"),
          minLength: 1,
          maxLength: 20,
        }),
        fc.integer({ min: 1, max: 5000 }),
      )
      .map(([s, n]) => s.repeat(n)),
    // Text that starts late: a long run of what draws nothing, then a little text or a long one.
    fc
      .tuple(
        fc.array(invisible, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 100, max: 5000 }),
        fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.constant("result: 42\n".repeat(300))),
      )
      .map(([run, n, text]) => run.join("").repeat(n) + text),
  );
  const children = fc.array(
    fc.record({
      name: fc.stringMatching(/^[a-z0-9-]{1,18}$/),
      outcome: fc.constantFrom<TaskOutcome>(...TASK_OUTCOMES),
      output: body,
      error: body,
    }),
    { minLength: 1, maxLength: 4 },
  );

  test("up to four children within a budget of 1100 or more: none falls back to a headline or collapses", async () => {
    await fc.assert(
      fc.asyncProperty(children, fc.integer({ min: 1100, max: 2500 }), async (list, budget) => {
        const artifacts = await openArtifactRun({ dir: "/a", fs: memoryFs() });
        const result = await boundFanOut(list, { artifacts, budget });
        expect(result.digest?.headlines).toEqual([]);
        expect(result.digest?.collapsed).toEqual([]);
        expect(result.digest!.used).toBeLessThanOrEqual(budget);
      }),
      { numRuns: 80 },
    );
  });
});

describe("at the limits", () => {
  test("256 children with the widest stubs: the text is the digest bound, never cut by the backstop", async () => {
    const fs = memoryFs();
    const artifacts = await openArtifactRun({ dir: `/${"d".repeat(127)}`, fs });
    const children = Array.from({ length: 256 }, (_, i): FanOutChild => ({
      name: `${"n".repeat(70)}${i}`,
      outcome: "timed-out",
      output: report(`c${i}`, 2000),
      error: "deadline",
    }));
    const result = await boundFanOut(children, { artifacts });
    expect(result.truncated).toBeNull();
    expect(result.text.length).toBeLessThanOrEqual(maxDigestLength(1200, 256));
    expect(Buffer.byteLength(result.text)).toBeLessThan(204_800);
    for (const task of result.tasks) {
      expect(`${result.text}\n`).toContain(`output: ${task.path} · error: ${task.errorPath}\n`);
    }
  });
});
