// The plan of `pnpm release:rehearse`, apart from the processes it runs: which bins to try and how, which
// import-and-call scripts must exist, and what a bin's help promises. Everything follows the manifests, so a new
// package or bin is rehearsed without editing this file.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { LEAVES, type WorkspacePackage } from "./package-map.js";

/** Packages that must have an import-and-call script (calls/<dir>.mjs): every leaf, the client and the CLI. */
export const REQUIRED_CALLS: ReadonlySet<string> = new Set([...LEAVES, "roundtable-client", "roundtable-cli"]);

/** One way a user starts a bin: by the bin's name in a project that installed the package, or with npx and the package name alone. */
export interface BinCheck {
  readonly packageName: string;
  readonly bin: string;
  /**
   * "installed": `npx <bin>` in a project that installed the package. "npx-package": `npx <package>` in an empty
   * folder, as a README's one-liner does (only for a package with exactly one bin, which npx then runs).
   */
  readonly how: "installed" | "npx-package";
}

/** Every bin of every published package, run as an installed bin; and by package name when it is the only bin. */
export function planBinChecks(packages: readonly WorkspacePackage[]): BinCheck[] {
  return packages
    .filter((pkg) => !pkg.private)
    .flatMap((pkg) => {
      const bins = Object.keys(pkg.bins).sort();
      const installed = bins.map((bin): BinCheck => ({ packageName: pkg.name, bin, how: "installed" }));
      const byName: BinCheck[] =
        bins.length === 1 ? [{ packageName: pkg.name, bin: bins[0] as string, how: "npx-package" }] : [];
      return [...installed, ...byName];
    });
}

/**
 * Whether a bin's --help offers --version. Every bin must: the rehearsal checks that its help lists it and that it
 * prints the published version, and fails for a bin that does not.
 */
export function offersVersionFlag(helpText: string): boolean {
  return /(^|[\s,[|])--version\b/m.test(helpText);
}

/** The import-and-call script of each package that has one; throws when a required one is missing. */
export function callScripts(packages: readonly WorkspacePackage[], callsDir: string): Map<string, string> {
  const scripts = new Map<string, string>();
  for (const pkg of packages.filter((p) => !p.private)) {
    const script = join(callsDir, `${pkg.dir}.mjs`);
    if (existsSync(script)) scripts.set(pkg.dir, script);
    else if (REQUIRED_CALLS.has(pkg.dir)) {
      throw new Error(
        `${pkg.name} needs an import-and-call script at ${script} (every leaf, the client and the CLI have one)`,
      );
    }
  }
  return scripts;
}
