// The README's "From a clone" commands: each root script runs a bin of a package from its source, and the README
// names every one of them, so `pnpm roundtable …` and the rest keep working as packages move.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { workspacePackages } from "../lib/package-map.js";

const root = join(import.meta.dirname, "..", "..");
const scripts = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> })
  .scripts;
const readme = readFileSync(join(root, "README.md"), "utf8");

/** Every bin of every package, with the source its root script must run: dist/bin/x.js is built from src/bin/x.ts. */
const bins = workspacePackages(root).flatMap((pkg) =>
  Object.entries(pkg.bins).map(([bin, path]) => ({
    bin,
    source: join("packages", pkg.dir, path.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")),
  })),
);

test("each bin a user runs from a clone has a root script that runs its source with the workspace condition", () => {
  const wanted = bins.filter((b) => b.bin !== "orphus-roundtable-broker"); // clients start the broker themselves
  expect(wanted.map((b) => b.bin).sort()).toEqual(["orphus-memory", "orphus-roundtable-mcp", "roundtable"]);
  for (const { bin, source } of wanted) {
    expect(scripts[bin]).toBe(`tsx --conditions=@orphus/source ${source}`);
    expect(existsSync(join(root, source))).toBe(true);
    expect(readme).toContain(`| \`pnpm ${bin} `);
  }
  expect(scripts["demo"]).toBe("tsx --conditions=@orphus/source packages/roundtable-cli/demo/demo.ts");
  expect(existsSync(join(root, "packages/roundtable-cli/demo/demo.ts"))).toBe(true);
});
