import { expect, test } from "vitest";
import { attwRuns, exportedSubpaths } from "../lib/pack.js";

test("a package without subpaths gets one attw run, every resolution checked, one rule ignored", () => {
  expect(attwRuns([])).toEqual([["--ignore-rules", "cjs-resolves-to-esm"]]);
});

test("a package with a subpath gets its main entry checked under every resolution and the subpath under node16", () => {
  expect(attwRuns(["./testing"])).toEqual([
    ["--ignore-rules", "cjs-resolves-to-esm", "--exclude-entrypoints", "./testing"],
    ["--ignore-rules", "cjs-resolves-to-esm", "--entrypoints", "./testing", "--profile", "node16"],
  ]);
});

test("the subpaths of a manifest are its exports besides the main entry and package.json", () => {
  expect(exportedSubpaths({ exports: { ".": {}, "./testing": {}, "./package.json": "./package.json" } })).toEqual([
    "./testing",
  ]);
  expect(exportedSubpaths({})).toEqual([]);
});
