// The post reply's template (src/post-reply.ts) against JSON.stringify, the naive reference it replaces: for any id,
// room, seq and time, with and without `repeated`, the same text; and a literal reply as it goes on the wire.
import fc from "fast-check";
import { expect, test } from "vitest";
import { postReplyJson, type PostReply } from "../src/post-reply.js";

const reply = (id: number, room: string, seq: number, postedAt: number, repeated: boolean): PostReply => ({
  id,
  ok: true,
  op: "post",
  result: repeated ? { room, seq, postedAt, repeated: true } : { room, seq, postedAt },
});

test("a post reply's text, literally", () => {
  expect(postReplyJson(reply(7, "design", 42, 1_764_900_000_000, false))).toBe(
    '{"id":7,"ok":true,"op":"post","result":{"room":"design","seq":42,"postedAt":1764900000000}}',
  );
  expect(postReplyJson(reply(8, "design", 42, 1_764_900_000_000, true))).toBe(
    '{"id":8,"ok":true,"op":"post","result":{"room":"design","seq":42,"postedAt":1764900000000,"repeated":true}}',
  );
});

test("the template writes exactly what JSON.stringify writes", () => {
  const number = fc.oneof(
    fc.nat(),
    fc.maxSafeNat(),
    fc.integer(),
    fc.double(),
    fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 1.5e-7),
  );
  fc.assert(
    fc.property(
      fc.oneof(fc.nat(), fc.maxSafeNat()),
      fc.string({ unit: "binary", maxLength: 80 }),
      number,
      number,
      fc.boolean(),
      (id, room, seq, postedAt, repeated) => {
        const value = reply(id, room, seq, postedAt, repeated);
        expect(postReplyJson(value)).toBe(JSON.stringify(value));
      },
    ),
    { numRuns: 2_000 },
  );
});
