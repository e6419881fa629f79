// The CLI as a person or a script runs it: a real process, from source, against a store in a temporary folder.
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { MEMORY_CLI_EXIT } from "../src/index.js";
import { runCliProcess } from "./support/process.js";
import { tempDir } from "./support/temp.js";

describe("orphus-memory", () => {
  it("pins its exit codes", () => {
    expect(MEMORY_CLI_EXIT).toEqual({ ok: 0, failed: 1, usage: 2, missing: 3, empty: 4, noMatch: 5, notLibrarian: 6 });
  });

  it("says missing, empty and no match apart, each with its own exit code, and --json for scripts", async () => {
    const dir = path.join(tempDir(), "mem");
    const env = { ORPHUS_MEMORY_DIR: dir };
    const missing = await runCliProcess(["query", "release"], env);
    expect(missing.code).toBe(3);
    expect(missing.stdout).toContain(`[memory ${dir}/memory.db] no memory store exists here (location from ORPHUS_MEMORY_DIR)`);

    const refused = await runCliProcess(["ingest", "--title", "t", "--text", "x"], { ...env, ORPHUS_ROUNDTABLE_ROLE: "critic" });
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain('role is "critic" (from ORPHUS_ROUNDTABLE_ROLE)');

    const librarian = { ...env, ORPHUS_ROUNDTABLE_ROLE: "librarian" };
    expect((await runCliProcess(["ingest", "--title", "t", "--text", "temporary", "--source", "tmp"], librarian)).code).toBe(0);
    expect((await runCliProcess(["forget", "--source", "tmp"], librarian)).code).toBe(0);
    const empty = await runCliProcess(["query", "release"], env);
    expect(empty.code).toBe(4);
    expect(empty.stdout).toContain("the memory store is empty");
    expect((await runCliProcess(["stats"], env)).code).toBe(4);

    const docs = path.join(tempDir(), "docs");
    writeFileSync(`${docs}.md`, "# Release\n\nWe release with changesets.\n");
    const ingest = await runCliProcess(["ingest", `${docs}.md`, "--as", "librarian"], env);
    expect(ingest.code).toBe(0);
    expect(ingest.stdout).toContain("1 new source");
    const none = await runCliProcess(["query", "kubernetes"], env);
    expect(none.code).toBe(5);
    expect(none.stdout).toContain('no entry matches "kubernetes"');

    const hits = await runCliProcess(["query", "changesets", "--json"], env);
    expect(hits.code).toBe(0);
    const parsed = JSON.parse(hits.stdout) as { status: string; hits: { id: number; title: string }[] };
    expect(parsed.status).toBe("hits");
    expect(parsed.hits[0]?.title).toBe("docs.md › Release");
    const got = await runCliProcess(["get", String(parsed.hits[0]?.id)], env);
    expect(got.stdout).toContain("We release with changesets.");
  });

  it("exits 2 for bad arguments with one line and a pointer to --help", async () => {
    const env = { ORPHUS_MEMORY_DIR: path.join(tempDir(), "mem") };
    for (const args of [[], ["frobnicate"], ["get", "x"], ["query"], ["query", "a", "--budget", "-1"], ["forget"], ["--nope"]]) {
      const run = await runCliProcess(args, env);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr, args.join(" ")).toMatch(/^orphus-memory: .+\nRun orphus-memory --help for usage\.\n$/);
    }
  });

  it("refuses a foreign file with exit 1 and leaves it", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "memory.db"), "not a database");
    const run = await runCliProcess(["query", "x"], { ORPHUS_MEMORY_DIR: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("is not a memory store (it is not an SQLite database); it was left untouched");
  });
});
