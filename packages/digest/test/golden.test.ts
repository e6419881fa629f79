// Golden examples: what an agent actually reads, checked in as text so a reviewer sees it. Regenerate after a
// deliberate format change with UPDATE_GOLDEN=1 and review the diff line by line.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { renderDigest, type DigestItem, type DigestRecovery, type EvictedRange } from "@orphus/digest";
import { referenceDigest } from "./reference.js";

interface GoldenCase {
  readonly name: string;
  readonly items: string;
  readonly budget: number;
  readonly evicted?: EvictedRange;
  readonly recovery?: DigestRecovery;
}

const dir = join(import.meta.dirname, "golden");
const read = (file: string): string => readFileSync(join(dir, file), "utf8");
const cases = JSON.parse(read("cases.json")) as GoldenCase[];

test.each(cases)("golden: $name", (goldenCase) => {
  const items = JSON.parse(read(goldenCase.items)) as DigestItem[];
  const input = { ...goldenCase, items };
  const result = renderDigest(input);
  const file = `${goldenCase.name}.txt`;
  if (process.env["UPDATE_GOLDEN"] === "1") writeFileSync(join(dir, file), `${result.text}\n`);
  expect(`${result.text}\n`).toBe(read(file));
  expect(result).toEqual(referenceDigest(input));
});
