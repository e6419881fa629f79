// Words inside a CJK sentence: the tokenizer takes a run of letters as one word, and Chinese and Japanese write a
// sentence as one run. The index is given CJK characters one word each, and a query word holding CJK text is the
// phrase of its characters.
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { MEMORY_SCHEMA_VERSION } from "@orphus/memory";
import { STORE_APPLICATION_ID } from "../src/limits.js";
import { MIGRATIONS } from "../src/store/schema.js";
import { tempDir } from "../../../test-support/tmp.js";
import { rawConnection } from "./support/sqlite.js";
import { tempStore } from "./support/temp.js";

const texts = [
  { title: "配置", body: "数据库连接池配置说明。", source: "zh" },
  { title: "設定", body: "データベース接続プールの設定について説明します。", source: "ja" },
  { title: "Pool", body: "Configure the connection pool; 使用API连接池 when the load grows.", source: "mixed" },
  { title: "설정", body: "데이터베이스연결풀설정", source: "ko" },
];

const sources = (store: ReturnType<typeof tempStore>, query: string): string[] =>
  store
    .query(query)
    .hits.map((hit) => hit.source)
    .sort();

describe("CJK words inside a sentence", () => {
  it("are found by any run of their characters, and only where those stand together in order", () => {
    const store = tempStore({ role: "librarian" });
    store.ingestTexts(texts);
    expect(sources(store, "连接池")).toEqual(["mixed", "zh"]);
    expect(sources(store, "数据")).toEqual(["zh"]);
    expect(sources(store, "接続")).toEqual(["ja"]);
    expect(sources(store, "プール")).toEqual(["ja"]);
    expect(sources(store, "연결풀")).toEqual(["ko"]);
    expect(sources(store, "API连接池")).toEqual(["mixed"]);
    expect(sources(store, "pool 连接池")).toEqual(["mixed"]);
    expect(store.query("池连接").status).toBe("no-match");
    expect(store.query("连池").status).toBe("no-match");
    // English words are found as before.
    expect(sources(store, "connection")).toEqual(["mixed"]);
  });

  it("stay findable through re-ingest and forget, and leave no hit behind", () => {
    const store = tempStore({ role: "librarian" });
    store.ingestTexts(texts);
    store.ingestTexts([{ title: "配置", body: "缓存配置说明。", source: "zh" }]);
    expect(sources(store, "连接池")).toEqual(["mixed"]);
    expect(sources(store, "缓存")).toEqual(["zh"]);
    store.forget({ source: "mixed" });
    expect(store.query("连接池").status).toBe("no-match");
    store.forget({ id: store.query("缓存").hits[0]?.id ?? 0 });
    expect(store.query("缓存").status).toBe("no-match");
    expect(store.query("配置").status).toBe("no-match");
  });

  it("show the excerpt where the word stands in a long entry", () => {
    const store = tempStore({ role: "librarian" });
    store.ingestTexts([
      { title: "长文", body: `${"前言。".repeat(400)}数据库连接池配置说明。${"后记。".repeat(400)}`, source: "long" },
    ]);
    expect(store.query("连接池").hits[0]?.excerpt).toContain("数据库连接池配置说明");
  });

  it("are found in a store written before, once it is opened", () => {
    // A store as version 3 wrote it: CJK runs in the index as single words.
    const dir = tempDir();
    const file = path.join(dir, "memory.db");
    const db = rawConnection(file);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec(`PRAGMA application_id = ${STORE_APPLICATION_ID}`);
    for (const migration of MIGRATIONS.slice(0, 3)) for (const statement of migration.statements) db.exec(statement);
    db.exec("PRAGMA user_version = 3");
    const source = db.prepare<[string]>(
      "INSERT INTO sources (name, kind, hash, chunks, ingested_at) VALUES (?, 'text', 'h', 1, 0)",
    );
    const entry = db.prepare<[number | bigint, string, string]>(
      "INSERT INTO entries (source_id, part, title, tags, body, ingested_at) VALUES (?, 1, ?, '', ?, 0)",
    );
    const index = db.prepare<[number | bigint, string, string]>(
      "INSERT INTO entries_fts (rowid, title, tags, body) VALUES (?, ?, '', ?)",
    );
    for (const [name, title, body] of [
      ["zh", "配置", "数据库连接池配置说明。"],
      ["en", "Pool", "The connection pool."],
    ] as const) {
      const id = entry.run(source.run(name).lastInsertRowid, title, body).lastInsertRowid;
      index.run(id, title, body);
    }
    db.close();

    const store = tempStore({ role: "librarian" }, dir);
    expect(store.stats().schemaVersion).toBe(MEMORY_SCHEMA_VERSION);
    expect(MEMORY_SCHEMA_VERSION).toBe(5);
    expect(sources(store, "连接池")).toEqual(["zh"]);
    expect(sources(store, "pool")).toEqual(["en"]);
    store.forget({ source: "zh" });
    expect(store.query("连接池").status).toBe("no-match");
    expect(store.query("配置").status).toBe("no-match");
    expect(sources(store, "pool")).toEqual(["en"]);
  });
});
