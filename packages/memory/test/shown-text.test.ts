// Every memory text that reaches a model or a terminal passes the one sanitiser and stays within its stated bound,
// whatever the store holds: names (titles, sources, tags, the store's path, roles) come out escaped, never stripped,
// so `plan\u200bner` cannot pass for `planner`; content (bodies, excerpts, the query echoed back) comes out cleaned.
// The hostile fixtures are the repository's own (test-support/hostile-text.ts); the tool runs in-process here, and
// the CLI and the MCP server run as processes in their own tests.
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_ENTRY_HEADER_CHARS,
  MAX_MARKER_CHARS,
  MAX_MEMORY_ERROR_CHARS,
  MAX_SHOWN_SKIPS,
  runMemoryTool,
  type MemoryToolStore,
} from "@orphus/memory";
import {
  ESCAPE_SEQUENCES,
  HOSTILE_BODY,
  HOSTILE_BODY_LINES,
  HOSTILE_NAMES,
  INVISIBLE_CHARACTERS,
  expectShowable,
  hostileString,
} from "../../../test-support/hostile-text.js";
import { tempDir } from "../../../test-support/tmp.js";
import { tempStore } from "./support/temp.js";

/** The hostile names whose shown form holds no delimiter of the roundtable's texts: a memory name shows them alike. */
const NAMES = HOSTILE_NAMES.filter(([name]) => !/[ "[\],\u001b]/.test(name));

function run(store: MemoryToolStore, input: Record<string, unknown>): string {
  const result = runMemoryTool(store, input);
  expectShowable(result.text);
  return result.text;
}

describe("names are escaped, content is cleaned", () => {
  it("titles, sources and tags show every invisible character escaped; bodies lose them", () => {
    expect(NAMES.length).toBeGreaterThanOrEqual(6);
    const librarian = tempStore({ role: "librarian" });
    NAMES.forEach(([name], index) => {
      const ingested = run(librarian, {
        action: "ingest",
        title: `Release ${name}`,
        body: `${HOSTILE_BODY} token${index}`,
        tags: [name],
        source: `docs/${name}.md`,
      });
      expect(ingested).toContain("1 new source");
    });
    NAMES.forEach(([, shown], index) => {
      const query = run(librarian, { action: "query", query: `token${index}` });
      expect(query).toContain(`] Release ${shown} · docs/${shown}.md`);
      // The excerpt: the body on one line, cleaned.
      expect(query).toContain(`  ${HOSTILE_BODY_LINES.join(" ")} token${index}`);
      const id = Number(/\[#(\d+)\]/.exec(query.split("\n")[1] ?? "")?.[1]);
      const page = run(librarian, { action: "get", id });
      const [, header, ...body] = page.split("\n");
      expect(header).toContain(`Release ${shown} · source docs/${shown}.md · tags: ${shown} · ingested `);
      expect(body).toEqual([...HOSTILE_BODY_LINES.slice(0, -1), `${HOSTILE_BODY_LINES.at(-1)} token${index}`]);
    });
    // Two sources that differ by an invisible character stay two, and show as two.
    const [[plan]] = NAMES as [[string, string]];
    run(librarian, { action: "ingest", title: "lookalike", body: "lookalike body", source: "docs/planner.md" });
    const forgot = run(librarian, { action: "forget", source: `docs/${plan}.md` });
    expect(forgot).toContain('forgot 1 entry of source "docs/plan\\u{200B}ner.md"');
    expect(run(librarian, { action: "query", query: "lookalike" })).toContain("· docs/planner.md");
  });

  it("the store's path, a role and a skipped path are names; the query echoed back is content", () => {
    const dir = path.join(tempDir(), "mem\u200bory");
    const reader = tempStore({ role: "crit\u202Eic" }, dir);
    expect(run(reader, { action: "query", query: "x" })).toMatch(
      /^\[memory \S*mem\\u\{200B\}ory\/memory\.db\] no memory store exists here/,
    );
    expect(run(reader, { action: "ingest", title: "t", body: "b" })).toContain(
      'this session\'s role is "crit\\u{202E}ic"',
    );
    const librarian = tempStore({ role: "librarian" }, dir);
    const missing = path.join(dir, "..", `gone\u200b${ESCAPE_SEQUENCES.join("")}.md`);
    const ingested = run(librarian, { action: "ingest", paths: [missing] });
    expect(ingested).toContain("gone\\u{200B}\\u{1B}");
    expect(ingested).toMatch(/skipped ".*": not found$/m);
    run(librarian, { action: "ingest", title: "t", body: "release notes" });
    const none = run(reader, {
      action: "query",
      query: `kubernetes${INVISIBLE_CHARACTERS.join("")}${ESCAPE_SEQUENCES.join("")}`,
    });
    expect(none).toContain('no entry matches "kubernetes"');
    const notFound = runMemoryTool(reader, { action: "get", id: 99 });
    expect(notFound.isError).toBe(true);
    expect(notFound.text).toContain("mem\\u{200B}ory/memory.db");
    expectShowable(notFound.text);
  });

  it("an error quoting hostile input shows it escaped, within its bound", () => {
    const reader = tempStore({ role: "critic" });
    const unknown = runMemoryTool(reader, { action: "query", query: "x", "bud\u200bget": 5 });
    expect(unknown.text).toContain('unknown argument "bud\\u{200B}get" (nearest known: "budget")');
    expectShowable(unknown.text);
    const long = runMemoryTool(reader, { action: "query", [`${"k".repeat(5000)}\u200b`]: 1, query: "x".repeat(5000) });
    expect(long.text.length).toBeLessThanOrEqual(MAX_MEMORY_ERROR_CHARS);
    expectShowable(long.text);
  });
});

describe("every result is bounded, whatever the store holds", () => {
  const entry = fc.record({
    title: hostileString(300).map((t) => (t.trim() === "" ? "t" : t)),
    body: hostileString(600),
    tags: fc.array(
      hostileString(20).filter((t) => t.trim() !== ""),
      { maxLength: 4 },
    ),
    source: fc.option(
      hostileString(300).filter((s) => s.trim() !== ""),
      { nil: undefined },
    ),
  });

  it("query: budget plus one marker line; get: limit plus the marker and a header; stats, forget: one marker line", () => {
    fc.assert(
      fc.property(
        fc.array(entry, { minLength: 1, maxLength: 6 }),
        hostileString(120),
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 1, max: 3000 }),
        (entries, query, budget, limit) => {
          const store = tempStore({ role: "librarian" });
          try {
            const ingest = runMemoryTool(store, { action: "ingest", title: "seed", body: "seed words" });
            expect(ingest.text.length).toBeLessThanOrEqual(MAX_MARKER_CHARS);
            for (const text of entries) {
              const result = runMemoryTool(store, {
                action: "ingest",
                ...text,
                ...(text.source === undefined ? {} : { source: text.source }),
              });
              expectShowable(result.text);
              expect(result.text.length).toBeLessThanOrEqual(
                result.isError ? MAX_MEMORY_ERROR_CHARS : MAX_MARKER_CHARS,
              );
            }
            const answer = runMemoryTool(store, {
              action: "query",
              query: query.trim() === "" ? "seed" : query,
              budget,
            });
            expectShowable(answer.text);
            const [marker = "", ...hits] = answer.text.split("\n");
            expect(marker.length).toBeLessThanOrEqual(answer.isError ? MAX_MEMORY_ERROR_CHARS : MAX_MARKER_CHARS);
            expect(hits.join("\n").length).toBeLessThanOrEqual(budget);
            for (let id = 1; id <= entries.length + 1; id++) {
              const page = runMemoryTool(store, { action: "get", id, limit });
              expectShowable(page.text);
              if (page.isError) {
                expect(page.text.length).toBeLessThanOrEqual(MAX_MEMORY_ERROR_CHARS);
                continue;
              }
              const [pageMarker = "", header = "", ...body] = page.text.split("\n");
              expect(pageMarker.length).toBeLessThanOrEqual(MAX_MARKER_CHARS);
              expect(header.length).toBeLessThanOrEqual(MAX_ENTRY_HEADER_CHARS);
              expect(body.join("\n").length).toBeLessThanOrEqual(limit);
            }
            for (const result of [
              runMemoryTool(store, { action: "stats" }),
              runMemoryTool(store, { action: "forget", id: 1 }),
            ]) {
              expectShowable(result.text);
              expect(result.text.length).toBeLessThanOrEqual(MAX_MARKER_CHARS);
            }
          } finally {
            store.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("the header line of a page holds its bound at every field's widest", () => {
    const librarian = tempStore({ role: "librarian" });
    const wide = "\u200b".repeat(600);
    runMemoryTool(librarian, {
      action: "ingest",
      title: wide.slice(0, 500),
      body: "b",
      tags: Array.from({ length: 32 }, () => wide.slice(0, 64)),
      source: wide.repeat(6).slice(0, 4096),
    });
    const [, header = ""] = run(librarian, { action: "get", id: 1 }).split("\n");
    expect(header.length).toBeLessThanOrEqual(MAX_ENTRY_HEADER_CHARS);
    expect(header.length).toBeGreaterThan(600);
  });

  it("an ingest lists at most MAX_SHOWN_SKIPS skipped paths, each on one bounded line, and counts the rest", () => {
    const librarian = tempStore({ role: "librarian" });
    const root = tempDir();
    mkdirSync(path.join(root, "d"));
    const gone = Array.from({ length: 30 }, (_, i) => path.join(root, `${"\u202e".repeat(400)}${i}`));
    const text = run(librarian, { action: "ingest", paths: gone });
    const lines = text.split("\n");
    expect(lines[0]).toContain("skipped 30 files");
    expect(lines[1]).toBe("  skipped by reason: 30 unreadable"); // ENAMETOOLONG: 1,200 bytes of name
    expect(lines).toHaveLength(2 + MAX_SHOWN_SKIPS + 1);
    expect(lines.at(-1)).toBe("  … and 10 more skipped");
    for (const line of lines.slice(2, -1)) expect(line.length).toBeLessThanOrEqual(294);
    expect(text.length).toBeLessThanOrEqual(MAX_MARKER_CHARS + 1 + MAX_MARKER_CHARS + 1 + MAX_SHOWN_SKIPS * 295 + 41);
  });
});
