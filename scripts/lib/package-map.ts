// Facts about the workspace's packages that more than one script needs: which are leaves, and what each manifest
// says about its name, version and bins.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Leaves of the package map: they import no other package of ours (lint), and the rehearsal calls each one. */
export const LEAVES: ReadonlySet<string> = new Set(["framing", "rooms", "digest", "agent-env"]);

/** One workspace package, as its manifest describes it. */
export interface WorkspacePackage {
  /** Folder under packages/, e.g. "roundtable-mcp". */
  readonly dir: string;
  readonly name: string;
  readonly version: string;
  readonly private: boolean;
  /** Bin name to path, e.g. { "orphus-roundtable-mcp": "./dist/bin/mcp.js" }. */
  readonly bins: Readonly<Record<string, string>>;
}

/** Every packages/<dir>/package.json under `root`, sorted by folder. */
export function workspacePackages(root: string): WorkspacePackage[] {
  const packagesDir = join(root, "packages");
  return readdirSync(packagesDir)
    .filter((dir) => existsSync(join(packagesDir, dir, "package.json")))
    .sort()
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(join(packagesDir, dir, "package.json"), "utf8")) as {
        name: string;
        version: string;
        private?: boolean;
        bin?: Record<string, string> | string;
      };
      const bins =
        typeof manifest.bin === "string"
          ? { [manifest.name.split("/").pop() as string]: manifest.bin }
          : (manifest.bin ?? {});
      return { dir, name: manifest.name, version: manifest.version, private: manifest.private === true, bins };
    });
}
