// The full-text index is written by the ingest step itself (an AFTER INSERT trigger cost 2.7 times a direct insert),
// so every path that writes or deletes entries keeps it in step: ingest, re-ingest, forget by id and by source, and
// the migration of a store made when triggers kept it.
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { MEMORY_SCHEMA_VERSION } from "@orphus/memory";
import { STORE_APPLICATION_ID } from "../src/limits.js";
import { migrate } from "../src/store/open.js";
import { MIGRATIONS } from "../src/store/schema.js";
import { indexCheck, rawConnection, triggers } from "./support/sqlite.js";
import type { Connection } from "../src/store/driver/connection.js";
import { tempDir } from "../../../test-support/tmp.js";
import { tempStore } from "./support/temp.js";

describe("the index", () => {
  it("stays what the entries hold on every path that writes or deletes", () => {
    const store = tempStore({ role: "librarian" });
    const steps: [string, () => unknown][] = [
      [
        "texts",
        () =>
          store.ingestTexts([
            { title: "One", body: "alpha beta", source: "s1" },
            { title: "Two", body: "gamma", source: "s2", tags: ["t"] },
          ]),
      ],
      ["a changed text replaced", () => store.ingestTexts([{ title: "One", body: "alpha delta", source: "s1" }])],
      ["the same text again", () => store.ingestTexts([{ title: "One", body: "alpha delta", source: "s1" }])],
      ["forget by id", () => store.forget({ id: store.query("gamma").hits[0]?.id ?? 0 })],
      ["forget by source", () => store.forget({ source: "s1" })],
    ];
    const docs = path.join(tempDir(), "docs");
    mkdirSync(docs);
    writeFileSync(path.join(docs, "guide.md"), "# Guide\n\nIntro.\n\n## Install\n\nRun the installer.\n");
    steps.push(["files", () => store.ingestPaths([docs])]);
    steps.push([
      "a changed file replaced",
      () => (writeFileSync(path.join(docs, "guide.md"), "# Guide\n\nShorter now.\n"), store.ingestPaths([docs])),
    ]);
    for (const [name, step] of steps) {
      step();
      expect(indexCheck(store.path), name).toBe("ok");
    }
    expect(store.query("installer").status).toBe("no-match");
    expect(store.query("shorter").status).toBe("hits");
    expect(triggers(store.path)).toEqual([]);
  });

  it("a store made when triggers kept the index is migrated on open, and keeps working", () => {
    // A store as the first release wrote it: the schema of version 1, rows inserted as it inserted them (the
    // triggers writing the index).
    const dir = tempDir();
    const db = rawConnection(path.join(dir, "memory.db"));
    db.exec("PRAGMA journal_mode = WAL");
    db.exec(`PRAGMA application_id = ${STORE_APPLICATION_ID}`);
    for (const statement of MIGRATIONS[0]?.statements ?? []) db.exec(statement);
    db.exec("PRAGMA user_version = 1");
    const source = db.prepare<[string, string]>(
      "INSERT INTO sources (name, kind, hash, chunks, ingested_at) VALUES (?, 'text', ?, 1, 0)",
    );
    const entry = db.prepare<[number | bigint, string, string]>(
      "INSERT INTO entries (source_id, part, title, tags, body, ingested_at) VALUES (?, 1, ?, '', ?, 0)",
    );
    entry.run(source.run("adr-1", "h1").lastInsertRowid, "Release", "We release with changesets.");
    entry.run(source.run("adr-2", "h2").lastInsertRowid, "Tabs", "Use tabs.");
    db.close();
    expect(triggers(path.join(dir, "memory.db"))).toEqual(["entries_ad", "entries_ai"]);
    expect(indexCheck(path.join(dir, "memory.db"))).toBe("ok");

    const store = tempStore({ role: "librarian" }, dir);
    expect(store.stats().schemaVersion).toBe(MEMORY_SCHEMA_VERSION);
    expect(MEMORY_SCHEMA_VERSION).toBe(5);
    expect(triggers(store.path)).toEqual([]);
    expect(store.query("changesets").hits.map((hit) => hit.source)).toEqual(["adr-1"]);
    store.ingestTexts([
      { title: "Tabs", body: "Use spaces.", source: "adr-2" },
      { title: "New", body: "Fresh words.", source: "adr-3" },
    ]);
    store.forget({ source: "adr-1" });
    expect(indexCheck(store.path)).toBe("ok");
    expect(store.query("tabs").hits.map((hit) => hit.source)).toEqual(["adr-2"]);
    expect(store.query("spaces").hits.map((hit) => hit.source)).toEqual(["adr-2"]);
    expect(store.query("changesets").status).toBe("no-match");
    expect(store.query("fresh").hits.map((hit) => hit.source)).toEqual(["adr-3"]);
  });

  it("holds up to 16 MiB of pending index data before writing a segment, in a new store and a migrated one", () => {
    // FTS5's default of 1 MiB made a batch of an ingest of paths (about 4 MB of text) into several segments that its
    // automatic merges then rewrote.
    const hashSize = (file: string): unknown => {
      const db = rawConnection(file);
      try {
        return db.value("SELECT v FROM entries_fts_config WHERE k = 'hashsize'");
      } finally {
        db.close();
      }
    };
    const fresh = tempStore({ role: "librarian" });
    fresh.ingestTexts([{ title: "One", body: "alpha", source: "s1" }]);
    expect(hashSize(fresh.path)).toBe(16_777_216);

    // A store as version 4 left it: the setting at FTS5's default.
    const dir = tempDir();
    const file = path.join(dir, "memory.db");
    const db = rawConnection(file);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec(`PRAGMA application_id = ${STORE_APPLICATION_ID}`);
    expect(migrate(db, file, MIGRATIONS.slice(0, 4))).toBe(4);
    db.close();
    expect(hashSize(file)).toBeUndefined();
    const migrated = tempStore({ role: "librarian" }, dir);
    expect(migrated.stats().schemaVersion).toBe(5);
    expect(hashSize(file)).toBe(16_777_216);
  });

  it("of a new store is made at the newest schema at once, the same as every migration applied to an empty file", () => {
    // What a schema is, as SQLite holds it: each object's statement (white space aside: ALTER TABLE lays out the
    // column it adds its own way), each table's and index's columns, the index's settings and the versions.
    const schema = (db: Connection): unknown => {
      const objects = db
        .prepare<[], { type: string; name: string; sql: string | null }>(
          "SELECT type, name, sql FROM sqlite_master ORDER BY name",
        )
        .all();
      return {
        objects: objects.map((o) => ({ ...o, sql: o.sql?.replace(/\s+/g, "") })),
        columns: objects.map((o) =>
          db.prepare(`PRAGMA ${o.type === "index" ? "index_xinfo" : "table_xinfo"}("${o.name}")`).all(),
        ),
        ftsConfig: db.prepare("SELECT k, v FROM entries_fts_config ORDER BY k").all(),
        versions: [db.value("PRAGMA user_version"), db.value("PRAGMA application_id")],
      };
    };
    const stepFile = path.join(tempDir(), "memory.db");
    const stepByStep = rawConnection(stepFile);
    stepByStep.exec(`PRAGMA application_id = ${STORE_APPLICATION_ID}`);
    expect(migrate(stepByStep, stepFile, MIGRATIONS)).toBe(5);

    const store = tempStore({ role: "librarian" });
    store.ingestTexts([]);
    const created = rawConnection(store.path);
    try {
      expect(triggers(store.path)).toEqual([]);
      expect(schema(created)).toEqual(schema(stepByStep));
    } finally {
      created.close();
      stepByStep.close();
    }
  });
});
