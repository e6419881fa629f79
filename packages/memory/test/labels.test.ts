// What a hit is shown by at the default budget: a source label relative to the folder an ingest was given, a title
// without the markup of its heading (badges, links, code spans, emphasis); and a full disk named like every other
// failure of the store.
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { chunkDocument } from "@orphus/memory";
import { storeFailure } from "../src/store/open.js";
import { rawConnection } from "./support/sqlite.js";
import { tempDir } from "../../../test-support/tmp.js";
import { tempStore } from "./support/temp.js";

describe("source labels", () => {
  it("a file found in a folder is shown by its path from that folder, its name kept whole as the source", () => {
    const root = path.join(tempDir(), "a-long-checkout-path", "of-some-project");
    const docs = path.join(root, "docs");
    mkdirSync(path.join(docs, "guide"), { recursive: true });
    writeFileSync(path.join(docs, "guide", "install.md"), "# Install\n\nRun the installer.\n");
    writeFileSync(path.join(root, "notes.md"), "# Notes\n\nThe installer notes.\n");
    const store = tempStore({ role: "librarian" });
    store.ingestPaths([docs, path.join(root, "notes.md")]);
    const answer = store.query("installer");
    const bySource = Object.fromEntries(answer.hits.map((hit) => [hit.source, hit.label]));
    expect(bySource).toEqual({
      [path.join(docs, "guide", "install.md")]: path.join("docs", "guide", "install.md"),
      [path.join(root, "notes.md")]: "notes.md",
    });
    const lines = answer.text.split("\n");
    expect(lines).toContain(`[#1] install.md › Install · ${path.join("docs", "guide", "install.md")}`);
    expect(lines).toContain("[#2] notes.md › Notes · notes.md");
    expect(answer.text).not.toContain("a-long-checkout-path");
    // The full name stays what identifies the source: a get shows it, and forget takes it.
    expect(store.get(1).text).toContain(path.join(docs, "guide", "install.md"));
    expect(store.forget({ source: path.join(root, "notes.md") }).entriesRemoved).toBe(1);
    // A text's label is its source.
    store.ingestTexts([{ title: "Policy", body: "The installer policy.", source: "adr-7" }]);
    expect(store.query("policy").hits.map((hit) => [hit.source, hit.label])).toEqual([["adr-7", "adr-7"]]);
  });
});

describe("titles from headings", () => {
  it("drop badges and HTML, and show links, code spans and emphasis as their text", () => {
    const doc = [
      "# orphus [![npm](https://img.shields.io/npm/v/orphus.svg)](https://npm.im/orphus) [![CI](https://ci.example/badge.svg)](https://ci.example)",
      "Intro.",
      '## Install `pnpm add orphus` **now** <img src="x.svg" alt="x">',
      "Steps.",
      "## See [the guide](https://example.com/guide) and \\*not\\* _this_",
      "More.",
      "## [![badge](b.svg)](https://x)",
      "Only a badge.",
    ].join("\n\n");
    expect([...new Set(chunkDocument(doc, 80).map((chunk) => chunk.heading))]).toEqual([
      "orphus",
      "orphus › Install pnpm add orphus now",
      "orphus › See the guide and *not* this",
    ]);
  });
});

describe("a full disk", () => {
  it("is a StoreFullError naming the store, whichever driver threw it", () => {
    const file = path.join(tempDir(), "full.db");
    const db = rawConnection(file);
    db.exec("CREATE TABLE t (x TEXT)");
    db.exec("PRAGMA max_page_count = 3");
    let thrown: unknown;
    try {
      db.exec(`INSERT INTO t VALUES ('${"x".repeat(20_000)}')`);
    } catch (error) {
      thrown = error;
    } finally {
      db.close();
    }
    expect(thrown).toBeDefined();
    for (const error of [
      thrown,
      Object.assign(new Error("database or disk is full"), { code: "ERR_SQLITE_ERROR", errcode: 13 }),
    ]) {
      const mapped = storeFailure("/stores/memory.db", error, 10_000);
      expect(mapped).toMatchObject({
        name: "StoreFullError",
        code: "ERR_MEMORY_STORE_FULL",
        storePath: "/stores/memory.db",
        cause: error,
      });
      expect((mapped as Error).message).toBe(
        "The memory store at /stores/memory.db could not be written: the disk is full (database or disk is full); nothing of this write was kept: free space and try again",
      );
    }
    const nospace = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    expect(storeFailure("/stores/memory.db", nospace, 10_000)).toMatchObject({
      code: "ERR_MEMORY_STORE_FULL",
      cause: nospace,
    });
  });
});
