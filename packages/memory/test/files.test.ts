// Reading the files an ingest found: their size from the walk spares a read of a file too large, and a file that
// changed size since it was found is read whole, or refused once it is past the limit.
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { readTextFile } from "../src/ingest/files.js";
import { tempDir } from "../../../test-support/tmp.js";

describe("readTextFile", () => {
  it("reads a file whole whatever size it was found at, up to the limit", () => {
    const dir = tempDir();
    const file = path.join(dir, "grown.md");
    const text = `# Grown\n\n${"word ".repeat(40_000)}`;
    writeFileSync(file, text);
    // Found small, read large: the buffer grows as the file is read.
    expect(readTextFile({ path: file, size: 10 })).toMatchObject({ text });
    expect(readTextFile({ path: file, size: 10 }, 1000)).toEqual({
      skip: { path: file, kind: "too-large", reason: "larger than 1000 bytes (it grew while it was read)", files: 1 },
    });
    // Found too large: not read at all (the file is smaller now, and still skipped by what the walk saw).
    expect(readTextFile({ path: file, size: 5000 }, 1000)).toMatchObject({
      skip: { kind: "too-large", reason: "larger than 1000 bytes (5000 bytes)" },
    });
    const empty = path.join(dir, "empty.md");
    writeFileSync(empty, "");
    expect(readTextFile({ path: empty, size: 0 })).toMatchObject({ text: "" });
  });

  it("refuses what is not UTF-8 text, drops a byte order mark, and says a file that is gone is not found", () => {
    const dir = tempDir();
    const latin1 = path.join(dir, "latin1.txt");
    writeFileSync(latin1, Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    expect(readTextFile({ path: latin1, size: 4 })).toMatchObject({
      skip: { kind: "not-text", reason: "binary (not UTF-8 text)" },
    });
    const bom = path.join(dir, "bom.md");
    writeFileSync(bom, "\ufeff# Title\n");
    expect(readTextFile({ path: bom, size: 11 })).toMatchObject({ text: "# Title\n" });
    expect(readTextFile({ path: path.join(dir, "gone.md"), size: 3 })).toMatchObject({
      skip: { kind: "not-found", reason: "not found" },
    });
  });
});
