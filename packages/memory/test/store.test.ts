import { chmodSync, statSync, writeFileSync, mkdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_CHUNK_CHARS, STORE_FILE_NAME, chunkDocument, openMemory } from "@orphus/memory";
import { rawConnection } from "./support/sqlite.js";
import { tempDir } from "../../../test-support/tmp.js";
import { tempStore } from "./support/temp.js";

describe("the three empty answers", () => {
  it("a missing store, an empty store and no match say different things, and reads create nothing", () => {
    const dir = path.join(tempDir(), "memory");
    const reader = tempStore({ role: "critic" }, dir);
    const missing = reader.query("release");
    expect(missing.status).toBe("missing");
    expect(missing.text).toContain(`${dir}/memory.db] no memory store exists here (location from option)`);
    expect(() => statSync(dir)).toThrow();

    const librarian = tempStore({ role: "librarian" }, dir);
    librarian.ingestTexts([{ title: "gone", body: "soon forgotten", source: "tmp" }]);
    librarian.forget({ source: "tmp" });
    const empty = reader.query("release");
    expect(empty.status).toBe("empty");
    expect(empty.text).toContain("the memory store is empty");

    librarian.ingestTexts([{ title: "Release policy", body: "We publish with changesets." }]);
    const none = reader.query("kubernetes");
    expect(none.status).toBe("no-match");
    expect(none.text).toContain('no entry matches "kubernetes" among 1 entry from 1 source');
    expect(reader.query("changesets").status).toBe("hits");
  });
});

describe("where the store is", () => {
  it("an agent directory given by a flag or an option takes the variable's place, and answers name what gave it", () => {
    const agent = tempDir();
    const flag = openMemory({ env: {}, agentDir: agent, agentDirSource: "--agent-dir" });
    expect(flag.location).toEqual({ dir: `${agent}/memory`, path: `${agent}/memory/memory.db`, source: "--agent-dir" });
    expect(flag.query("release").text).toContain("] no memory store exists here (location from --agent-dir);");
    expect(flag.stats().text).toContain("(location from --agent-dir)");
    expect(openMemory({ env: {}, agentDir: agent }).location.source).toBe("the agentDir option");
    // ORPHUS_MEMORY_DIR still comes first, as it does before ORPHUS_CODING_AGENT_DIR.
    expect(openMemory({ env: { ORPHUS_MEMORY_DIR: "/srv/notes" }, agentDir: agent }).location).toMatchObject({
      dir: "/srv/notes",
      source: "ORPHUS_MEMORY_DIR",
    });
    expect(openMemory({ env: { ORPHUS_CODING_AGENT_DIR: "/srv/a" } }).location).toMatchObject({
      dir: "/srv/a/memory",
      source: "ORPHUS_CODING_AGENT_DIR",
    });
  });
});

describe("ingest and query", () => {
  it("finds a text by a word, names the store, and re-ingesting the same text is a no-op", () => {
    const store = tempStore({ role: "librarian" });
    const first = store.ingestTexts([
      { title: "Release policy", body: "Packages release with changesets.", tags: ["release"] },
    ]);
    expect([first.added, first.entriesAdded]).toEqual([1, 1]);
    const again = store.ingestTexts([
      { title: "Release policy", body: "Packages release with changesets.", tags: ["release"] },
    ]);
    expect([again.added, again.unchanged, again.entriesAdded]).toEqual([0, 1, 0]);
    const answer = store.query("Releasing");
    expect(answer.status).toBe("hits");
    expect(answer.text.split("\n")[0]).toBe(
      `[memory ${store.path}] hits 1–1 of 1 for "Releasing"; get <id> reads an entry in full`,
    );
    expect(answer.text).toMatch(/^\[#1\] Release policy · note:[0-9a-f]{16}$/m);
    expect(answer.text).toContain("  Packages release with changesets.");
  });

  it("a source replaces its earlier text", () => {
    const store = tempStore({ role: "librarian" });
    store.ingestTexts([{ title: "ADR 7", body: "Use tabs.", source: "adr-7" }]);
    const report = store.ingestTexts([{ title: "ADR 7", body: "Use spaces.", source: "adr-7" }]);
    expect([report.replaced, report.entriesRemoved, report.entriesAdded]).toEqual([1, 1, 1]);
    expect(store.query("tabs").status).toBe("no-match");
    expect(store.query("spaces").hits.map((h) => h.source)).toEqual(["adr-7"]);
  });

  it("falls back to any word when no entry has every word, and says so", () => {
    const store = tempStore({ role: "librarian" });
    store.ingestTexts([
      { title: "one", body: "alpha beta" },
      { title: "two", body: "gamma" },
    ]);
    const answer = store.query("alpha gamma");
    expect(answer.mode).toBe("any");
    expect(answer.total).toBe(2);
    expect(answer.text.split("\n")[0]).toContain("(no entry has every word; these have some)");
  });

  it("user text cannot be FTS syntax", () => {
    const store = tempStore({ role: "librarian" });
    store.ingestTexts([{ title: "q", body: 'title: "quoted" AND (paren) NEAR/3 * ^start col:x' }]);
    for (const query of [
      '"',
      "\u00000",
      "x\u0000y",
      "AND",
      "title:quoted",
      "(paren",
      "NEAR/3",
      "*",
      "^start",
      'a"b',
      "-x",
      "col:x OR",
    ]) {
      const answer = store.query(query);
      expect(["hits", "no-match", "no-words"]).toContain(answer.status);
    }
    expect(store.query("(paren").status).toBe("hits");
    expect(store.query("!!! ---").status).toBe("no-words");
  });

  it("pages hits with offset, and the marker says how to continue", () => {
    const store = tempStore({ role: "librarian" });
    store.ingestTexts(Array.from({ length: 7 }, (_, i) => ({ title: `note ${i}`, body: `shared word ${i}` })));
    const first = store.query("shared", { limit: 3 });
    expect(first.hits).toHaveLength(3);
    expect(first.text.split("\n")[0]).toContain("hits 1–3 of 7");
    expect(first.text.split("\n")[0]).toContain("4 more: query again with offset 3");
    const last = store.query("shared", { limit: 5, offset: 5 });
    expect(last.hits).toHaveLength(2);
    expect(last.text.split("\n")[0]).toContain("hits 6–7 of 7");
    expect(store.query("shared", { offset: 9 }).text.split("\n")[0]).toContain("no hits after offset 9: 7 hits in all");
  });
});

describe("files and folders", () => {
  it("chunks files, skips binary, oversized and unreadable ones with reasons, and re-ingests only changes", () => {
    const root = tempDir();
    const docs = path.join(root, "docs");
    mkdirSync(path.join(docs, ".git"), { recursive: true });
    writeFileSync(path.join(docs, ".git", "HEAD"), "ref: main");
    writeFileSync(
      path.join(docs, "guide.md"),
      "# Guide\n\nIntro text.\n\n## Install\n\nRun the installer.\n\n## Use\n\nCall it.\n",
    );
    writeFileSync(path.join(docs, "image.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    writeFileSync(path.join(docs, "big.txt"), "word ".repeat(500_000));
    writeFileSync(path.join(docs, "secret.txt"), "hidden");
    chmodSync(path.join(docs, "secret.txt"), 0o000);
    const store = tempStore({ role: "librarian" });
    const report = store.ingestPaths([docs, path.join(root, "nope")]);
    expect(report.added).toBe(process.getuid?.() === 0 ? 2 : 1);
    const reasons = report.skipped.map((s) => `${path.basename(s.path)}: ${s.reason}`);
    expect(reasons).toContain("nope: not found");
    expect(reasons).toContain("image.png: binary (it holds NUL bytes)");
    expect(reasons).toContain("big.txt: larger than 2097152 bytes (2500000 bytes)");
    if (process.getuid?.() !== 0) expect(reasons).toContain("secret.txt: unreadable (EACCES)");
    const hit = store.query("installer").hits[0];
    expect(hit?.title).toBe("guide.md › Guide › Install");
    expect([hit?.part, hit?.parts]).toEqual([2, 3]);

    const unchanged = store.ingestPaths([path.join(docs, "guide.md")]);
    expect([unchanged.unchanged, unchanged.entriesAdded]).toEqual([1, 0]);
    writeFileSync(path.join(docs, "guide.md"), "# Guide\n\nOnly one section now.\n");
    const changed = store.ingestPaths([path.join(docs, "guide.md")]);
    expect([changed.replaced, changed.entriesRemoved, changed.entriesAdded]).toEqual([1, 3, 1]);
    expect(store.query("installer").status).toBe("no-match");
  });

  it("never makes a chunk longer than the stated maximum", () => {
    const root = tempDir();
    const file = path.join(root, "long.md");
    writeFileSync(file, `# Long\n\n${"paragraph of words ".repeat(400)}\n\n${"x".repeat(9000)}\n`);
    const store = tempStore({ role: "librarian" });
    store.ingestPaths([file]);
    for (let id = 1; ; id++) {
      let body: string;
      try {
        body = store.get(id, { limit: 64_000 }).body;
      } catch {
        break;
      }
      expect(body.length).toBeLessThanOrEqual(MAX_CHUNK_CHARS);
    }
  });
});

describe("get, stats, forget", () => {
  it("pages an entry by characters and says where the next page starts", () => {
    const store = tempStore({ role: "librarian" });
    const body = Array.from({ length: 50 }, (_, i) => `line ${i} ${"z".repeat(40)}`).join("\n");
    store.ingestTexts([{ title: "long", body, tags: ["a", "b"] }]);
    const first = store.get(1, { limit: 500 });
    expect(first.more).toBe(true);
    expect(first.end).toBeLessThanOrEqual(500);
    expect(first.text.split("\n")[0]).toBe(
      `[memory ${store.path}] #1, characters 0–${first.end} of ${body.length}; more: get 1 with offset ${first.end}`,
    );
    expect(first.text.split("\n")[1]).toMatch(/^\[#1\] long · source note:[0-9a-f]{16} · tags: a, b · ingested /);
    let text = first.body;
    let at = first.end;
    while (at < body.length) {
      const page = store.get(1, { offset: at, limit: 500 });
      text += page.body;
      at = page.end;
    }
    expect(text).toBe(body);
  });

  it("stats says what the store holds; forget by id marks the source for a full re-ingest", () => {
    const store = tempStore({ role: "librarian", now: () => Date.UTC(2026, 0, 2) });
    expect(store.stats().status).toBe("missing");
    store.ingestTexts([
      { title: "a", body: "one", source: "s1" },
      { title: "b", body: "two", source: "s2" },
    ]);
    const stats = store.stats();
    expect([stats.status, stats.entries, stats.sources, stats.schemaVersion, stats.lastIngestAt]).toEqual([
      "ready",
      2,
      2,
      5,
      Date.UTC(2026, 0, 2),
    ]);
    expect(stats.text).toContain("schema v5, 2 entries from 2 sources");
    expect(store.forget({ id: 1 }).entriesRemoved).toBe(1);
    expect(store.stats().sources).toBe(1);
    expect(() => store.get(1)).toThrow(expect.objectContaining({ code: "ERR_MEMORY_ENTRY_NOT_FOUND" }));
  });
});

describe("the librarian role", () => {
  it("refuses ingest and forget to other roles with a typed error naming the role and how to act as librarian", () => {
    const dir = path.join(tempDir(), "memory");
    const critic = tempStore({ role: "critic" }, dir);
    expect(() => critic.ingestTexts([{ title: "t", body: "b" }])).toThrow(
      expect.objectContaining({
        name: "NotLibrarianError",
        code: "ERR_MEMORY_NOT_LIBRARIAN",
        message: expect.stringContaining('this session\'s role is "critic" (from option)'),
      }),
    );
    const fromEnv = openMemory({ dir, env: { ORPHUS_ROUNDTABLE_ROLE: "planner" } });
    expect(() => fromEnv.forget({ id: 1 })).toThrow(
      /role is "planner" \(from ORPHUS_ROUNDTABLE_ROLE\).*ORPHUS_ROUNDTABLE_ROLE=librarian/,
    );
    const nobody = openMemory({ dir, env: {} });
    expect(() => nobody.ingestPaths(["."])).toThrow(/this session has no role/);
    expect(openMemory({ dir, env: { ORPHUS_ROUNDTABLE_ROLE: "librarian" } }).isLibrarian).toBe(true);
  });
});

describe("bad files at the store path", () => {
  it("refuses a foreign or corrupt file and leaves it byte for byte", () => {
    const cases: [string, Buffer | ((file: string) => void)][] = [
      ["empty", Buffer.alloc(0)],
      ["text", Buffer.from("just some notes\n")],
      [
        "foreign sqlite",
        (file) => {
          const db = rawConnection(file);
          db.exec("CREATE TABLE t (x)");
          db.close();
        },
      ],
      ["short header", Buffer.from("SQLite format 3\u0000abc")],
    ];
    for (const [name, content] of cases) {
      const dir = tempDir();
      const file = path.join(dir, STORE_FILE_NAME);
      if (typeof content === "function") content(file);
      else writeFileSync(file, content);
      const before = readFileSync(file);
      const store = tempStore({ role: "librarian" }, dir);
      expect(() => store.ingestTexts([{ title: "t", body: "b" }]), name).toThrow(
        expect.objectContaining({ code: expect.stringMatching(/^ERR_MEMORY_STORE_(FOREIGN|CORRUPT)$/) }),
      );
      expect(() => store.stats(), name).toThrow(
        expect.objectContaining({ code: expect.stringMatching(/^ERR_MEMORY_STORE_/) }),
      );
      expect(readFileSync(file).equals(before), name).toBe(true);
    }
  });

  it("refuses a store damaged inside with StoreCorruptError and does not touch it", () => {
    const dir = tempDir();
    const store = tempStore({ role: "librarian" }, dir);
    store.ingestTexts(Array.from({ length: 200 }, (_, i) => ({ title: `t${i}`, body: `body ${i} `.repeat(200) })));
    store.close();
    const file = path.join(dir, STORE_FILE_NAME);
    const bytes = readFileSync(file);
    bytes.fill(0xab, 4096, bytes.length - 4096); // pages trashed, header kept
    writeFileSync(file, bytes);
    const reader = tempStore({}, dir);
    expect(() => reader.query("body")).toThrow(expect.objectContaining({ code: "ERR_MEMORY_STORE_CORRUPT" }));
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it("creates the directory 0700 and the files 0600", () => {
    const dir = path.join(tempDir(), "memory");
    const store = tempStore({ role: "librarian" }, dir);
    store.ingestTexts([{ title: "t", body: "b" }]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const file of [STORE_FILE_NAME, `${STORE_FILE_NAME}-wal`, `${STORE_FILE_NAME}-shm`]) {
      expect(statSync(path.join(dir, file)).mode & 0o777, file).toBe(0o600);
    }
  });
});

describe("chunkDocument", () => {
  it("keeps a trailing heading with nothing under it, and joins a heading-only section to the next", () => {
    expect(
      chunkDocument("```\n# not a heading\n```\n# A\n", 8)
        .map((c) => c.text)
        .join("|"),
    ).toContain("# A");
    expect(chunkDocument("# Top\n## Sub\ntext", 100)).toEqual([{ heading: "Top › Sub", text: "# Top\n## Sub\ntext" }]);
  });
});
