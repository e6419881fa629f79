// What a program loads of our packages, read from the bundler rather than from the import lines: `entry` is bundled
// from source the way the bins ship (every @orphus package from its src/ through the "@orphus/source" condition), with
// every other dependency left an import, and the bundler's metafile lists the files it took in. A module that is in
// that list is one the program loads when it starts; one that is not, it never loads.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { build } from "tsup";
import { bundledProgramBuild } from "../tsup.base.js";

const repositoryRoot = join(import.meta.dirname, "..");

/** The repository files (relative, with "/") that bundling `entry` (absolute or repository-relative) takes in. */
export async function bundledSourceFiles(entry: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "rt-inputs-"));
  try {
    await build({
      ...bundledProgramBuild({ program: resolve(repositoryRoot, entry) }),
      // Our packages are bundled from source; anything else (zod, ioredis, the MCP SDK, node:*) stays an import, since
      // only our own modules are in question.
      noExternal: [/^@orphus\//],
      external: [/^(?![./]|@orphus\/)/],
      minify: false,
      metafile: true,
      silent: true,
      config: false,
      outDir: dir,
    });
    const metafile = JSON.parse(readFileSync(join(dir, "metafile-esm.json"), "utf8")) as {
      inputs: Record<string, unknown>;
    };
    // esbuild names inputs relative to its working directory, which vitest sets per project.
    return Object.keys(metafile.inputs)
      .map((input) => relative(repositoryRoot, resolve(process.cwd(), input)).split("\\").join("/"))
      .sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
