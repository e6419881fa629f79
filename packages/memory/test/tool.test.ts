import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { MEMORY_ACTIONS, MEMORY_TOOL_NAME, memoryToolJsonSchema, runMemoryTool } from "../src/index.js";
import { tempDir, tempStore } from "./support/temp.js";

describe("the memory tool", () => {
  it("names its actions and has one object schema", () => {
    expect(MEMORY_TOOL_NAME).toBe("memory");
    expect(MEMORY_ACTIONS).toEqual(["query", "get", "stats", "ingest", "forget"]);
    const schema = memoryToolJsonSchema();
    expect(schema["type"]).toBe("object");
    expect(Object.keys(schema["properties"] as object)).toContain("query");
  });

  it("answers the three empty cases differently; a missing or empty store is an error result", () => {
    const dir = path.join(tempDir(), "m");
    const reader = tempStore({ role: "critic" }, dir);
    const missing = runMemoryTool(reader, { action: "query", query: "x" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("no memory store exists here");
    const librarian = tempStore({ role: "librarian" }, dir);
    runMemoryTool(librarian, { action: "ingest", title: "t", body: "b", source: "s" });
    runMemoryTool(librarian, { action: "forget", source: "s" });
    const empty = runMemoryTool(reader, { action: "query", query: "x" });
    expect(empty.isError).toBe(true);
    expect(empty.text).toContain("the memory store is empty");
    runMemoryTool(librarian, { action: "ingest", title: "Policy", body: "release with changesets", tags: ["release"] });
    const none = runMemoryTool(reader, { action: "query", query: "kubernetes", budget: null });
    expect(none).toEqual({ isError: false, text: expect.stringContaining('no entry matches "kubernetes"') });
    expect(runMemoryTool(reader, { action: "query", query: "changesets" }).text).toContain("[#");
  });

  it("refuses writes to other roles, and bad input, as error text", () => {
    const reader = tempStore({ role: "critic" });
    const refused = runMemoryTool(reader, { action: "ingest", title: "t", body: "b" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^memory ingest: memory ingest is for the librarian role only; this session's role is "critic"/);
    expect(runMemoryTool(reader, { action: "nope" })).toEqual({ isError: true, text: 'memory call: action: expected one of query, get, stats, ingest, forget, received "nope"' });
    expect(runMemoryTool(reader, { action: "ingest", title: "t" }).text).toContain("give either paths, or a title and a body");
    expect(runMemoryTool(reader, { action: "forget" }).text).toContain("give either id or source");
    expect(runMemoryTool(reader, { action: "get", id: 0 }).isError).toBe(true);
  });

  it("sanitises what it shows: no control or escape sequence from stored text reaches the result", () => {
    const store = tempStore({ role: "librarian" });
    runMemoryTool(store, { action: "ingest", title: "evil\u001b]0;pwned\u0007 \u202etitle", body: "payload \u001b[31mred\u001b[0m\u0000 here" });
    const query = runMemoryTool(store, { action: "query", query: "payload" });
    const get = runMemoryTool(store, { action: "get", id: 1 });
    for (const text of [query.text, get.text]) expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    expect(get.text).toContain("payload red here");
  });
});
