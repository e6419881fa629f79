import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { createFileLogger, formatLogLine } from "@orphus/roundtable-broker";
import { tempDir } from "../../../test-support/tmp.js";

test("a log line: ISO time, level, message, then key=value facts on one line", () => {
  expect(formatLogLine(0, "warn", "closing connection", { role: "critic", bytes: 12, gone: undefined })).toBe(
    "1970-01-01T00:00:00.000Z warn closing connection role=critic bytes=12\n",
  );
  expect(formatLogLine(0, "info", "two\nlines", { error: 'has "quotes" and spaces', empty: "" })).toBe(
    '1970-01-01T00:00:00.000Z info two lines error="has \\"quotes\\" and spaces" empty=""\n',
  );
});

test("the file log is size-bounded: past maxBytes it rotates to .1, so the two hold at most about twice that", () => {
  const file = join(tempDir(), "broker.log");
  const logger = createFileLogger(file, { maxBytes: 500, clock: () => 0 });
  for (let i = 0; i < 200; i++) logger.info(`line ${i}`, { i });
  expect(statSync(file).size).toBeLessThanOrEqual(500);
  expect(statSync(`${file}.1`).size).toBeLessThanOrEqual(500);
  expect(existsSync(`${file}.2`)).toBe(false);
  const lines = readFileSync(file, "utf8").trimEnd().split("\n");
  expect(lines[lines.length - 1]).toBe("1970-01-01T00:00:00.000Z info line 199 i=199");
  expect(statSync(file).mode & 0o777).toBe(0o600);
});

test("a log that cannot be written never throws", () => {
  const logger = createFileLogger(join(tempDir(), "missing", "dir", "broker.log"));
  expect(() => logger.error("still fine")).not.toThrow();
});
