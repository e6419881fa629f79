import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  MEMORY_ACTIONS,
  MEMORY_TOOL_NAME,
  memoryActionSchemas,
  memoryToolJsonSchema,
  runMemoryTool,
  type MemoryToolCallOptions,
  type MemoryToolResult,
  type MemoryToolStore,
} from "@orphus/memory";
import { tempDir } from "../../../test-support/tmp.js";
import { tempStore } from "./support/temp.js";

/**
 * Runs a write the test builds on and checks that it succeeded, so a store that cannot be written (a driver that
 * fails to load under this Node, say) fails the test here, with the store's own words, not at a later read.
 */
function written(store: MemoryToolStore, input: unknown, options?: MemoryToolCallOptions): MemoryToolResult {
  const result = runMemoryTool(store, input, options);
  expect(result).toEqual({ isError: false, text: expect.any(String) });
  return result;
}

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
    written(librarian, { action: "ingest", title: "t", body: "b", source: "s" });
    written(librarian, { action: "forget", source: "s" });
    const empty = runMemoryTool(reader, { action: "query", query: "x" });
    expect(empty.isError).toBe(true);
    expect(empty.text).toContain("the memory store is empty");
    written(librarian, { action: "ingest", title: "Policy", body: "release with changesets", tags: ["release"] });
    const none = runMemoryTool(reader, { action: "query", query: "kubernetes", budget: null });
    expect(none).toEqual({ isError: false, text: expect.stringContaining('no entry matches "kubernetes"') });
    expect(runMemoryTool(reader, { action: "query", query: "changesets" }).text).toContain("[#");
  });

  it("refuses writes to other roles, and bad input, as error text", () => {
    const reader = tempStore({ role: "critic" });
    const refused = runMemoryTool(reader, { action: "ingest", title: "t", body: "b" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(
      /^memory ingest: memory ingest on the store at \S+ is for the librarian role only; this session's role is "critic"/,
    );
    expect(runMemoryTool(reader, { action: "nope" })).toEqual({
      isError: true,
      text: 'Invalid memory call: action must be one of query, get, stats, ingest, forget; got "nope"',
    });
    expect(runMemoryTool(reader, { action: "ingest", title: "t" }).text).toBe(
      'Invalid memory call: ingest: give either paths, or a title and a body; got {"action":"ingest","title":"t"}',
    );
    expect(runMemoryTool(reader, { action: "forget" }).text).toBe(
      'Invalid memory call: forget: give either id or source; got {"action":"forget"}',
    );
    expect(runMemoryTool(reader, { action: "get", id: 0 }).isError).toBe(true);
  });

  it("names an unknown argument and the nearest known one; null members count as absent", () => {
    const reader = tempStore({ role: "critic" });
    expect(runMemoryTool(reader, { action: "query", qeury: "release" }).text).toBe(
      'Invalid memory call: query: unknown argument "qeury" (nearest known: "query"); query takes query, budget, limit, ' +
        'offset; a query needs words; got {"action":"query","qeury":"release"}',
    );
    expect(runMemoryTool(reader, { action: "stats", verbose: true }).text).toBe(
      'Invalid memory call: stats: unknown argument "verbose"; stats takes no arguments; got {"action":"stats","verbose":true}',
    );
    expect(runMemoryTool(reader, { action: "get", id: 3, page: 2 }).text).toContain(
      'unknown argument "page" (nearest known: "',
    );
    expect(runMemoryTool(reader, { action: "query", query: "x", budget: null, limit: null }).isError).toBe(true); // the missing store, not the nulls
    expect(runMemoryTool(reader, { action: "query", query: "x", budget: null }).text).toContain(
      "no memory store exists here",
    );
  });

  it("a query over the limit is refused naming the limit, once, in both modes", () => {
    const reader = tempStore({ role: "critic" });
    const long = "word ".repeat(201);
    expect(runMemoryTool(reader, { action: "query", query: long }).text).toMatch(
      /^Invalid memory call: query: the query is longer than 1000 characters; got \{"action":"query","query":"word word /,
    );
    expect(runMemoryTool(reader, { query: long }, { action: "query" }).text).toMatch(
      /^Invalid memory call: query: the query is longer than 1000 characters; got \{"query":"word word /,
    );
    expect(runMemoryTool(reader, { action: "query", query: "" }).text).toBe(
      'Invalid memory call: query: a query needs words; got {"action":"query","query":""}',
    );
    // The limit itself is a query.
    expect(runMemoryTool(reader, { action: "query", query: "w".repeat(1000) }).text).toContain(
      "no memory store exists here",
    );
  });

  it("refuses arguments that are not an object in one sentence", () => {
    const reader = tempStore({ role: "critic" });
    expect(runMemoryTool(reader, [1, 2]).text).toBe(
      "Invalid memory call: the arguments must be a JSON object with an action, one of query, get, stats, ingest, forget; got [1,2]",
    );
    expect(runMemoryTool(reader, "query", { action: "query" }).text).toBe(
      'Invalid memory call: query: the arguments must be a JSON object; got "query"',
    );
  });

  it("one-action mode (MCP): arguments without an action, an action argument refused, no text naming one", () => {
    const dir = path.join(tempDir(), "m");
    const librarian = tempStore({ role: "librarian" }, dir);
    written(librarian, { title: "Policy", body: "release with changesets" }, { action: "ingest" });
    expect(runMemoryTool(librarian, { query: "changesets" }, { action: "query" }).text).toMatch(
      /^\[memory .*\] hits 1–1 of 1/,
    );
    expect(runMemoryTool(librarian, undefined, { action: "stats" }).text).toContain("1 entry from 1 source");
    expect(runMemoryTool(librarian, { query: "x", action: "forget" }, { action: "query" })).toEqual({
      isError: true,
      text: 'Invalid memory call: query: unknown argument "action" (this tool runs query already; leave it out); got {"query":"x","action":"forget"}',
    });
    for (const [action, args] of [
      ["query", {}],
      ["query", { query: "x", bugdet: 3 }],
      ["get", { id: "1" }],
      ["ingest", { title: "t" }],
      ["forget", {}],
      ["stats", { x: 1 }],
    ] as const) {
      const result = runMemoryTool(librarian, args, { action });
      expect(result.isError, action).toBe(true);
      expect(result.text, action).not.toMatch(/\baction\b/);
    }
  });

  it("a refusal names where the role came from, as the host that resolved it says", () => {
    const named = runMemoryTool(tempStore({ role: "critic", roleSource: "the session name" }), {
      action: "forget",
      id: 1,
    });
    expect(named.text).toContain('this session\'s role is "critic" (from the session name)');
    const none = runMemoryTool(tempStore({ roleSource: "its role flag is not a role name" }), {
      action: "forget",
      id: 1,
    });
    expect(none.text).toContain("this session has no role (its role flag is not a role name)");
  });

  it("the schemas are closed", () => {
    expect(memoryToolJsonSchema()["additionalProperties"]).toBe(false);
    for (const action of MEMORY_ACTIONS)
      expect(z.toJSONSchema(memoryActionSchemas[action])).toMatchObject({ additionalProperties: false });
  });

  it("sanitises what it shows: no control or escape sequence from stored text reaches the result", () => {
    const store = tempStore({ role: "librarian" });
    written(store, {
      action: "ingest",
      title: "evil\u001b]0;pwned\u0007 \u202etitle",
      body: "payload \u001b[31mred\u001b[0m\u0000 here",
    });
    const query = runMemoryTool(store, { action: "query", query: "payload" });
    const get = runMemoryTool(store, { action: "get", id: 1 });
    for (const text of [query.text, get.text]) expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    expect(get.text).toContain("payload red here");
  });
});
