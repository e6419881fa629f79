import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { fallbackDecision, gateDecision, MODE_NAMES, speechToolCall, type ToolCall } from "@orphus/orkeon-crew";

const doc = readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "orkeon-crew.md"), "utf8");
const builtin = (tool: string, args?: unknown): ToolCall => ({ kind: "builtin", tool, args });

/** The calls each row of the design note's fallback table stands for, by the row's label. */
const ROWS: Readonly<Record<string, ToolCall>> = {
  "`read_file` (a local read)": builtin("read_file"),
  "`write_file` (an edit)": builtin("write_file"),
  "`github` `get_issue`": builtin("github", { action: "get_issue" }),
  "`github` `create_pr`": builtin("github", { action: "create_pr" }),
  "`http_api` `GET`": builtin("http_api", { method: "GET" }),
  "`http_api` `POST`": builtin("http_api", { method: "POST" }),
  "`rag_eval`": builtin("rag_eval"),
  "`web_search`": builtin("web_search"),
  "MCP with `readOnlyHint: true` (`transcribe_audio`)": speechToolCall("transcribe_audio"),
  "MCP without it (`speak`)": speechToolCall("speak"),
  "a built-in tool the table does not know": builtin("rm_rf"),
};

describe("docs/orkeon-crew.md", () => {
  test("the fallback table says what fallbackDecision and gateDecision do, cell by cell", () => {
    const section = doc.slice(
      doc.indexOf("## The gateless fallback"),
      doc.indexOf("## What a runtime team must confirm"),
    );
    const lines = section.split("\n").filter((line) => line.startsWith("| "));
    expect(lines[0]).toBe(`| call | ${MODE_NAMES.join(" | ")} |`);
    const rows = lines.slice(2).map((line) => line.slice(2, -2).split(" | "));
    expect(rows.map(([label]) => label)).toEqual(Object.keys(ROWS));
    for (const [label = "", ...cells] of rows) {
      const call = ROWS[label] as ToolCall;
      const expected = MODE_NAMES.map((mode) => {
        const fallback = fallbackDecision(mode, call);
        const gate = gateDecision(mode, call);
        return fallback === gate ? fallback : `${fallback} (gate: ${gate})`;
      });
      expect(cells, label).toEqual(expected);
    }
  });

  test("the design note keeps the ADR's words apart from our decisions, and lists the three things to confirm", () => {
    for (const heading of ["## What the ADR decides", "## Our decisions", "## What a runtime team must confirm"]) {
      expect(doc).toContain(heading);
    }
    const confirm = doc.slice(doc.indexOf("## What a runtime team must confirm"));
    expect(confirm.match(/^\d\. \*\*/gm)).toHaveLength(3);
  });
});
