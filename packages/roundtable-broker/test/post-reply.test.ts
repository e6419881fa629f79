// The post reply is written from a template; it must be the very text JSON.stringify gives the reply object, for
// every result a store can answer, whatever room names it accepts (the naive reference is JSON.stringify itself).
import fc from "fast-check";
import { expect, test } from "vitest";
import { postReplyJson } from "../src/post-reply.js";

// The protocol's room names, and anything else a store with its own pattern might accept (quotes, controls, astral).
const roomName = fc.oneof(fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,63}$/), fc.string({ unit: "binary", maxLength: 64 }));
const safe = fc.nat({ max: Number.MAX_SAFE_INTEGER });

test("the post reply's text is exactly JSON.stringify of the reply", () => {
  fc.assert(
    fc.property(safe, roomName, safe, safe, fc.boolean(), (id, room, seq, postedAt, repeated) => {
      const result = repeated ? { room, seq, postedAt, repeated: true as const } : { room, seq, postedAt };
      expect(postReplyJson(id, result)).toBe(JSON.stringify({ id, ok: true, op: "post", result }));
    })
  );
});

test("a stored post's reply, as sent", () => {
  expect(postReplyJson(7, { room: "design", seq: 12, postedAt: 1764547200000 })).toBe(
    '{"id":7,"ok":true,"op":"post","result":{"room":"design","seq":12,"postedAt":1764547200000}}'
  );
  expect(postReplyJson(0, { room: "a", seq: 1, postedAt: 0, repeated: true })).toBe(
    '{"id":0,"ok":true,"op":"post","result":{"room":"a","seq":1,"postedAt":0,"repeated":true}}'
  );
});
