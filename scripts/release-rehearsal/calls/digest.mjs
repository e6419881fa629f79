// Import-and-call check of @orphus/digest as installed from the registry: a digest of 200 long messages stays
// within its budget plus one marker line, and the newest message is there. Prints one line; throws otherwise.
import assert from "node:assert/strict";
import { maxDigestLength, renderDigest } from "@orphus/digest";

const items = Array.from({ length: 200 }, (_, i) => ({
  seq: i + 1,
  author: "planner",
  body: `note ${i + 1}: ${"x".repeat(500)}`,
}));
const digest = renderDigest({ items, budget: 600 });
assert.ok(digest.text.length <= maxDigestLength(600), `digest of ${digest.text.length} characters`);
assert.equal(digest.newestSeq, 200);
assert.ok(digest.text.includes("note 200"));
console.log(`digest: 200 messages of 500+ characters in ${digest.text.length} characters at budget 600`);
