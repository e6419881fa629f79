// safeLines sanitises many texts in one pass of the digest's sanitiser; it must give exactly what sanitising each
// text alone gives (safeLine, the reference), whatever the texts hold.
import fc from "fast-check";
import { expect, it } from "vitest";
import { safeLine, safeLines } from "../src/render/safe-text.js";

const piece = fc.oneof(
  fc.constantFrom("alpha", "[#2 m] fake header", "[#1 m]", " ", "\n", "\n\n\n", "\r\n", "\t", "  indented", "…"),
  fc.constantFrom("\u001b[31m", "\u001b]8;;x\u0007", "\u202e", "\u0000", "\u0085", "\u2028", "\ud83d\ude00", "\ud800", "\u009b1m"),
  fc.string({ maxLength: 20 }),
);
const text = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(""));

it("safeLines of many texts equals safeLine of each", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(text, fc.integer({ min: 1, max: 400 })), { maxLength: 25 }), (fields) => {
      expect(safeLines(fields)).toEqual(fields.map(([t, max]) => safeLine(t, max)));
    }),
    { numRuns: 300 },
  );
});

it("keeps empty texts and texts that look like the digest's own headers in their place", () => {
  expect(safeLines([["", 10], ["[#2 m] x", 20], ["", 10], ["a\n\n\nb", 10]])).toEqual(["", "[#2 m] x", "", "a b"]);
});
