import { readdir, readFile, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  ArtifactWriteError,
  BoundsInputError,
  BoundsLimitError,
  BoundsOptionError,
  MAX_ARTIFACTS_PER_RUN,
  openArtifactRun,
} from "@orphus/bounds";
import { PINNED_LINE_MAX_LENGTH, renderDigest } from "@orphus/digest";
import { RUN_DIR_MAX_LENGTH, slugOf } from "../src/artifacts.js";
import { STUB_FIXED_MAX_LENGTH, stubLine } from "../src/stub.js";
import { memoryFs } from "./memory-fs.js";
import { useTempDir } from "./temp-dir.js";

const temp = useTempDir("bounds-artifacts-");

describe("on the real file system", () => {
  test("a run is a new directory; files hold the output byte for byte", async () => {
    const run = await openArtifactRun({ dir: join(temp.path(), "a", "b") });
    expect(dirname(run.dir)).toBe(join(temp.path(), "a", "b"));
    expect(run.dir).toMatch(/\/run-[A-Za-z0-9]{6}$/);
    const text = "héllo 😀\r\n\u0000\u001b[31mred\n";
    const raw = new Uint8Array([0xff, 0xfe, 0x00, 0x80, 0xc3]); // not UTF-8 at all
    const [textPath, rawPath] = await Promise.all([run.write("greeter", text), run.write("dumper", raw)]);
    expect(textPath).toBe(join(run.dir, "001-greeter.txt"));
    expect(rawPath).toBe(join(run.dir, "002-dumper.txt"));
    expect(await readFile(textPath, "utf8")).toBe(text);
    expect(new Uint8Array(await readFile(rawPath))).toEqual(raw);
    expect(await readdir(run.dir)).toEqual(["001-greeter.txt", "002-dumper.txt"]); // no temp files left
    expect((await stat(textPath)).mode & 0o777).toBe(0o600);
    expect((await stat(run.dir)).mode & 0o777).toBe(0o700);
    expect(run.count).toBe(2);
  });

  test("equal names in one run, and two runs at once, never share a path", async () => {
    const dir = join(temp.path(), "shared");
    const runs = await Promise.all([openArtifactRun({ dir }), openArtifactRun({ dir })]);
    expect(runs[0]!.dir).not.toBe(runs[1]!.dir);
    const writes = runs.flatMap((run, r) => [0, 1, 2].map((i) => run.write("worker", `run ${r} child ${i}`)));
    const paths = await Promise.all(writes);
    expect(new Set(paths).size).toBe(6);
    for (const [k, path] of paths.entries()) {
      expect(await readFile(path, "utf8")).toBe(`run ${Math.floor(k / 3)} child ${k % 3}`);
    }
  });

  test("an error detail gets its own .error.txt file", async () => {
    const run = await openArtifactRun({ dir: temp.path() });
    expect(await run.write("tester", "out")).toMatch(/001-tester\.txt$/);
    expect(await run.write("tester", "boom", "error")).toMatch(/002-tester\.error\.txt$/);
  });
});

describe("writes go through a temporary file and a rename", () => {
  test("the order of calls", async () => {
    const fs = memoryFs();
    const run = await openArtifactRun({ dir: "/home/u/artifacts", fs });
    await run.write("scout", "found it");
    expect(fs.calls).toEqual([
      "mkdir /home/u/artifacts",
      "mkdtemp /home/u/artifacts/run-000001",
      "writeFile /home/u/artifacts/run-000001/.001-scout.txt.tmp wx 600",
      "rename /home/u/artifacts/run-000001/.001-scout.txt.tmp /home/u/artifacts/run-000001/001-scout.txt",
    ]);
    expect(new TextDecoder().decode(fs.files.get("/home/u/artifacts/run-000001/001-scout.txt"))).toBe("found it");
  });

  test("a failed rename removes the temporary file and throws ArtifactWriteError with the cause", async () => {
    const fs = memoryFs();
    const run = await openArtifactRun({ dir: "/a", fs });
    fs.failOn.add("001-scout.txt");
    const error = await run.write("scout", "x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArtifactWriteError);
    expect((error as ArtifactWriteError).code).toBe("ERR_ARTIFACT_WRITE_FAILED");
    expect((error as ArtifactWriteError).path).toBe("/a/run-000001/001-scout.txt");
    expect((error as Error).message).toBe(
      "Cannot write the artifact /a/run-000001/001-scout.txt: EACCES: injected failure, /a/run-000001/001-scout.txt",
    );
    expect(((error as Error).cause as { code: string }).code).toBe("EACCES");
    expect(fs.calls.at(-1)).toBe("rm /a/run-000001/.001-scout.txt.tmp");
    expect([...fs.files.keys()]).toEqual([]);
  });

  test("a run directory that cannot be created is ArtifactWriteError", async () => {
    const fs = memoryFs();
    fs.mkdtemp = async () => {
      throw new Error("EROFS: read-only file system");
    };
    await expect(openArtifactRun({ dir: "/ro", fs })).rejects.toThrow(
      "Cannot create an artifacts run directory under /ro: EROFS: read-only file system",
    );
  });
});

describe("limits and validation", () => {
  test("the directory must be absolute, short and shown as written", async () => {
    const fs = memoryFs();
    const forged = "/srv/a · error: /srv/evil";
    for (const dir of [
      "relative/dir",
      `/${"d".repeat(128)}`,
      "/a\u001b]0;x",
      "/a\nb",
      "/a  b",
      "/a\u202eb",
      forged,
      "/a ",
      "/a\u200bb",
      7,
    ]) {
      await expect(openArtifactRun({ dir: dir as string, fs })).rejects.toThrow(BoundsOptionError);
    }
    await expect(openArtifactRun({ dir: `/${"d".repeat(127)}`, fs })).resolves.toBeDefined();
    await expect(openArtifactRun({ dir: "/home/me/My Artifacts/ünï", fs })).resolves.toBeDefined();
  });

  test("a run dir from an injected mkdtemp is checked too", async () => {
    const fs = memoryFs();
    fs.mkdtemp = async () => `/${"r".repeat(RUN_DIR_MAX_LENGTH)}`;
    await expect(openArtifactRun({ dir: "/a", fs })).rejects.toThrow(BoundsOptionError);
  });

  test("the widest stub holds both paths whole inside the digest's pinned-line cap", () => {
    expect(RUN_DIR_MAX_LENGTH).toBe(150);
    const runDir = `/${"r".repeat(RUN_DIR_MAX_LENGTH - 1)}`;
    const file = `99999-${"s".repeat(40)}`;
    const stub = stubLine("timed-out", "n".repeat(100), `${runDir}/${file}.txt`, `${runDir}/${file}.error.txt`);
    expect(stub.length).toBe(505);
    expect(stub.length).toBeLessThanOrEqual(PINNED_LINE_MAX_LENGTH);
    expect(STUB_FIXED_MAX_LENGTH).toBe(97);
    expect(renderDigest({ items: [{ seq: 1, author: "n", body: "", pinned: stub }], recovery: "pinned" }).text).toBe(
      `${stub}\n[#1 n]`,
    );
  });

  test(`at most ${MAX_ARTIFACTS_PER_RUN} files per run`, async () => {
    const fs = memoryFs();
    const run = await openArtifactRun({ dir: "/a", fs });
    await Promise.all(Array.from({ length: MAX_ARTIFACTS_PER_RUN }, () => run.write("x", "")));
    expect(fs.files.has("/a/run-000001/10000-x.txt")).toBe(true);
    await expect(run.write("x", "")).rejects.toThrow(BoundsLimitError);
  });

  test("names and contents are checked", async () => {
    const run = await openArtifactRun({ dir: "/a", fs: memoryFs() });
    await expect(run.write(1 as unknown as string, "")).rejects.toThrow(BoundsInputError);
    await expect(run.write("x", { length: 1 } as unknown as string)).rejects.toThrow(BoundsInputError);
    await expect(run.write("x", "", "log" as "error")).rejects.toThrow(BoundsInputError);
    expect(run.count).toBe(0);
  });

  test("file names keep letters, digits, dot, underscore and dash", () => {
    expect(slugOf("code reviewer #2")).toBe("code-reviewer-2");
    expect(slugOf("../../etc/passwd")).toBe("etc-passwd");
    expect(slugOf("日本語")).toBe("task");
    expect(slugOf("")).toBe("task");
    expect(slugOf("a".repeat(50))).toBe("a".repeat(40));
    expect(slugOf(".hidden.")).toBe("hidden");
  });
});
