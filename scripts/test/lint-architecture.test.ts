import { expect, test } from "vitest";
import { packageMapFindings, packageMapRows } from "../lib/lint-architecture.js";

const map = `# Architecture

## Package map

| package | imports (ours) | job |
| --- | --- | --- |
| \`rooms\` | — (leaf) | room state |
| \`rooms-redis\` | rooms | Redis |
| \`broker\` | rooms (the store contract), digest (the one sanitiser); rooms-redis as an optional peer | the server |
| \`digest\` | — | digests |

## Where each guarantee lives

| \`rooms\` | broker | not a package map row |
`;

const declared = (entries: Record<string, string[]>): Map<string, Set<string>> =>
  new Map(Object.entries(entries).map(([name, deps]) => [name, new Set(deps)]));

test("reads each row's imports outside the asides in parentheses, a longer name never taken for a shorter", () => {
  const known = new Set(["rooms", "rooms-redis", "broker", "digest"]);
  expect(packageMapRows(map, known).map((row) => [row.name, [...row.imports].sort()])).toEqual([
    ["rooms", []],
    ["rooms-redis", ["rooms"]],
    ["broker", ["digest", "rooms", "rooms-redis"]],
    ["digest", []],
  ]);
});

test("a map that matches the manifests has nothing to say", () => {
  expect(
    packageMapFindings(
      map,
      declared({ rooms: [], "rooms-redis": ["rooms"], broker: ["rooms", "digest", "rooms-redis"], digest: [] }),
    ),
  ).toEqual([]);
});

test("names a dependency the map omits, one it invents, and a package without a row", () => {
  expect(
    packageMapFindings(
      map,
      declared({
        rooms: [],
        "rooms-redis": ["rooms", "digest"],
        broker: ["rooms", "rooms-redis"],
        digest: [],
        locator: [],
      }),
    ),
  ).toEqual([
    "the package map has no row for locator",
    "the package map's row for rooms-redis omits digest, which its manifest depends on",
    "the package map's row for broker names digest, which its manifest does not depend on",
  ]);
});

test("a parenthesis names no import: an aside mentioning a package is not a dependency", () => {
  const text = "\n## Package map\n\n| `pi` | client (the doctor of cli) | ext |\n";
  expect(packageMapFindings(text, declared({ pi: ["client"], client: [], cli: [] }))).toEqual([
    "the package map has no row for client",
    "the package map has no row for cli",
  ]);
});
