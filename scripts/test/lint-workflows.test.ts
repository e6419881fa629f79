import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { actionlintFindings } from "../lib/lint-workflows.js";

const workflows = join(import.meta.dirname, "..", "..", ".github", "workflows");

test("actionlint finds nothing in the committed workflows", async () => {
  const files = readdirSync(workflows).sort();
  expect(files).toEqual(["ci.yml", "release.yml"]);
  for (const file of files) {
    expect({ file, findings: await actionlintFindings(readFileSync(join(workflows, file), "utf8"), file) }).toEqual({
      file,
      findings: [],
    });
  }
});

test("actionlint reports a misspelt step key and an expression naming a matrix value that does not exist", async () => {
  const broken = [
    "name: broken",
    "on: push",
    "jobs:",
    "  test:",
    "    runs-on: ubuntu-latest",
    "    strategy:",
    "      matrix:",
    "        node: [20]",
    "    steps:",
    "      - run: echo ${{ matrix.nod }}",
    "      - runs: oops",
  ].join("\n");
  const findings = await actionlintFindings(broken, "broken.yml");
  expect(findings.some((f) => f.startsWith("10:") && f.includes('property "nod" is not defined'))).toBe(true);
  expect(findings.some((f) => f.startsWith('11:9 unexpected key "runs" for "step" section'))).toBe(true);
});
