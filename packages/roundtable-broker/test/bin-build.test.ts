// @source-only: it runs the package's own tsup configuration, which is not published, into a temporary folder.
// The shipped bin's build must clean its own output: the Redis chunk's name carries the hash of its content, so a
// build after any change to the store writes a new one, and a chunk left from an earlier build would pile up in
// dist/bin/chunks/ and ship in a tarball packed from that tree.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { expect, test } from "vitest";
import { build, type Options } from "tsup";
import shipped from "../tsup.config.js";
import { tempDir } from "../../../test-support/tmp.js";

const packageRoot = join(import.meta.dirname, "..");

test("the bin build removes chunks of an earlier build from dist/bin, and leaves the library's files alone", async () => {
  const configs = (Array.isArray(shipped) ? shipped : [shipped]) as Options[];
  const bin = configs.find((config) => JSON.stringify(config.entry).includes("src/bin/broker.ts"));
  if (bin === undefined) throw new Error("tsup.config.ts has no build of src/bin/broker.ts");
  const root = tempDir();
  const dist = join(root, "dist");
  // What an earlier build left: a Redis chunk under another hash, and the library build's output beside the bin.
  mkdirSync(join(dist, "bin", "chunks"), { recursive: true });
  writeFileSync(join(dist, "bin", "chunks", "src-STALE000.js"), 'redis.call("GET"); commandQueue;\n');
  writeFileSync(join(dist, "index.js"), "export {};\n");
  const entry = Object.fromEntries(
    Object.entries(bin.entry as Record<string, string>).map(([name, file]) => [
      name,
      isAbsolute(file) ? file : join(packageRoot, file),
    ]),
  );
  // The configuration's output folder, moved under the temporary one; as in the package, relative to its root.
  const outDir = join(root, bin.outDir ?? "dist");
  await build({ ...bin, entry, outDir, silent: true, config: false });

  const chunks = join(dist, "bin", "chunks");
  const withRedis = readdirSync(chunks).filter((file) => {
    const text = readFileSync(join(chunks, file), "utf8");
    return text.includes("redis.call(") && text.includes("commandQueue");
  });
  expect(withRedis).toHaveLength(1);
  expect(withRedis).not.toContain("src-STALE000.js");
  expect(existsSync(join(dist, "bin", "broker.js"))).toBe(true);
  expect(readFileSync(join(dist, "index.js"), "utf8")).toBe("export {};\n");
});
