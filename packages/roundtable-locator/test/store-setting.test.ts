// Resolving the store setting once: flag over variable, nothing secret on a command line, a password from a file,
// and descriptions that mask every password (and compare one Redis reached as two users as one store).
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { describeStoreSetting, resolveStoreSetting, sameStore, type StoreSetting } from "@orphus/roundtable-locator";
import { tempDir } from "../../../test-support/tmp.js";

function settingError(resolve: () => StoreSetting): Error & { code?: string } {
  try {
    resolve();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("expected a StoreSettingError");
}

describe("resolveStoreSetting", () => {
  test("memory by default; the flag wins over the variable", () => {
    expect(resolveStoreSetting({ env: {} })).toEqual({ url: "memory", description: "memory", source: "default" });
    const env = { ORPHUS_ROUNDTABLE_STORE: "redis://orphus:pw@redis.internal:6379/2" };
    expect(resolveStoreSetting({ env })).toEqual({
      url: "redis://orphus:pw@redis.internal:6379/2",
      description: "redis://orphus:***@redis.internal:6379/2",
      source: "ORPHUS_ROUNDTABLE_STORE",
    });
    expect(resolveStoreSetting({ env, flag: "memory" })).toEqual({
      url: "memory",
      description: "memory",
      source: "--store",
    });
    expect(resolveStoreSetting({ env: { ORPHUS_ROUNDTABLE_STORE: "  " } }).source).toBe("default");
  });

  test("a password on the command line is refused, unquoted, saying where to put it", () => {
    const error = settingError(() =>
      resolveStoreSetting({ env: {}, flag: "rediss://orphus:hunter2@redis.internal:6380" }),
    );
    expect(error.code).toBe("ERR_STORE_SETTING_INVALID");
    expect(error.message).toBe(
      "Invalid room store setting (--store): rediss://orphus:***@redis.internal:6380 carries a password, and every " +
        "user of this machine can read command lines; put the URL in ORPHUS_ROUNDTABLE_STORE, or its password in a " +
        "file named by --store-password-file or ORPHUS_ROUNDTABLE_STORE_PASSWORD_FILE",
    );
    expect(resolveStoreSetting({ env: {}, flag: "redis://redis.internal" }).url).toBe("redis://redis.internal");
  });

  test("a password file completes a URL without one; its trailing line break is not part of it", () => {
    const file = join(tempDir(), "password");
    writeFileSync(file, "p@ss:w/rd\n", { mode: 0o600 });
    const fromFlag = resolveStoreSetting({ env: {}, flag: "redis://orphus@redis.internal:6379", passwordFile: file });
    expect(fromFlag.url).toBe("redis://orphus:p%40ss%3Aw%2Frd@redis.internal:6379");
    expect(fromFlag.description).toBe("redis://orphus:***@redis.internal:6379");
    const fromEnv = resolveStoreSetting({
      env: { ORPHUS_ROUNDTABLE_STORE: "redis://orphus@h", ORPHUS_ROUNDTABLE_STORE_PASSWORD_FILE: file },
    });
    expect(fromEnv.url).toBe("redis://orphus:p%40ss%3Aw%2Frd@h");
    // The memory store has no password to take: a file named in the environment does not stop it.
    expect(resolveStoreSetting({ env: { ORPHUS_ROUNDTABLE_STORE_PASSWORD_FILE: file } }).url).toBe("memory");
  });

  test("a password from two places, or a file that is missing, empty or too large, is refused without quoting it", () => {
    const dir = tempDir();
    const file = join(dir, "password");
    writeFileSync(file, "hunter2");
    const env = { ORPHUS_ROUNDTABLE_STORE: "redis://orphus:hunter2@h", ORPHUS_ROUNDTABLE_STORE_PASSWORD_FILE: file };
    expect(settingError(() => resolveStoreSetting({ env })).message).toBe(
      "Invalid room store setting (ORPHUS_ROUNDTABLE_STORE): redis://orphus:***@h carries a password, and a password " +
        "file is named too; use one",
    );
    const missing = join(dir, "absent");
    expect(settingError(() => resolveStoreSetting({ env: {}, flag: "redis://h", passwordFile: missing })).message).toBe(
      `Invalid room store setting (password file): cannot read ${missing}: ENOENT`,
    );
    const empty = join(dir, "empty");
    writeFileSync(empty, "\n");
    expect(settingError(() => resolveStoreSetting({ env: {}, flag: "redis://h", passwordFile: empty })).message).toBe(
      `Invalid room store setting (password file): ${empty} is empty`,
    );
    const large = join(dir, "large");
    writeFileSync(large, "x".repeat(5000));
    expect(settingError(() => resolveStoreSetting({ env: {}, flag: "redis://h", passwordFile: large })).message).toBe(
      `Invalid room store setting (password file): ${large} holds 5000 bytes, more than 4096`,
    );
    const unreadable = join(dir, "unreadable");
    writeFileSync(unreadable, "hunter2");
    chmodSync(unreadable, 0);
    // root reads any file; anyone else meets EACCES. Either way the password is never quoted.
    let said: string;
    try {
      said = resolveStoreSetting({ env: {}, flag: "redis://h", passwordFile: unreadable }).description;
    } catch (error) {
      said = (error as Error).message;
    }
    expect(said).not.toContain("hunter2");
  });

  test("anything but memory or a Redis URL is refused, and text that is not a URL is never quoted", () => {
    expect(
      settingError(() => resolveStoreSetting({ env: { ORPHUS_ROUNDTABLE_STORE: "postgres://u:hunter2@db" } })).message,
    ).toBe(
      'Invalid room store setting (ORPHUS_ROUNDTABLE_STORE): postgres://u:***@db is neither "memory" nor a redis:// ' +
        "or rediss:// URL with a host",
    );
    expect(settingError(() => resolveStoreSetting({ env: {}, flag: "hunter2" })).message).not.toContain("hunter2");
  });
});

describe("store descriptions", () => {
  test("describeStoreSetting reads no file and masks every password", () => {
    expect(describeStoreSetting({})).toBe("memory");
    expect(describeStoreSetting({ ORPHUS_ROUNDTABLE_STORE: "redis://orphus:hunter2@h:6379/0" })).toBe(
      "redis://orphus:***@h:6379/0",
    );
    expect(describeStoreSetting({ ORPHUS_ROUNDTABLE_STORE: "memory" }, "redis://h")).toBe("redis://h");
    expect(describeStoreSetting({ ORPHUS_ROUNDTABLE_STORE: "hunter2" })).toBe("*** (7 characters)");
  });

  test("sameStore sets user names and passwords aside", () => {
    expect(sameStore("redis://a:***@h:6379/0", "redis://***@h:6379/0")).toBe(true);
    expect(sameStore("redis://h:6379/0", "redis://h:6379/1")).toBe(false);
    expect(sameStore("redis://h:6379", "rediss://h:6379")).toBe(false);
    expect(sameStore("memory", "memory")).toBe(true);
    expect(sameStore("memory", "redis://h")).toBe(false);
  });
});
