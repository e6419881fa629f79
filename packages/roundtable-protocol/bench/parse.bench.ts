// What checking a request costs beside decoding it: parseRequest on 100k decoded post requests (the broker's most
// frequent request) as a ratio to JSON.parse of the same payloads, the decode every request pays anyway. The sides
// alternate in blocks (bench-support/harness.ts); the figure is the median of per-block ratios with its spread.
// Informative: #20 asks whether a path faster than the zod object schema pays for itself on the broker's hot path.
import { parseRequest } from "@orphus/roundtable-protocol";
import { compareInBlocks, elapsedMs } from "../../../bench-support/harness.js";
import { benchNotes } from "../../../bench-support/report.js";

benchNotes([
  "With the zod object schema alone, checking a post cost 0.76x to 1.12x its JSON.parse; the hand check of plainly " +
    "valid posts (src/plain-post.ts), which gives exactly what the schema would, brought it to 0.34x to 0.52x, about " +
    "0.5 µs a post, on a machine loaded by other suites.",
]);

const REQUESTS = 100_000;
const BODY = "The ring keeps 500 messages; sequence numbers are never reused, so afterSeq stays stable. ".repeat(2);

const texts = Array.from({ length: REQUESTS }, (_, i) =>
  JSON.stringify(
    i % 4 === 0
      ? { id: i, op: "post", room: "design-review", body: BODY, idempotencyKey: `key-${i}` }
      : { id: i, op: "post", room: "design-review", body: BODY },
  ),
);
const decoded = texts.map((text) => JSON.parse(text) as unknown);

let sink = 0;
await compareInBlocks({
  name: "roundtable-protocol.parse-post-request-vs-json-parse",
  about:
    "parseRequest on 100k decoded post requests (a quarter with an idempotency key) against JSON.parse of the same " +
    "payloads, the decode every request pays anyway (informative).",
  unit: "ms per 100k requests",
  blocks: 9,
  subject: () =>
    elapsedMs(() => {
      for (const value of decoded) if (parseRequest(value).ok) sink++;
    }),
  baseline: () =>
    elapsedMs(() => {
      for (const text of texts) sink += (JSON.parse(text) as { id: number }).id;
    }),
  detail: ({ subject, baseline }) =>
    `${((subject * 1000) / REQUESTS).toFixed(3)} µs to check a post request vs ${((baseline * 1000) / REQUESTS).toFixed(
      3,
    )} µs to JSON.parse it (median blocks of ${REQUESTS.toLocaleString("en")}; informative, no target)`,
});
if (sink === -1) process.stdout.write("unreachable\n");
