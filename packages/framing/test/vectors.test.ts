import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { encodeFrame, FrameDecoder } from "@orphus/framing";

interface Vector {
  readonly name: string;
  readonly value: unknown;
  readonly hex: string;
}

const vectors = JSON.parse(readFileSync(join(import.meta.dirname, "vectors", "wire-vectors.json"), "utf8")) as Vector[];
const wireDoc = readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "wire.md"), "utf8");

test.each(vectors)("vector: $name encodes to its stored bytes and decodes back", (vector) => {
  expect(encodeFrame(vector.value).toString("hex")).toBe(vector.hex);
  const out: unknown[] = [];
  new FrameDecoder().push(Buffer.from(vector.hex, "hex"), (v) => out.push(v));
  expect(out).toEqual([vector.value]);
});

test.each(vectors)("docs/wire.md shows vector $name with the same bytes", (vector) => {
  expect(wireDoc).toContain(vector.hex);
  expect(wireDoc).toContain(JSON.stringify(vector.value));
});
