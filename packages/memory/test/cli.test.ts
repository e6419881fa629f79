// The CLI as a person or a script runs it: a real process, from source, against a store in a temporary folder.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { MEMORY_CLI_EXIT, MAX_MEMORY_ERROR_CHARS, runMemoryCli } from "@orphus/memory";
import { resolveSqliteDriver } from "../src/store/driver/choose.js";
import { HOSTILE_BODY, HOSTILE_BODY_LINES, expectShowable } from "../../../test-support/hostile-text.js";
import { runCliProcess } from "./support/process.js";
import { tempDir } from "../../../test-support/tmp.js";

describe("orphus-memory", () => {
  it("pins its exit codes", () => {
    expect(MEMORY_CLI_EXIT).toEqual({ ok: 0, failed: 1, usage: 2, missing: 3, empty: 4, noMatch: 5, notLibrarian: 6 });
  });

  it("says missing, empty and no match apart, each with its own exit code, and --json for scripts", async () => {
    const dir = path.join(tempDir(), "mem");
    const env = { ORPHUS_MEMORY_DIR: dir };
    const missing = await runCliProcess(["query", "release"], env);
    expect(missing.code).toBe(3);
    expect(missing.stdout).toContain(
      `[memory ${dir}/memory.db] no memory store exists here (location from ORPHUS_MEMORY_DIR)`,
    );
    const getMissing = await runCliProcess(["get", "1"], env);
    expect(getMissing.code).toBe(3);
    expect(getMissing.stderr).toBe(
      `orphus-memory: No memory store exists at ${dir}/memory.db (location from ORPHUS_MEMORY_DIR): nothing has been ingested there yet\n`,
    );

    const refused = await runCliProcess(["ingest", "--title", "t", "--text", "x"], {
      ...env,
      ORPHUS_ROUNDTABLE_ROLE: "critic",
    });
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain('role is "critic" (from ORPHUS_ROUNDTABLE_ROLE)');

    const librarian = { ...env, ORPHUS_ROUNDTABLE_ROLE: "librarian" };
    expect(
      (await runCliProcess(["ingest", "--title", "t", "--text", "temporary", "--source", "tmp"], librarian)).code,
    ).toBe(0);
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
    for (const args of [
      [],
      ["frobnicate"],
      ["get", "x"],
      ["query"],
      ["query", "a", "--budget", "-1"],
      ["forget"],
      ["--nope"],
    ]) {
      const run = await runCliProcess(args, env);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr, args.join(" ")).toMatch(/^orphus-memory: .+\nRun orphus-memory --help for usage\.\n$/);
    }
    // The same words as the tool's refusal over MCP and in pi.
    const long = await runCliProcess(["query", "x".repeat(1001)], env);
    expect([long.code, long.stderr]).toEqual([
      2,
      "orphus-memory: the query is longer than 1000 characters\nRun orphus-memory --help for usage.\n",
    ]);
  });

  it("refuses a foreign file with exit 1 and leaves it", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "memory.db"), "not a database");
    const run = await runCliProcess(["query", "x"], { ORPHUS_MEMORY_DIR: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("is not a memory store (it is not an SQLite database); it was left untouched");
  });

  // Only where the store runs on better-sqlite3 (before Node 24): node:sqlite is part of Node and loads no addon.
  it.runIf(resolveSqliteDriver(undefined, {}) === "better-sqlite3")(
    "says plainly when the SQLite driver cannot load its native module under this Node, and touches no store",
    async () => {
      // What Node's dlopen throws for an addon built for another Node's ABI (the CI's Node 22 run met it), for every
      // native module the process loads: better-sqlite3's is the only one the CLI loads.
      const preload = path.join(tempDir(), "dlopen-fails.cjs");
      writeFileSync(
        preload,
        `process.dlopen = () => { throw Object.assign(new Error("The module '/x/better_sqlite3.node'\\nwas compiled against a ` +
          `different Node.js version using\\nNODE_MODULE_VERSION 115. This version of Node.js requires\\nNODE_MODULE_VERSION 127."), ` +
          `{ code: "ERR_DLOPEN_FAILED" }); };\n`,
      );
      const dir = path.join(tempDir(), "mem");
      const env = { ORPHUS_MEMORY_DIR: dir, ORPHUS_ROUNDTABLE_ROLE: "librarian" };
      const broken = { ...env, NODE_OPTIONS: `--require=${preload}` };
      const expected = new RegExp(
        `^orphus-memory: The memory store at ${dir}/memory\\.db cannot be opened: the SQLite driver \\(better-sqlite3\\) ` +
          `failed to load its native module under Node v[\\d.]+ \\(The module '/x/better_sqlite3\\.node' \\| was compiled .+ ` +
          "NODE_MODULE_VERSION 127\\.\\); the store was not touched: rebuild the driver for this Node \\(npm rebuild " +
          "better-sqlite3\\) or run the Node it was built for\\n$",
      );

      const create = await runCliProcess(["ingest", "--title", "Policy", "--text", "release with changesets"], broken);
      expect(create.code).toBe(MEMORY_CLI_EXIT.failed);
      expect(create.stderr).toMatch(expected);
      // A read of a location with no store still says so, without loading the driver at all.
      expect((await runCliProcess(["query", "release"], broken)).code).toBe(MEMORY_CLI_EXIT.missing);

      expect(
        (await runCliProcess(["ingest", "--title", "Policy", "--text", "release with changesets"], env)).code,
      ).toBe(0);
      const before = readFileSync(path.join(dir, "memory.db"));
      for (const args of [["query", "release"], ["get", "1"], ["stats"], ["forget", "1"]]) {
        const run = await runCliProcess(args, broken);
        expect(run.code, args.join(" ")).toBe(MEMORY_CLI_EXIT.failed);
        expect(run.stderr, args.join(" ")).toMatch(expected);
      }
      expect(readFileSync(path.join(dir, "memory.db")).equals(before)).toBe(true);
    },
  );

  it("prints nothing unsanitised: names escaped, bodies cleaned, --json showable and exact, errors on one bounded line", async () => {
    const dir = path.join(tempDir(), "mem\u200bory");
    const env = { ORPHUS_MEMORY_DIR: dir, ORPHUS_ROUNDTABLE_ROLE: "librarian" };
    const title = "Release plan\u200bner";
    const ingest = await runCliProcess(
      [
        "ingest",
        "--title",
        title,
        "--text",
        `${HOSTILE_BODY} token`,
        "--source",
        "docs/\u202eevil.md",
        "--tags",
        "t\u{E0041}ag",
      ],
      env,
    );
    expect(ingest.code).toBe(0);
    expectShowable(ingest.stdout);
    expect(ingest.stdout).toContain("mem\\u{200B}ory/memory.db");

    const query = await runCliProcess(["query", "token"], env);
    expect(query.code).toBe(0);
    expectShowable(query.stdout);
    expect(query.stdout).toContain("] Release plan\\u{200B}ner · docs/\\u{202E}evil.md");
    expect(query.stdout).toContain(`  ${HOSTILE_BODY_LINES.join(" ")} token`);

    const json = await runCliProcess(["query", "token", "--json"], env);
    expectShowable(json.stdout);
    const parsed = JSON.parse(json.stdout) as { hits: { id: number; title: string; source: string }[] };
    expect(parsed.hits[0]).toMatchObject({ title, source: "docs/\u202eevil.md" });
    const got = await runCliProcess(["get", String(parsed.hits[0]?.id), "--json"], env);
    expectShowable(got.stdout);
    expect((JSON.parse(got.stdout) as { body: string; tags: string[] }).body).toBe(
      `${HOSTILE_BODY} token`.replace(/\r\n?/g, "\n"),
    );

    const missing = await runCliProcess(["get", "99"], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^orphus-memory: No entry #99 in the memory store at \S*mem\\u\{200B\}ory\/memory\.db: [^\n]*\n$/,
    );
    const unknown = await runCliProcess([`fr\u200bob${"x".repeat(3000)}\u001b[31m`], env);
    expect(unknown.code).toBe(2);
    expectShowable(unknown.stderr);
    const [line = ""] = unknown.stderr.split("\n");
    expect(line).toContain('unknown command "fr\\u{200B}ob');
    expect(line.length).toBeLessThanOrEqual("orphus-memory: ".length + MAX_MEMORY_ERROR_CHARS);
  });

  it("ingest of paths shows a progress line on a TTY, cleared at the end, and lines at a steady pace elsewhere", async () => {
    const docs = path.join(tempDir(), "docs");
    mkdirSync(docs);
    for (let i = 0; i < 5; i++) writeFileSync(path.join(docs, `note-${i}.md`), `# Note ${i}\n\nSome words ${i}.\n`);
    const run = async (
      isTTY: boolean,
      now?: () => number,
    ): Promise<{ code: number; stdout: string; stderr: string }> => {
      let stdout = "";
      let stderr = "";
      const code = await runMemoryCli(["ingest", docs, "--as", "librarian"], {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: (text: string) => (stderr += text), isTTY },
        env: { ORPHUS_MEMORY_DIR: path.join(tempDir(), "mem") },
        ...(now === undefined ? {} : { now }),
      });
      return { code, stdout, stderr };
    };
    const tty = await run(true);
    expect(tty.code).toBe(0);
    // The first file's line and the last (always written), each drawn over the one before; then the line is cleared.
    expect(tty.stderr.startsWith("\r\u001b[2Kingesting: 1/5 files, 1 entries")).toBe(true);
    expect(tty.stderr).toContain("\r\u001b[2Kingesting: 5/5 files, 5 entries");
    expect(tty.stderr.endsWith("\r\u001b[2K")).toBe(true);
    expect(tty.stdout).toContain("5 new sources");
    // Not a terminal (an agent, CI): a plain line each time 5 s have passed, none for what takes less.
    const piped = await run(false);
    expect(piped).toMatchObject({ code: 0, stderr: "" });
    let clock = 0;
    // Each file takes 3 s by this clock: a line after the second file and after the fourth.
    const slow = await run(false, () => (clock += 3_000));
    expect(slow.code).toBe(0);
    expect(slow.stderr).toBe(
      "orphus-memory: ingesting: 2/5 files, 2 entries\norphus-memory: ingesting: 4/5 files, 4 entries\n",
    );
    expect(slow.stdout).toContain("5 new sources");
  });

  it("ingest says what it skipped, counted by reason, the files inside skipped folders too", async () => {
    const root = path.join(tempDir(), "pkg");
    for (const dir of ["node_modules/dep", "node_modules/dep/docs", ".git/objects", "docs"])
      mkdirSync(path.join(root, dir), { recursive: true });
    for (let i = 0; i < 3; i++)
      writeFileSync(path.join(root, "node_modules/dep/docs", `guide-${i}.md`), `# Guide ${i}\n`);
    writeFileSync(path.join(root, "node_modules/dep/README.md"), "# Dep\n");
    writeFileSync(path.join(root, ".git/objects/ab"), "x");
    writeFileSync(path.join(root, ".npmrc"), "x");
    writeFileSync(path.join(root, "docs/logo.png"), Buffer.from([0x89, 0x50, 0, 1]));
    writeFileSync(path.join(root, "docs/guide.md"), "# Guide\n\nHow to use it.\n");
    const env = { ORPHUS_MEMORY_DIR: path.join(tempDir(), "mem") };
    const run = await runCliProcess(["ingest", root, "--as", "librarian"], env);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/ingested: 1 new source, .*; 1 entry added; skipped 7 files$/);
    expect(lines[1]).toBe("  skipped by reason: 5 in skipped folders (hidden, node_modules), 1 hidden, 1 not text");
    expect(lines.slice(2)).toEqual([
      `  skipped "${root}/.git": a skipped folder (hidden): 1 file not read`,
      `  skipped "${root}/.npmrc": a hidden file`,
      `  skipped "${root}/node_modules": a skipped folder (node_modules): 4 files not read`,
      `  skipped "${root}/docs/logo.png": binary (it holds NUL bytes)`,
    ]);
    const json = JSON.parse(
      (await runCliProcess(["ingest", root, "--as", "librarian", "--json"], env)).stdout,
    ) as Record<string, unknown>;
    expect(json).toMatchObject({
      skippedCount: 7,
      skippedCountExact: true,
      skippedByKind: { "skipped-folder": 5, "hidden-file": 1, "not-text": 1 },
    });
  });
});
