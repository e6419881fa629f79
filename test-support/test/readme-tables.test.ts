import { expect, test } from "vitest";
import { tableNames } from "../readme-tables.js";

const readme = [
  "# pkg",
  "",
  "## Options",
  "",
  "text before the table",
  "",
  "| option | what |",
  "| --- | --- |",
  "| `role` | who speaks |",
  "| `connect(room)` | opens |",
  "| `tool_name` | a tool |",
  "| plain | no code span |",
  "",
  "## Other",
  "",
  "| `other` | x |",
].join("\n");

test("tableNames reads the first code span's identifier of each row of the table after a heading", () => {
  expect(tableNames(readme, "## Options")).toEqual(["role", "connect", "tool_name", "?| plain | no code span |"]);
  expect(() => tableNames(readme, "## Missing")).toThrow("the README has no ## Missing");
});
