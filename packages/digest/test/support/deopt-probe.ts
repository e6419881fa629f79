// Renders a full ring (500 messages of 2 KB at budget 4000) until V8 has optimized the digest, then 20 rounds of a
// forced full garbage collection followed by 100 digests, printing "=== measured" between the two phases. Run with
// --expose-gc --trace-deopt; the test counts the deoptimizations after the marker.
import { renderDigest } from "@orphus/digest";

const line = "ring cursor seq digest budget headline marker evict fetch room broker critic planner reviewer\n";
const body = line.repeat(Math.ceil(2048 / line.length)).slice(0, 2048);
const items = Array.from({ length: 500 }, (_, i) => ({
  seq: 1000 + i,
  author: i % 2 === 0 ? "planner" : "critic",
  body: `${i}: ${body}`,
}));
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with --expose-gc");
let sink = 0;
for (let i = 0; i < 1000; i++) sink += renderDigest({ items, budget: 4000 }).text.length;
console.log("=== measured");
for (let round = 0; round < 20; round++) {
  gc();
  for (let i = 0; i < 100; i++) sink += renderDigest({ items, budget: 4000 }).text.length;
}
console.log(`=== done ${sink}`);
