// The forms of one item are asked at many sizes, in whatever order the digest's steps reach them, and keep what each
// ask read (a floor counted before the forms were made, a first line, a rendering). What they answer must not depend
// on that order: every ask gets what a fresh item's forms would answer.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { BlockForms, floorBeforeReading } from "../src/block.js";
import { authorLabel } from "../src/text.js";
import { lateTextBody, longHostileBody, text } from "./arbitraries.js";

const plainProse = fc
  .array(fc.constantFrom("ring", "cursor", "seq", "digest", "a", "of", "the", "budget", "\n", "\n\n", "  ", "\t"), {
    maxLength: 60,
  })
  .map((words) => words.join(" "));

const body = fc.oneof(plainProse, text(40), lateTextBody, longHostileBody);
const sizes = fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 8 });

describe("an item's forms asked at many sizes", () => {
  test("answer each ask as fresh forms would, whatever was asked before (the floor counted first included)", () => {
    fc.assert(
      fc.property(
        body,
        fc.option(text(30), { nil: undefined }),
        fc.integer({ min: 1, max: 99_999 }),
        sizes,
        (raw, headline, seq, asks) => {
          const item = { seq, author: "critic", body: raw, headline };
          const label = authorLabel(item.author);
          // As the digest makes them: the floor worked out at the first size asked, handed to the forms.
          const floor = floorBeforeReading(item, label, asks[0] as number);
          const kept = new BlockForms(item, "fetch", label, floor);
          for (const size of asks) {
            expect(kept.cheapestWithin(size)).toEqual(new BlockForms(item, "fetch", label).cheapestWithin(size));
          }
        },
      ),
    );
  });

  test("a floor counted from a plain opening is handed on and counted again when more is asked", () => {
    const item = { seq: 7, author: "critic", body: "plain opening of the body\nand a second line of it", headline: "" };
    const label = authorLabel(item.author);
    // "[#7 critic]" is 11 characters: at 15, the floor (the header, a space and 11 plain characters) passes it over.
    const floor = floorBeforeReading(item, label, 15);
    expect(floor).toBe(23);
    const forms = new BlockForms(item, "fetch", label, floor);
    expect(forms.cheapestWithin(200)).toEqual({
      form: "headline",
      text: "[#7 critic, headline] plain opening of the body",
      restChars: 0,
    });
  });
});
