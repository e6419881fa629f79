import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  linkFindings,
  markdownLinks,
  packageMentionFindings,
  pathMentionFindings,
  readmePerformanceFindings,
  unquotedTildeFindings,
} from "../lib/lint-docs.js";

const home = { gitUrl: "git+https://github.com/orphus/roundtable.git", webUrl: "https://github.com/orphus/roundtable" };
const paths = new Set([
  "docs",
  "docs/wire.md",
  "packages",
  "packages/digest",
  "packages/digest/test",
  "packages/digest/test/golden",
]);
const folders = new Set(["docs", "packages", "packages/digest", "packages/digest/test", "packages/digest/test/golden"]);
const exists = (path: string): boolean => (path.endsWith("/") ? folders.has(path.slice(0, -1)) : paths.has(path));

describe("links", () => {
  test("inline links, images and definitions are found; code is not", () => {
    const text = [
      'See [the wire](docs/wire.md) and ![logo](img/logo.png "Logo").',
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
    const text =
      "The framing mirrors `@orphus/intercom`'s; `@orphus/framing` is ours; `@orphus/source` is a condition; `Symbol.for('@orphus/error')` the error brand.";
    expect(packageMentionFindings(text, new Set(["framing"]))).toEqual([
      "1: @orphus/intercom is not a package of this repository; describe it instead of naming it",
    ]);
  });

  test("a quoted path that no file or folder ends with", () => {
    const text =
      "Kept beside the project as `shared/spec/`; examples in `test/golden/`; see `docs/wire.md`, `tools/list`.";
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
      expect({
        doc,
        findings: [...packageMentionFindings(text, packages), ...pathMentionFindings(text, everything)].filter(
          (f) => f.includes("@orphus/") || f.includes("shared/"),
        ),
      }).toEqual({ doc, findings: [] });
    }
  });

  test("the MCP README's registration lines leave ~ to the server", () => {
    expect(unquotedTildeFindings(read("packages/roundtable-mcp/README.md"))).toEqual([]);
  });
});

describe("figures stay out of package READMEs", () => {
  const root = join(import.meta.dirname, "..", "..");
  const read = (path: string): string => readFileSync(join(root, path), "utf8");
  const link = "[its figures](https://github.com/orphus/roundtable/blob/main/BENCHMARKS.md#framing)";

  test("a Performance section states targets and links to BENCHMARKS.md: clean", () => {
    const text = [
      "# framing",
      "The decoder never copies a frame twice (4x fewer copies than a naive one is a design fact, not a figure: see below).",
      "## Performance",
      "Decoding is measured against `JSON.parse` of the payloads alone; target at least 0.85x.",
      "A 4 MiB frame fed a byte at a time costs ≤ 5x a 1 MiB frame (linear is 4x).",
      `Figures: ${link}.`,
      "```sh",
      "pnpm bench framing   # prints 0.93x, 1.02x",
      "```",
    ].join("\n");
    expect(readmePerformanceFindings(text, true)).toEqual([
      '2: "4x" is a measured figure; a README states only targets, in its Performance section (figures live in BENCHMARKS.md)',
    ]);
    expect(
      readmePerformanceFindings(
        text.replace("(4x fewer copies than a naive one is a design fact, not a figure: see below)", ""),
        true,
      ),
    ).toEqual([]);
  });

  test("a ratio outside a target statement, a history of runs, and a Benchmarks section are refused", () => {
    const text = [
      "## Benchmarks",
      "| decode | 0.90x to 1.00x (eight runs) |",
      "## Performance",
      `Decode: 0.93× of JSON.parse, met in 4 of 5 runs. ${link}`,
      "Five more runs of the same build gave the same.",
      "A weight written 4× reads as a figure too (write it out); 0x1f, 4x4 and 100 rooms × 500 messages do not.",
    ].join("\n");
    expect(readmePerformanceFindings(text, true)).toEqual([
      '1: a README\'s section on speed is "## Performance", with targets only (figures live in BENCHMARKS.md)',
      '2: "eight runs": a history of runs belongs in the benchmark record (BENCHMARKS.md), not a README',
      '2: "0.90x" is a measured figure; a README states only targets, in its Performance section (figures live in BENCHMARKS.md)',
      '4: "5 runs": a history of runs belongs in the benchmark record (BENCHMARKS.md), not a README',
      '4: "0.93×" is a measured figure; a README states only targets, in its Performance section (figures live in BENCHMARKS.md)',
      '5: "Five more runs": a history of runs belongs in the benchmark record (BENCHMARKS.md), not a README',
      '6: "4×" is a measured figure; a README states only targets, in its Performance section (figures live in BENCHMARKS.md)',
    ]);
  });

  test("a package with benchmarks must have the section and its link; one without need not", () => {
    expect(readmePerformanceFindings("# bounds\n## Performance\nTargets: at most 2x.\n", true)).toEqual([
      'the package has benchmarks: a "## Performance" section must state its targets and link to its part of BENCHMARKS.md',
    ]);
    expect(readmePerformanceFindings("# agent-env\nNo hot path.\n", false)).toEqual([]);
  });

  test("a Performance section longer than a short paragraph or two is refused; design goes under its own heading", () => {
    const link = "[BENCHMARKS.md](https://github.com/orphus/roundtable/blob/main/BENCHMARKS.md#framing)";
    const prose = (lines: number): string =>
      Array.from({ length: lines }, (_, i) => `Line ${i + 1} of prose.`).join("\n");
    const section = (lines: number): string =>
      `# framing\n## Performance\n${link}\n\n${prose(lines)}\n## How it is built\n${prose(40)}\n`;
    expect(readmePerformanceFindings(section(29), true)).toEqual([]);
    expect(readmePerformanceFindings(section(30), true)).toEqual([
      "2: the Performance section has 31 lines of text, more than 30: it states what is measured against what, the " +
        "targets and a link; how the code is made fast goes under a heading of its own",
    ]);
  });

  test("every package README follows the rule", () => {
    for (const dir of readdirSync(join(root, "packages")).filter((d) =>
      existsSync(join(root, "packages", d, "README.md")),
    )) {
      const bench = join(root, "packages", dir, "bench");
      const hasBenchmarks = existsSync(bench) && readdirSync(bench).some((file) => file.endsWith(".bench.ts"));
      const doc = `packages/${dir}/README.md`;
      expect({ doc, findings: readmePerformanceFindings(read(doc), hasBenchmarks) }).toEqual({ doc, findings: [] });
    }
  });
});
