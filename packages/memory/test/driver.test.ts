// The two SQLite drivers behind the store: how one is chosen, and a contract each driver this Node can load must
// meet (file format, fileMustExist, transactions, pluck, the busy timeout, typed errors), plus stores written by one
// and read by the other where both load (Node 22.16+). The rest of the suite runs on the process's driver;
// ORPHUS_MEMORY_SQLITE_DRIVER=node:sqlite runs it on node:sqlite under Node 22.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { STORE_FILE_NAME, openMemory } from "@orphus/memory";
import { connectionOpener, defaultSqliteDriver, SQLITE_DRIVER_ENV } from "../src/store/driver/choose.js";
import { transaction } from "../src/store/driver/connection.js";
import { runSource } from "./support/process.js";
import { loadableDrivers, rawConnection } from "./support/sqlite.js";
import { tempDir } from "../../../test-support/tmp.js";
import { tempStore } from "./support/temp.js";

const drivers = loadableDrivers();
const major = Number(process.versions.node.split(".")[0]);

describe("choosing a driver", () => {
  it("is node:sqlite from Node 24 on and better-sqlite3 before", () => {
    const versions = ["20.19.0", "22.12.0", "22.23.3", "24.0.0", "24.15.0", "24.21.0", "25.0.0", "26.1.0"];
    expect(versions.map((version) => defaultSqliteDriver(version))).toEqual([
      "better-sqlite3",
      "better-sqlite3",
      "better-sqlite3",
      "node:sqlite",
      "node:sqlite",
      "node:sqlite",
      "node:sqlite",
      "node:sqlite",
    ]);
    expect(SQLITE_DRIVER_ENV).toBe("ORPHUS_MEMORY_SQLITE_DRIVER");
  });

  it("can be forced by option, and refuses a driver it does not know", () => {
    expect(tempStore({ sqliteDriver: drivers[0] }).sqliteDriver).toBe(drivers[0]);
    expect(() => openMemory({ sqliteDriver: "sqlite3" as never })).toThrow(
      expect.objectContaining({
        code: "ERR_MEMORY_INPUT",
        message: 'sqliteDriver: expected "node:sqlite" or "better-sqlite3", received "sqlite3"',
      }),
    );
  });

  it.runIf(!drivers.includes("node:sqlite"))("refuses node:sqlite where it cannot run the store, saying why", () => {
    expect(() => openMemory({ sqliteDriver: "node:sqlite" })).toThrow(
      expect.objectContaining({
        code: "ERR_MEMORY_INPUT",
        message: expect.stringMatching(
          /^sqliteDriver: expected "better-sqlite3" \(node:sqlite runs the store from Node 22\.16 on; (No such built-in module|node:sqlite of Node)/,
        ),
      }),
    );
  });
});

describe("a process whose store's statements are garbage collected", () => {
  // Before node:sqlite, this aborted on Node 24: `Assertion failed: (env) != nullptr` from Statement::~Statement.
  it.each(drivers)("neither aborts nor prints a warning (%s)", async (driver) => {
    const dir = path.join(tempDir(), "memory");
    const run = await runSource("test/support/gc-driver.ts", [dir], { [SQLITE_DRIVER_ENV]: driver });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
    const report = JSON.parse(run.stdout) as { driver: string; betterSqlite3Loaded: boolean };
    expect(report).toEqual({ driver, betterSqlite3Loaded: driver === "better-sqlite3" });
  });

  it.runIf(major >= 24)("on Node 24 and later runs on node:sqlite and never loads better-sqlite3", async () => {
    const run = await runSource("test/support/gc-driver.ts", [path.join(tempDir(), "memory")], {});
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ driver: "node:sqlite", betterSqlite3Loaded: false });
  });
});

describe.each(drivers)("the %s driver", (driver) => {
  const librarian = (dir?: string) => tempStore({ role: "librarian", sqliteDriver: driver }, dir);

  it("writes the store's file format: application_id, user_version, WAL", () => {
    const dir = path.join(tempDir(), "memory");
    const store = librarian(dir);
    store.ingestTexts([{ title: "format", body: "one entry" }]);
    store.close();
    const header = readFileSync(path.join(dir, STORE_FILE_NAME)).subarray(0, 100);
    expect(header.readUInt32BE(68).toString(16)).toBe("4f4d454d");
    expect(header.readUInt32BE(60)).toBe(5);
    // File format numbers 2 and 2: write and read in WAL mode.
    expect([header[18], header[19]]).toEqual([2, 2]);
    expect(store.stats().schemaVersion).toBe(5);
  });

  it("stores text without NUL characters and keeps what follows one (node:sqlite before 24.16 cut there)", () => {
    const store = librarian();
    store.ingestTexts([
      { title: "nul\u0000title", body: "before\u0000after", tags: ["t\u0000ag"], source: "s\u0000rc" },
    ]);
    expect(store.get(1)).toMatchObject({ title: "nultitle", body: "beforeafter", tags: ["tag"], source: "src" });
    expect(
      store.ingestTexts([{ title: "nultitle", body: "beforeafter", tags: ["tag"], source: "src" }]).unchanged,
    ).toBe(1);
    expect(store.forget({ source: "s\u0000rc" }).entriesRemoved).toBe(1);
  });

  it("never creates a file by opening one that is missing", () => {
    const file = path.join(tempDir(), "absent.db");
    expect(() => connectionOpener(driver)(file)).toThrow(/unable to open database file/);
    expect(existsSync(file)).toBe(false);
  });

  it("commits a transaction, rolls back one whose function throws, and plucks first columns", () => {
    const db = rawConnection(path.join(tempDir(), "t.db"), driver);
    db.exec("CREATE TABLE t (x INTEGER) STRICT");
    const insert = db.prepare<[number]>("INSERT INTO t (x) VALUES (?)");
    expect(transaction(db, "immediate", () => insert.run(7))).toEqual({ changes: 1, lastInsertRowid: 1 });
    expect(() =>
      transaction(db, "deferred", () => {
        insert.run(8);
        throw new Error("no");
      }),
    ).toThrow("no");
    expect(db.inTransaction).toBe(false);
    expect(db.preparePluck<[], number>("SELECT x FROM t ORDER BY x").all()).toEqual([7]);
    expect(db.preparePluck<[number], number>("SELECT x FROM t WHERE x = ?").get(9)).toBeUndefined();
    expect(db.prepare<[], { x: number }>("SELECT x FROM t").get()?.x).toBe(7);
    expect(db.value("PRAGMA user_version")).toBe(0);
    db.close();
    db.close();
  });

  it("waits for another writer up to the busy timeout, then says the store is busy", () => {
    const dir = path.join(tempDir(), "memory");
    librarian(dir).ingestTexts([{ title: "first", body: "one" }]);
    const holder = rawConnection(path.join(dir, STORE_FILE_NAME), driver);
    holder.exec("BEGIN IMMEDIATE");
    try {
      const waiting = tempStore({ role: "librarian", sqliteDriver: driver, busyTimeoutMs: 50 }, dir);
      expect(() => waiting.ingestTexts([{ title: "second", body: "two" }])).toThrow(
        expect.objectContaining({ name: "StoreBusyError", code: "ERR_MEMORY_STORE_BUSY" }),
      );
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
  });

  it("refuses a foreign database, a damaged store and a newer schema with the same typed errors", () => {
    const foreignDir = tempDir();
    const foreign = rawConnection(path.join(foreignDir, STORE_FILE_NAME), driver);
    foreign.exec("CREATE TABLE t (x)");
    foreign.close();
    expect(() => tempStore({ sqliteDriver: driver }, foreignDir).stats()).toThrow(
      expect.objectContaining({ code: "ERR_MEMORY_STORE_FOREIGN" }),
    );

    const newerDir = path.join(tempDir(), "memory");
    librarian(newerDir).ingestTexts([{ title: "t", body: "b" }]);
    const newer = rawConnection(path.join(newerDir, STORE_FILE_NAME), driver);
    newer.exec("PRAGMA user_version = 99");
    newer.close();
    expect(() => tempStore({ sqliteDriver: driver }, newerDir).query("b")).toThrow(
      expect.objectContaining({ code: "ERR_MEMORY_STORE_VERSION" }),
    );

    const damagedDir = path.join(tempDir(), "memory");
    const store = librarian(damagedDir);
    store.ingestTexts(Array.from({ length: 200 }, (_, i) => ({ title: `t${i}`, body: `body ${i} `.repeat(200) })));
    store.close();
    const file = path.join(damagedDir, STORE_FILE_NAME);
    const bytes = readFileSync(file);
    bytes.fill(0xab, 4096, bytes.length - 4096);
    writeFileSync(file, bytes);
    expect(() => tempStore({ sqliteDriver: driver }, damagedDir).query("body")).toThrow(
      expect.objectContaining({ code: "ERR_MEMORY_STORE_CORRUPT" }),
    );
  });
});

describe.runIf(drivers.length === 2)("one store, both drivers", () => {
  it.each([drivers, [...drivers].reverse()])("a store %s wrote, %s reads and writes alike", (writer, reader) => {
    const dir = path.join(tempDir(), "memory");
    const first = tempStore({ role: "librarian", sqliteDriver: writer }, dir);
    first.ingestTexts([
      { title: "Release policy", body: "Packages release with changesets.", tags: ["release"], source: "policy" },
      { title: "Style", body: "Two spaces, no tabs." },
    ]);
    const written = first.query("release");
    first.close();
    const second = tempStore({ role: "librarian", sqliteDriver: reader }, dir);
    expect(second.query("release")).toEqual(written);
    expect(second.ingestTexts([{ title: "Style", body: "Two spaces, no tabs." }]).unchanged).toBe(1);
    expect(second.forget({ source: "policy" }).entriesRemoved).toBe(1);
    expect(second.stats()).toMatchObject({ status: "ready", entries: 1, sources: 1, schemaVersion: 5 });
  });
});
