// The digest renders each body once and answers every size it tries from that one rendering. This checks the
// answers against a fresh rendering of each ask, asked in any order, on bodies whose text is sparse or starts late.
import fc from "fast-check";
import { expect, test } from "vitest";
import { BodyRendering, renderBody, restAfter, type RenderedBody } from "../src/body.js";
import { lateTextBody, longHostileBody, text } from "./arbitraries.js";

/**
 * Whether `kept` answers as `fresh` does for an ask of `max`: the same verdict, and the same text and raw positions
 * as far as any use reads (the first `max` + 1 characters when the text is longer than `max`; where it stops after
 * that depends on the sizes asked before).
 */
function checkSame(kept: RenderedBody, fresh: RenderedBody, max: number): void {
  expect(kept.complete).toBe(fresh.complete);
  const read = fresh.text.length > max ? max + 1 : fresh.text.length;
  expect(kept.text.length > max).toBe(fresh.text.length > max);
  expect(kept.text.slice(0, read)).toBe(fresh.text.slice(0, read));
  if (fresh.text.length <= max) expect(kept.text).toBe(fresh.text);
  for (let end = 1; end <= read; end++) {
    const last = fresh.text.charCodeAt(end - 1);
    if (last === 0x20 || last === 0x0a) continue; // an opening never ends in blank space
    const [now, before] = [restAfter(kept, end), restAfter(fresh, end)];
    if (now !== before) expect({ end, rest: now }).toEqual({ end, rest: before });
  }
}

const ask = fc.oneof(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 3000 }));

test("asked in any order, the kept rendering answers as a fresh rendering of each ask", () => {
  fc.assert(
    fc.property(
      fc.oneof(longHostileBody, lateTextBody, text(40)),
      fc.array(ask, { minLength: 1, maxLength: 8 }),
      (body, asks) => {
        const kept = new BodyRendering(body);
        for (const max of asks) {
          kept.extend(max);
          checkSame(kept.view(max), renderBody(body, max), max);
        }
      },
    ),
    { numRuns: 1500 },
  );
});
