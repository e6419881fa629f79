// The README's API tables against the source they describe: every option of createRoundtableClient and every public
// member of RoundtableClient is documented, and nothing documented is gone, so the two cannot drift apart.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { tableNames as readmeTableNames } from "../../../test-support/readme-tables.js";

const root = join(import.meta.dirname, "..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const source = (file: string): string => readFileSync(join(root, "src", file), "utf8");

/** The body of `export interface <name> … {` up to its closing brace at the start of a line. */
function interfaceBody(text: string, name: string): string {
  const start = text.indexOf(`export interface ${name} `);
  if (start === -1) throw new Error(`no interface ${name}`);
  return text.slice(start, text.indexOf("\n}", start));
}

/** Field names of an interface body: `readonly name?:` at its first level of indentation. */
function fields(body: string): string[] {
  return [...body.matchAll(/^ {2}readonly (\w+)\??:/gm)].map((m) => m[1] as string);
}

/** The first-column names of the README's table that follows `heading`. */
const tableNames = (heading: string): string[] => readmeTableNames(readme, heading);

test("every option of createRoundtableClient is in the README's options table, and nothing else", () => {
  const created = fields(interfaceBody(source("create.ts"), "CreateRoundtableClientOptions"));
  const inherited = fields(interfaceBody(source("client.ts"), "RoundtableClientOptions")).filter(
    (f) => f !== "connector",
  );
  expect(tableNames("### `createRoundtableClient(").sort()).toEqual([...new Set([...created, ...inherited])].sort());
});

test("every public member of RoundtableClient is in the README's table, and nothing else", () => {
  const text = source("client.ts");
  const body = text.slice(text.indexOf("export class RoundtableClient "));
  const members = [
    ...[...body.matchAll(/^ {2}readonly (\w+):/gm)].map((m) => m[1] as string),
    ...[...body.matchAll(/^ {2}get (\w+)\(/gm)].map((m) => m[1] as string),
    ...[...body.matchAll(/^ {2}(?:async )?(\w+)(?:<.+>)?\(/gm)].map((m) => m[1] as string),
  ].filter((name) => name !== "constructor");
  expect(tableNames("### `RoundtableClient`").sort()).toEqual([...new Set(members)].sort());
});
