import { expect, test } from "vitest";
import * as digest from "@orphus/digest";

test("the public surface is exactly this", () => {
  expect(Object.keys(digest).sort()).toEqual([
    "AUTHOR_MAX_LENGTH",
    "DEFAULT_DIGEST_BUDGET",
    "DigestError",
    "DigestInputError",
    "DigestLimitError",
    "LINE_SCAN_LIMIT",
    "MARKER_PREFIX",
    "MAX_DIGEST_BUDGET",
    "MAX_DIGEST_ITEMS",
    "MAX_MARKER_LENGTH",
    "PINNED_LINE_MAX_LENGTH",
    "cutAtWord",
    "escapeIdentity",
    "maxDigestLength",
    "renderBlock",
    "renderDigest",
    "sanitizeText",
  ]);
});

test("limits and format constants", () => {
  expect(digest.DEFAULT_DIGEST_BUDGET).toBe(2000);
  expect(digest.MAX_DIGEST_BUDGET).toBe(1000000);
  expect(digest.MAX_DIGEST_ITEMS).toBe(10000);
  expect(digest.AUTHOR_MAX_LENGTH).toBe(64);
  expect(digest.PINNED_LINE_MAX_LENGTH).toBe(512);
  expect(digest.LINE_SCAN_LIMIT).toBe(4096);
  expect(digest.MARKER_PREFIX).toBe("[digest] ");
  expect(digest.MAX_MARKER_LENGTH).toBe(235);
  expect(digest.maxDigestLength(2000)).toBe(2236);
  expect(digest.maxDigestLength(2000, 4)).toBe(2236 + 4 * 513);
});

test("MAX_MARKER_LENGTH is reached by the widest input and never passed", () => {
  const top = Number.MAX_SAFE_INTEGER;
  const n = digest.MAX_DIGEST_ITEMS;
  const items = Array.from({ length: n }, (_, i) => ({ seq: top - n + 1 + i, author: "a", body: "b" }));
  // A range as the ring reports it: contiguous, so its count is toSeq - fromSeq + 1 (16 digits still).
  const evicted = { count: top - n - 1e15 + 1, fromSeq: 1e15, toSeq: top - n };
  const fetch = digest.renderDigest({ items, budget: 0, evicted });
  expect(fetch.marker).toBe(
    "[digest] 8007199254730992 messages evicted before you read them (#1000000000000000–#9007199254730991), " +
      "no longer retrievable; 10000 messages collapsed (#9007199254730992–#9007199254740991), " +
      "fetch afterSeq=9007199254730991 to read them.",
  );
  expect(fetch.marker?.length).toBe(235);
  const pinned = digest.renderDigest({ items, budget: 0, evicted, recovery: "pinned" });
  expect(pinned.marker?.length).toBeLessThanOrEqual(235);
});

test("error names and codes are stable", () => {
  const input = new digest.DigestInputError("budget", "a non-negative safe integer", -1);
  expect([input.name, input.code, input.field]).toEqual(["DigestInputError", "ERR_DIGEST_INVALID_INPUT", "budget"]);
  expect(input.message).toBe("Invalid digest input budget: expected a non-negative safe integer, got -1");
  expect(input).toBeInstanceOf(digest.DigestError);
  const limit = new digest.DigestLimitError("budget", 1000000, 2000000);
  expect([limit.name, limit.code, limit.limit, limit.max, limit.got]).toEqual([
    "DigestLimitError",
    "ERR_DIGEST_LIMIT_EXCEEDED",
    "budget",
    1000000,
    2000000,
  ]);
  expect(limit.message).toBe("Digest budget 2000000 is above the maximum of 1000000 characters (MAX_DIGEST_BUDGET)");
  expect(limit).toBeInstanceOf(digest.DigestError);
});
