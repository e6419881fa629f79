// Run by scripts/pack-check.ts in a project that installed @orphus/memory alone from its tarball (after npm built
// the native addon there): the addon loads, a store is created, written, read and queried through the package and
// through its bin, so a tarball whose addon cannot load fails the packaging check rather than a user.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "@orphus/memory";

const root = mkdtempSync(join(tmpdir(), "memory-pack-smoke-"));
const dir = join(root, "memory");
try {
  const librarian = openMemory({ dir, role: "librarian", env: {} });
  librarian.ingestTexts([{ title: "Release policy", body: "Packages release with changesets." }]);
  librarian.close();
  const reader = openMemory({ dir, env: {} });
  const answer = reader.query("releasing");
  reader.close();
  if (answer.status !== "hits" || answer.hits.length !== 1) throw new Error(`expected one hit, got:\n${answer.text}`);
  const bin = join("node_modules", "@orphus", "memory", "dist", "bin", "orphus-memory.js");
  const env = { PATH: process.env.PATH ?? "", ORPHUS_MEMORY_DIR: dir };
  const printed = execFileSync(process.execPath, [bin, "query", "changesets", "--json"], { env, encoding: "utf8" });
  const parsed = JSON.parse(printed);
  if (parsed.status !== "hits") throw new Error(`orphus-memory query printed:\n${printed}`);
  console.log("memory store created, written and queried from the tarball install");
} finally {
  rmSync(root, { recursive: true, force: true });
}
