import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  chainRefusalOf,
  describeChainRefusal,
  formatChainRefusal,
  MAX_CHAIN_REFUSAL_LENGTH,
  OrkeonCrewOptionError,
  parseChainRefusal,
  type ChainRefusal,
} from "@orphus/orkeon-crew";

const count = fc.integer({ min: 0, max: 999_999_999_999_999 });
const commandChar = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:-".split(""));
const command = fc
  .tuple(fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789".split("")), fc.array(commandChar, { maxLength: 63 }))
  .map(([first, rest]) => first + rest.join(""));
const refusal: fc.Arbitrary<ChainRefusal> = fc.record({ depth: count, limit: count, command });

describe("the chain refusal in its wording since #221", () => {
  test("gives depth, limit and command", () => {
    expect(parseChainRefusal("chain depth 3 reached (MaxChainDepth 3, /dev-implement)")).toEqual({
      depth: 3,
      limit: 3,
      command: "dev-implement",
    });
    expect(formatChainRefusal({ depth: 12, limit: 10, command: "dev-batches" })).toBe(
      "chain depth 12 reached (MaxChainDepth 10, /dev-batches)",
    );
  });

  test.each([
    "chain depth limit reached",
    "Chain depth 3 reached (MaxChainDepth 3, /dev-implement)",
    "chain depth 3 reached (MaxChainDepth 3, dev-implement)",
    "chain depth 3 reached (MaxChainDepth 3)",
    "chain depth 3 reached (MaxChainDepth 3, /)",
    "chain depth 03 reached (MaxChainDepth 3, /dev-implement)",
    "chain depth -3 reached (MaxChainDepth 3, /dev-implement)",
    "chain depth 3 reached (MaxChainDepth 3, /dev implement)",
    "chain depth 3 reached (MaxChainDepth 3, /dev-implement).",
    " chain depth 3 reached (MaxChainDepth 3, /dev-implement)",
    "Error: chain depth 3 reached (MaxChainDepth 3, /dev-implement)",
    "chain depth 3 reached  (MaxChainDepth 3, /dev-implement)",
    "chain depth 1234567890123456 reached (MaxChainDepth 3, /dev-implement)",
    "",
  ])("is not read from %j", (text) => {
    expect(parseChainRefusal(text)).toBeUndefined();
  });

  test("a text past the bound is not a refusal", () => {
    const long = `chain depth 3 reached (MaxChainDepth 3, /${"a".repeat(MAX_CHAIN_REFUSAL_LENGTH)})`;
    expect(parseChainRefusal(long)).toBeUndefined();
  });

  test("is read off a rejection's message or a bare string", () => {
    const text = "chain depth 2 reached (MaxChainDepth 2, /dev-implement)";
    expect(chainRefusalOf(new Error(text))).toEqual({ depth: 2, limit: 2, command: "dev-implement" });
    expect(chainRefusalOf(text)).toEqual({ depth: 2, limit: 2, command: "dev-implement" });
    expect(chainRefusalOf(new Error("boom"))).toBeUndefined();
    expect(chainRefusalOf(42)).toBeUndefined();
    expect(chainRefusalOf({ message: 42 })).toBeUndefined();
  });

  test("is described with the command it names", () => {
    expect(describeChainRefusal({ depth: 3, limit: 3, command: "dev-implement" })).toBe(
      "The chain of /dev-implement stopped: depth 3 reached MaxChainDepth 3. Type the next step by hand, or raise MaxChainDepth.",
    );
  });

  test("formatting refuses what the wording cannot carry", () => {
    expect(() => formatChainRefusal({ depth: -1, limit: 3, command: "x" })).toThrow(OrkeonCrewOptionError);
    expect(() => formatChainRefusal({ depth: 1.5, limit: 3, command: "x" })).toThrow(OrkeonCrewOptionError);
    expect(() => formatChainRefusal({ depth: 1, limit: 3, command: "/x" })).toThrow(
      "Invalid option refusal.command: expected a command name without its slash",
    );
    expect(() => formatChainRefusal({ depth: 1, limit: 3, command: "a b" })).toThrow(OrkeonCrewOptionError);
  });

  test("property: round-trips its own format", () => {
    fc.assert(
      fc.property(refusal, (r) => {
        const text = formatChainRefusal(r);
        expect(parseChainRefusal(text)).toEqual(r);
        expect(formatChainRefusal(parseChainRefusal(text) as ChainRefusal)).toBe(text);
      }),
    );
  });

  test("property: rejects near-misses of a valid refusal", () => {
    // One edit of a valid refusal: a character inserted, deleted or replaced anywhere. Edits that yield another
    // valid refusal (a digit for a digit, a command character for another) must parse to what the text says.
    const edit = fc.record({
      kind: fc.constantFrom("insert", "delete", "replace"),
      at: fc.nat(),
      char: fc.oneof(
        fc.constantFrom(..."( )/,-_.:0123456789aZ\n\t".split("")),
        fc.string({ minLength: 1, maxLength: 1 }),
      ),
    });
    fc.assert(
      fc.property(refusal, edit, (r, e) => {
        const text = formatChainRefusal(r);
        const at = e.at % (text.length + (e.kind === "insert" ? 1 : 0));
        const mutated =
          e.kind === "insert"
            ? text.slice(0, at) + e.char + text.slice(at)
            : e.kind === "delete"
              ? text.slice(0, at) + text.slice(at + 1)
              : text.slice(0, at) + e.char + text.slice(at + 1);
        const parsed = parseChainRefusal(mutated);
        if (parsed === undefined) return;
        // Still accepted: then it is exactly a refusal in the wording, and formats back to itself.
        expect(formatChainRefusal(parsed)).toBe(mutated);
      }),
    );
  });

  test("property: texts that are not the wording never parse", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        const parsed = parseChainRefusal(text);
        if (parsed !== undefined) expect(formatChainRefusal(parsed)).toBe(text);
      }),
    );
    fc.assert(
      fc.property(refusal, fc.string({ minLength: 1, maxLength: 8 }), fc.boolean(), (r, noise, before) => {
        const text = formatChainRefusal(r);
        expect(parseChainRefusal(before ? noise + text : text + noise)).toBeUndefined();
      }),
    );
  });
});
