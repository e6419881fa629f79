import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  linkFindings,
  markdownLinks,
  packageMentionFindings,
  pathMentionFindings,
  unquotedTildeFindings,
} from "../lib/lint-docs.js";

const home = { gitUrl: "git+https://github.com/orphus/roundtable.git", webUrl: "https://github.com/orphus/roundtable" };
const paths = new Set(["docs", "docs/wire.md", "packages", "packages/digest", "packages/digest/test", "packages/digest/test/golden"]);
const folders = new Set(["docs", "packages", "packages/digest", "packages/digest/test", "packages/digest/test/golden"]);
const exists = (path: string): boolean => (path.endsWith("/") ? folders.has(path.slice(0, -1)) : paths.has(path));

describe("links", () => {
  test("inline links, images and definitions are found; code is not", () => {
    const text = [
      "See [the wire](docs/wire.md) and ![logo](img/logo.png \"Logo\").",
      "`[not a link](nowhere.md)`",
      "```md",
      "[inside a fence](fenced.md)",
      "```",
      "[ref]: https://example.com/x",
    ].join("\n");
    expect(markdownLinks(text)).toEqual([
      { target: "docs/wire.md", line: 1 },
      { target: "img/logo.png", line: 1 },
      { target: "https://example.com/x", line: 6 },
    ]);
  });

  test("a package README's relative link breaks on the registry page: the absolute address is named", () => {
    const text = "Format: [docs/wire.md](../../docs/wire.md); examples in [test/golden/](test/golden).";
    expect(linkFindings(text, "packages/digest/README.md", home, exists, true)).toEqual([
      "1: ../../docs/wire.md is relative and breaks on the registry page; link https://github.com/orphus/roundtable/blob/main/docs/wire.md",
      "1: test/golden is relative and breaks on the registry page; link https://github.com/orphus/roundtable/tree/main/packages/digest/test/golden",
    ]);
  });

  test("the same links are fine in a page of the repository itself, and anchors and other sites always are", () => {
    const text = "[wire](docs/wire.md#test-vectors) [top](#top) [npm](https://www.npmjs.com/package/x)";
    expect(linkFindings(text, "README.md", home, exists, false)).toEqual([]);
  });

  test("a link to a file that is not there, or out of the repository, is reported wherever it is", () => {
    const text = [
      "[spec](../shared/spec/README.md)",
      "[gone](docs/gone.md)",
      "[abs](https://github.com/orphus/roundtable/blob/main/docs/gone.md)",
      "[ok](https://github.com/orphus/roundtable/blob/main/docs/wire.md#frames)",
    ].join("\n");
    expect(linkFindings(text, "ARCHITECTURE.md", home, exists, false)).toEqual([
      "1: ../shared/spec/README.md points outside the repository",
      "2: docs/gone.md names docs/gone.md, which is not in the repository",
      "3: https://github.com/orphus/roundtable/blob/main/docs/gone.md names docs/gone.md, which is not in the repository",
    ]);
  });
});

describe("things named that are not in the repository", () => {
  test("a package of another project, named as if it were ours", () => {
    const text = "The framing mirrors `@orphus/intercom`'s; `@orphus/framing` is ours; `@orphus/source` is a condition; `Symbol.for('@orphus/error')` the error brand.";
    expect(packageMentionFindings(text, new Set(["framing"]))).toEqual([
      "1: @orphus/intercom is not a package of this repository; describe it instead of naming it",
    ]);
  });

  test("a quoted path that no file or folder ends with", () => {
    const text = "Kept beside the project as `shared/spec/`; examples in `test/golden/`; see `docs/wire.md`, `tools/list`.";
    expect(pathMentionFindings(text, [...paths])).toEqual(["1: `shared/spec/` is not in the repository"]);
  });
});

describe("shell lines that store ~", () => {
  test("an unquoted ~ in an mcp add line is reported; a quoted one, or one outside a shell block, is not", () => {
    const text = [
      "```sh",
      "claude mcp add --scope project roundtable -- orphus-roundtable-mcp --agent-dir ~/.orphus/agent",
      "claude mcp add --scope project roundtable -- orphus-roundtable-mcp --agent-dir '~/.orphus/agent'",
      "ls ~/.orphus",
      "```",
      "```json",
      '{ "args": ["mcp add", "~/.orphus/agent"] }',
      "```",
    ].join("\n");
    expect(unquotedTildeFindings(text)).toEqual([
      "2: the shell expands this unquoted ~ into a home directory before the command stores it; quote it ('~/...')",
    ]);
  });
});

describe("the repository's own pages", () => {
  const root = join(import.meta.dirname, "..", "..");
  const read = (path: string): string => readFileSync(join(root, path), "utf8");
  const repoExists = (path: string): boolean => existsSync(join(root, path));

  test("no package README links relatively (each is also a registry page)", () => {
    for (const dir of readdirSync(join(root, "packages"))) {
      const doc = `packages/${dir}/README.md`;
      expect({ doc, findings: linkFindings(read(doc), doc, home, repoExists, true) }).toEqual({ doc, findings: [] });
    }
  });

  test("ARCHITECTURE.md and docs/ name no file or package that is not in the repository", () => {
    const packages = new Set(readdirSync(join(root, "packages")));
    const everything = ["ARCHITECTURE.md", "docs/wire.md", "docs/orkeon-crew.md", "packages/orkeon-crew/src/hops"];
    for (const doc of ["ARCHITECTURE.md", "docs/wire.md", "docs/orkeon-crew.md"]) {
      const text = read(doc);
      expect({ doc, findings: [...packageMentionFindings(text, packages), ...pathMentionFindings(text, everything)].filter(
        (f) => f.includes("@orphus/") || f.includes("shared/"),
      ) }).toEqual({ doc, findings: [] });
    }
  });

  test("the MCP README's registration lines leave ~ to the server", () => {
    expect(unquotedTildeFindings(read("packages/roundtable-mcp/README.md"))).toEqual([]);
  });
});
