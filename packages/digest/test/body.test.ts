// The digest renders each body once and answers every size and read limit it tries from that one rendering. This
// checks the answers against a fresh rendering of each ask, asked in any order, on bodies where a read limit falls
// inside sparse text or cuts an escape sequence open.
import fc from "fast-check";
import { expect, test } from "vitest";
import { BodyRendering, renderBody, restAfter, type RenderedBody } from "../src/body.js";
import { longHostileBody, text } from "./arbitraries.js";

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

const ask = fc.oneof(
  fc.record({ max: fc.integer({ min: 0, max: 400 }), limit: fc.constant("bounded" as const) }),
  fc.record({ max: fc.integer({ min: 0, max: 3000 }), limit: fc.integer({ min: 0, max: 25_000 }) }),
  fc.record({ max: fc.integer({ min: 0, max: 3000 }), limit: fc.constant(Number.POSITIVE_INFINITY) }),
);

test("asked in any order, the kept rendering answers as a fresh rendering of each ask", () => {
  fc.assert(
    fc.property(fc.oneof(longHostileBody, text(40)), fc.array(ask, { minLength: 1, maxLength: 8 }), (body, asks) => {
      const kept = new BodyRendering(body);
      for (const { max, limit } of asks) {
        const rawLimit = limit === "bounded" ? 4 * max + 64 : limit;
        checkSame(kept.within(max, rawLimit), renderBody(body, max, rawLimit), max);
      }
    }),
    { numRuns: 1500 },
  );
});

test("a read limit inside sparse text: the whole body's text past the limit is not what the shorter read shows", () => {
  // One visible character in every 10 raw ones: a read of 4 × 30 + 64 raw characters shows 18 of them.
  const body = "\x1b[31m\x1b[2Kx".repeat(500);
  const kept = new BodyRendering(body);
  kept.within(400, Number.POSITIVE_INFINITY); // the whole body's rendering now runs past 400 characters
  checkSame(kept.within(30, 4 * 30 + 64), renderBody(body, 30, 4 * 30 + 64), 30);
  expect(kept.within(30, 4 * 30 + 64).text).toBe("x".repeat(18));
});

test("a read that stops just before the text after a space does not show that space", () => {
  // "a", a space, escape sequences, then "b" at raw index 27: a read of 27 characters shows "a" alone.
  const body = `a ${"\x1b[31m".repeat(5)}b and more`;
  const kept = new BodyRendering(body);
  kept.within(100, Number.POSITIVE_INFINITY);
  for (const rawLimit of [26, 27, 28, 29]) checkSame(kept.within(1, rawLimit), renderBody(body, 1, rawLimit), 1);
  expect(kept.within(1, 27).text).toBe("a");
  expect(kept.within(1, 28).text).toBe("a b");
});
