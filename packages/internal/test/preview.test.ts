import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { PREVIEW_CHARS, previewValue, typeName } from "@orphus/internal";

describe("previewValue: what an error message shows of a value", () => {
  test("cuts a string at 60 characters", () => {
    expect(PREVIEW_CHARS).toBe(60);
  });

  test.each([
    ["lobby", '"lobby"'],
    ["", '""'],
    ['a "quoted"\nline', '"a \\"quoted\\"\\nline"'],
    ["x".repeat(60), `"${"x".repeat(60)}"`],
    ["x".repeat(61), `"${"x".repeat(60)}"… (61 characters)`],
    ["é".repeat(100), `"${"é".repeat(60)}"… (100 characters)`],
  ])("a string, quoted and cut with its length in characters: %j", (value, shown) => {
    expect(previewValue(value)).toBe(shown);
  });

  test.each([
    [0, "0"],
    [-1.5, "-1.5"],
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "Infinity"],
  ])("a number as it is: %s", (value, shown) => {
    expect(previewValue(value)).toBe(shown);
  });

  test.each([
    [null, "null"],
    [undefined, "undefined"],
    [[1, 2, 3], "an array"],
    [{ password: "hunter2" }, "an object"],
    [new Uint8Array(3), "an object"],
    [true, "a boolean"],
    [10n, "a bigint"],
    [Symbol("s"), "a symbol"],
    [() => "source", "a function"],
  ])("anything else by its type, never its contents: %s", (value, shown) => {
    expect(previewValue(value)).toBe(shown);
  });

  test("never throws and never says more than a cut string does", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const shown = previewValue(value);
        // The longest form: 60 characters, each escaped as \uXXXX, in quotes, then the length of the string.
        expect(shown.length).toBeLessThanOrEqual(
          2 + 6 * PREVIEW_CHARS + `… (${Number.MAX_SAFE_INTEGER} characters)`.length,
        );
      }),
    );
  });
});

describe("typeName: the kind of a value, never its contents", () => {
  test.each([
    [null, "null"],
    [undefined, "undefined"],
    [[], "an array"],
    [{}, "an object"],
    ["text", "a string"],
    [1, "a number"],
    [false, "a boolean"],
  ])("%j is %s", (value, name) => {
    expect(typeName(value)).toBe(name);
  });
});
