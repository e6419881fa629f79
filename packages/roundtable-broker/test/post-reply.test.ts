// The post reply's template (src/post-reply.ts) against JSON.stringify and Buffer.byteLength, the naive reference it
// replaces: for any id, room, seq and time, with and without `repeated`, the same text and the same UTF-8 bytes, in
// any order of rooms (the writer keeps the last room's JSON); and a literal reply as it goes on the wire.
import fc from "fast-check";
import { expect, test } from "vitest";
import { PostReplyWriter, type PostReply } from "../src/post-reply.js";

const reply = (id: number, room: string, seq: number, postedAt: number, repeated: boolean): PostReply => ({
  id,
  ok: true,
  op: "post",
  result: repeated ? { room, seq, postedAt, repeated: true } : { room, seq, postedAt },
});

test("a post reply's text and bytes, literally", () => {
  const writer = new PostReplyWriter();
  expect(writer.frame(reply(7, "design", 42, 1_764_900_000_000, false))).toEqual({
    text: '{"id":7,"ok":true,"op":"post","result":{"room":"design","seq":42,"postedAt":1764900000000}}',
    payloadBytes: 91,
  });
  expect(writer.frame(reply(8, "design", 42, 1_764_900_000_000, true))).toEqual({
    text: '{"id":8,"ok":true,"op":"post","result":{"room":"design","seq":42,"postedAt":1764900000000,"repeated":true}}',
    payloadBytes: 107,
  });
  // A room outside ASCII (a store with its own room pattern): "é" is two bytes, "𝄞" four.
  expect(writer.frame(reply(9, "café-𝄞", 1, 5, false))).toEqual({
    text: '{"id":9,"ok":true,"op":"post","result":{"room":"café-𝄞","seq":1,"postedAt":5}}',
    payloadBytes: 82,
  });
});

test("the writer writes exactly what JSON.stringify writes, measured as Buffer.byteLength measures, in any room order", () => {
  const number = fc.oneof(
    fc.nat(),
    fc.maxSafeNat(),
    fc.integer(),
    fc.double(),
    fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 1.5e-7),
  );
  const replyArbitrary = (rooms: readonly string[]) =>
    fc.tuple(fc.oneof(fc.nat(), fc.maxSafeNat()), fc.constantFrom(...rooms), number, number, fc.boolean());
  fc.assert(
    fc.property(
      fc
        .array(fc.string({ unit: "binary", maxLength: 40 }), { minLength: 1, maxLength: 4 })
        .chain((rooms) => fc.array(replyArbitrary(rooms), { minLength: 1, maxLength: 12 })),
      (replies) => {
        const writer = new PostReplyWriter();
        for (const [id, room, seq, postedAt, repeated] of replies) {
          const value = reply(id, room, seq, postedAt, repeated);
          const text = JSON.stringify(value);
          expect(writer.frame(value)).toEqual({ text, payloadBytes: Buffer.byteLength(text) });
        }
      },
    ),
    { numRuns: 1_000 },
  );
});
