import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  BoundsInputError,
  BoundsOptionError,
  ChainMalformedPlaceholderError,
  ChainNoPreviousError,
  ChainUnknownOutputError,
  expandChainTemplate,
  openArtifactRun,
  recordChainStep,
  type ChainStepOutput,
} from "@orphus/bounds";
import { sanitizeText } from "@orphus/digest";
import { memoryFs } from "./memory-fs.js";

const lines = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix} ${String(i).padStart(4, "0")}`).join("\n");

const plan: ChainStepOutput = { name: "plan", output: lines("plan", 10_000), path: "/a/run-1/001-plan.txt" };
const review: ChainStepOutput = { name: "review", output: "LGTM", path: "/a/run-1/002-review.txt" };

describe("splices", () => {
  test("{previous} and {outputs.<name>} carry at most 2000 characters plus one line with the path", () => {
    const text = plan.output as string;
    const out = expandChainTemplate("Plan:\n{outputs.plan}\nDone.", [plan, review]);
    const [before, splice, after] = [out.slice(0, 6), out.slice(6, -6), out.slice(-6)];
    expect(before).toBe("Plan:\n");
    expect(after).toBe("\nDone.");
    const spliced = splice.split("\n");
    const pointer = spliced.find((line) => line.startsWith("… "));
    // Lines are 9 characters plus a break; shares of 1000 each end on a break, so 999 + 999 are kept.
    expect(pointer).toBe("… 98001 of 99999 characters cut here; the full output is in /a/run-1/001-plan.txt");
    const kept = splice.replace(`\n${pointer}\n`, "\n");
    expect(kept.length).toBeLessThanOrEqual(2001);
    expect(text.startsWith(splice.slice(0, splice.indexOf("\n…")))).toBe(true);
    expect(text.endsWith(splice.slice(splice.indexOf("\n", splice.indexOf("\n…") + 1) + 1))).toBe(true);
    expect(expandChainTemplate("{previous}", [review, plan])).toBe(expandChainTemplate("{outputs.plan}", [plan]));
  });

  test("a splice that fits is spliced whole, with no pointer line", () => {
    expect(expandChainTemplate("Review said: {previous}.", [plan, review])).toBe("Review said: LGTM.");
  });

  test("{outputs.<name>.full} and {previous.full} splice everything", () => {
    expect(expandChainTemplate("{outputs.plan.full}", [plan, review])).toBe(plan.output);
    expect(expandChainTemplate("{previous.full}", [review, plan])).toBe(plan.output);
  });

  test("spliceChars sets the bound", () => {
    const out = expandChainTemplate("{previous}", [{ name: "s", output: "abcdefghij", path: "/p" }], {
      spliceChars: 4,
    });
    expect(out).toBe("ab\n… 6 of 10 characters cut here; the full output is in /p\nij");
    expect(() => expandChainTemplate("", [], { spliceChars: -1 })).toThrow(BoundsOptionError);
    expect(() => expandChainTemplate("", [], { spliceChars: 1_000_001 })).toThrow(BoundsOptionError);
  });

  test("when names repeat, the latest step wins", () => {
    const steps = [
      { name: "worker", output: "first", path: "/p1" },
      { name: "worker", output: "second", path: "/p2" },
    ];
    expect(expandChainTemplate("{outputs.worker}", steps)).toBe("second");
  });

  test("bytes are spliced as UTF-8 text", () => {
    expect(
      expandChainTemplate("{previous}", [{ name: "b", output: new TextEncoder().encode("héllo"), path: "/p" }]),
    ).toBe("héllo");
  });
});

describe("other braces are left alone", () => {
  test.each([
    '{"json": {"previous": 1}}',
    "function f() { return previous; }",
    "const { previous } = steps;",
    "{previousStep} {outputsDir} {Previous} {OUTPUTS.plan}",
    "${HOME} {} {{}} {x.y} {outputs",
    "{ outputs.plan }",
  ])("%s", (template) => {
    expect(expandChainTemplate(template, [plan])).toBe(template);
  });

  test("placeholders inside other braces still expand", () => {
    expect(expandChainTemplate("{{previous}}", [review])).toBe("{LGTM}");
  });
});

describe("errors name the placeholder and the known outputs", () => {
  test("unknown name", () => {
    const call = () => expandChainTemplate("Use {outputs.revew} here", [plan, review, plan]);
    expect(call).toThrow(ChainUnknownOutputError);
    expect(call).toThrow('Unknown output in chain placeholder "{outputs.revew}": known outputs: "plan", "review"');
    try {
      call();
    } catch (error) {
      expect((error as ChainUnknownOutputError).placeholder).toBe("{outputs.revew}");
      expect((error as ChainUnknownOutputError).known).toEqual(["plan", "review"]);
    }
  });

  test("no previous step", () => {
    expect(() => expandChainTemplate("{previous}", [])).toThrow(ChainNoPreviousError);
    expect(() => expandChainTemplate("{previous.full}", [])).toThrow(
      'No previous step for chain placeholder "{previous.full}": no step has produced output yet',
    );
    expect(() => expandChainTemplate("{outputs.plan}", [])).toThrow(
      'Unknown output in chain placeholder "{outputs.plan}": no step has produced output yet',
    );
  });

  test.each([
    ["{outputs}", "{outputs}"],
    ["{outputs.}", "{outputs.}"],
    ["{outputs.plan.ful}", "{outputs.plan.ful}"],
    ["{outputs.plan.full.x}", "{outputs.plan.full.x}"],
    ["{outputs.a b}", "{outputs.a b}"],
    ["{outputs..plan}", "{outputs..plan}"],
    ["{previous.}", "{previous.}"],
    ["{previous.plan}", "{previous.plan}"],
    ["see {outputs.plan and more", "{outputs.plan and more"],
    ["{outputs.plan\n}", "{outputs.plan"],
    ["{outputs.plan{previous}}", "{outputs.plan"],
  ])("malformed: %j", (template, placeholder) => {
    const call = () => expandChainTemplate(template, [plan, review]);
    expect(call).toThrow(ChainMalformedPlaceholderError);
    expect(call).toThrow(
      `Malformed chain placeholder (expected {previous}, {previous.full}, {outputs.<name>} or {outputs.<name>.full}, <name> of letters, digits, "_" and "-") ${JSON.stringify(placeholder)}: known outputs: "plan", "review"`,
    );
  });

  test("inputs are checked", () => {
    expect(() => expandChainTemplate(1 as unknown as string, [])).toThrow(BoundsInputError);
    expect(() => expandChainTemplate("", {} as unknown as ChainStepOutput[])).toThrow(BoundsInputError);
    expect(() => expandChainTemplate("", [{ name: "a", output: "", path: 3 as unknown as string }])).toThrow(
      "Invalid bounds input steps[0].path: expected a string, got 3",
    );
  });
});

describe("sanitised splices, checked names and paths", () => {
  const hostile = `\x1b]8;;https://x.invalid\x07link\x1b]8;;\x07 \u202egnp.exe\u{E0041}\r\n${"line\n".repeat(1000)}\x1b[31mlast`;

  test("a splice, bounded or whole, passes the sanitiser: no escape sequence, bidi override or hidden tag", () => {
    const step = { name: "s", output: hostile, path: "/a/run-1/001-s.txt" };
    for (const template of ["{previous}", "{previous.full}", "{outputs.s}"]) {
      const out = expandChainTemplate(template, [step], { spliceChars: 200 });
      expect(out).not.toMatch(/[\x1b\x07\r\u202e]|\u{E0041}/u);
      expect(out.startsWith("link gnp.exe\nline\n")).toBe(true);
      expect(out.endsWith("line\nlast")).toBe(true);
    }
    expect(expandChainTemplate("{previous}", [{ ...step, path: null }])).toBe(
      `link gnp.exe\n${"line\n".repeat(1000)}last`,
    );
  });

  test.each(["a.b", "", "with space", "x}", "{x", "new\nline"])("recordChainStep refuses the name %j", async (name) => {
    await expect(recordChainStep(null, name, "out")).rejects.toThrow(BoundsInputError);
    await expect(recordChainStep(null, name, "out")).rejects.toThrow(
      'expected a step name a template can refer to as {outputs.<name>}: letters, digits, "_" and "-"',
    );
  });

  test("a step name that {outputs.<name>} can refer to is accepted, and so is what expandChainTemplate reads", async () => {
    const step = await recordChainStep(null, "plan_2-ü", "out");
    expect(expandChainTemplate("{outputs.plan_2-ü}", [step])).toBe("out");
    expect(() => expandChainTemplate("{previous}", [{ name: "a.b", output: "", path: null }])).toThrow("steps[0].name");
  });

  test("a step path that would break the pointer line is refused", () => {
    for (const path of ["/a\nb", "/a · error: /srv/evil", "/a\u202eb", "/a  b"]) {
      expect(() => expandChainTemplate("{previous}", [{ name: "s", output: "x", path }])).toThrow(BoundsInputError);
    }
  });
});

describe("artifacts on and off", () => {
  test("recordChainStep writes the artifact that splices point at", async () => {
    const fs = memoryFs();
    const run = await openArtifactRun({ dir: "/a", fs });
    const step = await recordChainStep(run, "plan", plan.output);
    expect(step).toEqual({
      name: "plan",
      output: plan.output,
      path: "/a/run-000001/001-plan.txt",
      artifactError: null,
    });
    expect(new TextDecoder().decode(fs.files.get(step.path!))).toBe(plan.output);
    expect(expandChainTemplate("{previous}", [step])).toContain("the full output is in /a/run-000001/001-plan.txt");
  });

  test("with artifacts off there is nowhere to point: the splice is whole, behind the backstop only", async () => {
    const step = await recordChainStep(null, "plan", plan.output);
    expect(step.path).toBeNull();
    expect(expandChainTemplate("{previous}", [step])).toBe(plan.output);
    const huge = await recordChainStep(null, "huge", "z".repeat(300_000));
    expect(expandChainTemplate("{previous}", [huge])).toBe(
      `${"z".repeat(204_800)}\n… truncated: 95200 of 300000 bytes cut by the 204800-byte backstop`,
    );
  });

  test(".full stays behind the backstop, which then names the path", () => {
    const huge = { name: "huge", output: "z".repeat(300_000), path: "/a/run-1/001-huge.txt" };
    expect(expandChainTemplate("{previous.full}", [huge]).slice(204_800)).toBe(
      "\n… truncated: 95200 of 300000 bytes cut by the 204800-byte backstop; the full output is in /a/run-1/001-huge.txt",
    );
  });

  test("a refused write leaves the step unbounded and says why", async () => {
    const fs = memoryFs();
    const run = await openArtifactRun({ dir: "/a", fs });
    fs.failOn.add("plan.txt.tmp");
    const step = await recordChainStep(run, "plan", plan.output);
    expect(step.path).toBeNull();
    expect(step.artifactError?.message).toBe(
      "Cannot write the artifact /a/run-000001/001-plan.txt: ENOSPC: injected failure, /a/run-000001/.001-plan.txt.tmp",
    );
    expect(expandChainTemplate("{previous}", [step])).toBe(plan.output);
  });
});

describe("properties", () => {
  const name = fc.stringMatching(/^[a-z0-9_-]{1,8}$/);
  /** Text the sanitiser leaves as it is: printable ASCII, line feeds, accents and astral characters. */
  const clean = fc.string({ unit: fc.constantFrom("a", "b", " ", "\n", "é", "😀", "{", "x"), maxLength: 50 });
  const output = fc.oneof(
    fc.string({ unit: "binary", maxLength: 50 }),
    fc
      .tuple(fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: 400 }))
      .map(([s, n]) => s.repeat(n)),
  );
  const stepsOf = (text: fc.Arbitrary<string>) =>
    fc.array(
      fc.record({ name, output: text, path: fc.option(fc.constantFrom("/a/run-1/001-x.txt", "/b/run 2/002-y.txt")) }),
      { minLength: 1, maxLength: 5 },
    );
  const steps = stepsOf(output);

  test("any output: a splice is sanitised, within the budget plus one pointer line", () => {
    fc.assert(
      fc.property(steps, fc.integer({ min: 0, max: 300 }), (list, spliceChars) => {
        const step = list[list.length - 1]!;
        const out = expandChainTemplate("{previous}", list, { spliceChars });
        expect(sanitizeText(out)).toBe(out);
        const pointer = out
          .split("\n")
          .find((line) => line.startsWith("… ") && line.includes(" characters cut here; "));
        const shown = pointer === undefined ? out : out.replace(`${pointer}`, "");
        if (step.path !== null) expect(shown.length).toBeLessThanOrEqual(spliceChars + 2);
      }),
    );
  });

  test("clean output: a bounded splice is a prefix and a suffix of the output within the budget, plus one pointer line", () => {
    fc.assert(
      fc.property(
        stepsOf(clean.chain((s) => fc.integer({ min: 1, max: 300 }).map((n) => s.repeat(n)))),
        fc.integer({ min: 0, max: 300 }),
        (list, spliceChars) => {
          const step = list[list.length - 1]!;
          const text = step.output;
          const out = expandChainTemplate("{previous}", list, { spliceChars });
          if (step.path === null || text.length <= spliceChars) {
            expect(out).toBe(text);
            return;
          }
          const line = `… (\\d+) of ${text.length} characters cut here; the full output is in ${step.path}`;
          const pointer = new RegExp(`(?:^|\\n)${line}(?:\\n|$)`);
          const match = pointer.exec(out);
          expect(match).not.toBeNull();
          const head = out.slice(0, match!.index);
          const tail = out.slice(match!.index + match![0].length);
          expect(text.startsWith(head)).toBe(true);
          expect(text.endsWith(tail)).toBe(true);
          expect(head.length + tail.length).toBeLessThanOrEqual(spliceChars);
          expect(head.length + Number(match![1]) + tail.length).toBe(text.length);
        },
      ),
    );
  });

  test("every placeholder expands to its step's splice and the rest of the template is kept", () => {
    const literal = fc.stringMatching(/^[^{}]{0,10}$/);
    fc.assert(
      fc.property(
        steps,
        fc.array(fc.tuple(literal, fc.nat(), fc.boolean()), { maxLength: 4 }),
        literal,
        (list, parts, last) => {
          const names = list.map((s) => s.name);
          let template = "";
          let expected = "";
          for (const [text, pick, full] of parts) {
            const stepName = names[pick % names.length]!;
            const step = list.findLast((s) => s.name === stepName)!;
            template += `${text}{outputs.${stepName}${full ? ".full" : ""}}`;
            expected += text + expandChainTemplate(full ? "{previous.full}" : "{previous}", [step]);
          }
          expect(expandChainTemplate(template + last, list)).toBe(expected + last);
        },
      ),
    );
  });
});
