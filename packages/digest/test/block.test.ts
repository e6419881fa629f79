import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { DigestInputError, renderBlock, renderDigest, type BlockSource } from "@orphus/digest";
import { text as hostileText } from "./arbitraries.js";
import { best } from "./reference.js";

const log = `Build started\n${Array.from({ length: 60 }, (_, i) => `step ${i + 1}: ok`).join("\n")}\nBuild finished`;

describe("renderBlock", () => {
  test("whole when it fits: the same block a digest shows, so its length is the rendered length", () => {
    const source = { seq: 4, author: "ci", body: "\x1b[32mgreen\x1b[0m\r\nsecond line" };
    expect(renderBlock(source, 100)).toEqual({ form: "full", text: "[#4 ci] green\n  second line", restChars: 0 });
    expect(renderBlock(source, 27)?.form).toBe("full");
    expect(renderDigest({ items: [source], budget: 100 }).text).toBe("[#4 ci] green\n  second line");
  });

  test("else its opening, cut at a safe boundary, and how many raw characters follow and how to read them", () => {
    const block = renderBlock({ seq: 12, author: "ci", body: log }, 160);
    expect(block).toEqual({
      form: "excerpt",
      text:
        "[#12 ci, excerpt] Build started\n  step 1: ok\n  step 2: ok\n  step 3: ok\n  step 4: ok\n  step 5: ok\n" +
        "  … 671 more characters: fetch afterSeq=11 to read it whole",
      restChars: 671,
    });
    expect(log.length - log.indexOf("step 5: ok") - "step 5: ok".length).toBe(671);
    expect(renderBlock({ seq: 12, author: "ci", body: log }, 160, { recovery: "pinned" })?.text).toBe(
      "[#12 ci, excerpt] Build started\n  step 1: ok\n  step 2: ok\n  step 3: ok\n  step 4: ok\n  step 5: ok\n" +
        "  step\n  … 666 more characters: full output via the pinned line",
    );
  });

  test("null when not even the shortest excerpt fits", () => {
    expect(renderBlock({ seq: 12, author: "ci", body: log }, 100)).toBeNull();
    expect(renderBlock({ seq: 1, author: "a", body: "" }, 5)).toBeNull();
    expect(renderBlock({ seq: 1, author: "a", body: "" }, 6)).toEqual({ form: "full", text: "[#1 a]", restChars: 0 });
  });

  test("input is checked", () => {
    expect(() => renderBlock({ seq: 0, author: "a", body: "" }, 10)).toThrow(DigestInputError);
    expect(() => renderBlock({ seq: 1, author: "a", body: 5 } as unknown as BlockSource, 10)).toThrow(
      "Invalid digest input block.body: expected a string, got 5",
    );
    expect(() => renderBlock({ seq: 1, author: "a", body: "" }, -1)).toThrow("maxLength");
    expect(() => renderBlock({ seq: 1, author: "a", body: "" }, 1, { recovery: "mail" as "fetch" })).toThrow(
      "recovery",
    );
  });

  test("property: within maxLength, equal to the naive reference, the opening a prefix of the whole", () => {
    const source = fc.record({
      seq: fc.integer({ min: 1, max: 100_000 }),
      author: fc.constantFrom("a", "planner"),
      body: fc.oneof(hostileText(40), fc.string({ maxLength: 400 }), fc.constant(log)),
      headline: fc.option(hostileText(8), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        source,
        fc.integer({ min: 0, max: 500 }),
        fc.constantFrom("fetch", "pinned"),
        (item, max, recovery) => {
          const block = renderBlock(item, max, { recovery });
          const expected = best(item, max, recovery);
          expect(block === null ? null : { form: block.form, text: block.text, rest: block.restChars }).toEqual(
            expected,
          );
          if (block === null) return;
          expect(block.text.length).toBeLessThanOrEqual(max);
          const whole = renderBlock(item, Number.POSITIVE_INFINITY, { recovery });
          expect(whole?.form).toBe("full");
          if (block.form === "excerpt") {
            const opening = block.text.slice(block.text.indexOf("] ") + 2, block.text.lastIndexOf("\n"));
            expect(whole?.text.slice(whole.text.indexOf("] ") + 2).startsWith(opening)).toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
