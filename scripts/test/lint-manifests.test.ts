import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import {
  bundledPackageFindings,
  catalogDependencyFindings,
  catalogFindings,
  isExactVersion,
  privatePackageFindings,
  publishedFileFindings,
  publishedManifestFindings,
  publishedMetadataFindings,
  repositoryHome,
  workspaceCatalogs,
} from "../lib/lint-manifests.js";
import { matrixFindings, nodeMajors } from "../lib/lint-workflows.js";

const root = join(import.meta.dirname, "..", "..");
const read = (path: string): Record<string, unknown> => JSON.parse(readFileSync(join(root, path), "utf8"));
const rootManifest = read("package.json");
const bundled: ReadonlySet<string> = new Set(["@orphus/internal"]);

describe("the repository, stated once", () => {
  test("the root manifest names it; every other address is derived from it", () => {
    expect(repositoryHome(rootManifest)).toEqual({
      gitUrl: "git+https://github.com/orphus/roundtable.git",
      webUrl: "https://github.com/orphus/roundtable",
    });
    expect(() => repositoryHome({ repository: { url: "https://example.com/x" } })).toThrow(/git\+https:\/\/github.com/);
  });

  test("every published package carries repository (with its directory), homepage, bugs, keywords and provenance", () => {
    for (const dir of readdirSync(join(root, "packages"))) {
      const manifest = read(`packages/${dir}/package.json`);
      if (manifest["private"] === true) continue;
      expect({ dir, findings: publishedMetadataFindings(manifest, dir, rootManifest) }).toEqual({ dir, findings: [] });
    }
  });

  test("a manifest without them gets one finding each", () => {
    const bare = {
      name: "@orphus/framing",
      license: "MIT",
      engines: rootManifest["engines"],
      publishConfig: { access: "public" },
    };
    expect(publishedMetadataFindings(bare, "framing", rootManifest)).toEqual([
      '"repository" must be {"type":"git","url":"git+https://github.com/orphus/roundtable.git","directory":"packages/framing"}, got undefined',
      '"homepage" must be "https://github.com/orphus/roundtable/tree/main/packages/framing#readme", got undefined',
      '"bugs" must be {"url":"https://github.com/orphus/roundtable/issues"}, got undefined',
      '"keywords" must list at least three lowercase words, so a registry search finds the package',
      '"publishConfig" must set "access": "public" and "provenance": true (the release workflow attests each tarball)',
    ]);
  });
  test("a package of the workspace is depended on as workspace:^, so it publishes as a caret range", () => {
    const manifest = read("packages/rooms-redis/package.json");
    const exact = {
      ...manifest,
      dependencies: { "@orphus/rooms": "workspace:*" },
      peerDependencies: { "@orphus/digest": "workspace:~" },
    };
    expect(publishedMetadataFindings(exact, "rooms-redis", rootManifest)).toEqual([
      'dependencies.@orphus/rooms is "workspace:*"; a package of the workspace is depended on as "workspace:^" (published as ^<version>)',
      'peerDependencies.@orphus/digest is "workspace:~"; a package of the workspace is depended on as "workspace:^" (published as ^<version>)',
    ]);
  });
  test("an optional peer names the whole range it works with, so a peer's minor release bumps no major", () => {
    const manifest = read("packages/roundtable-broker/package.json");
    expect(manifest["peerDependencies"]).toEqual({ "@orphus/rooms-redis": "workspace:>=0.0.0 <1.0.0" });
    expect(publishedMetadataFindings(manifest, "roundtable-broker", rootManifest)).toEqual([]);
    const required = { ...manifest, peerDependenciesMeta: {} };
    expect(publishedMetadataFindings(required, "roundtable-broker", rootManifest)).toEqual([
      'peerDependencies.@orphus/rooms-redis is "workspace:>=0.0.0 <1.0.0"; a package of the workspace is depended on as "workspace:^" (published as ^<version>)',
    ]);
  });
  test("an optional peer of the workspace on a caret is refused: the first minor of the peer would make a major here", () => {
    const manifest = read("packages/pi-roundtable/package.json");
    expect(publishedMetadataFindings(manifest, "pi-roundtable", rootManifest)).toEqual([]);
    const caret = {
      ...manifest,
      peerDependencies: { ...(manifest["peerDependencies"] as object), "@orphus/memory": "workspace:^" },
    };
    expect(publishedMetadataFindings(caret, "pi-roundtable", rootManifest)).toEqual([
      'peerDependencies.@orphus/memory is "workspace:^"; an optional peer of the workspace names the whole range it works with (e.g. "workspace:>=0.0.0 <1.0.0"), or changesets releases this package as a new major whenever the peer\'s minor moves',
    ]);
  });
});

describe("a published manifest", () => {
  test("keeps no workspace: range (what npm pack leaves in) and no source condition", () => {
    const npmPacked = {
      dependencies: { "@orphus/framing": "workspace:^", zod: "4.6.7" },
      exports: { ".": { "@orphus/source": "./src/index.ts", import: "./dist/index.js" } },
    };
    expect(publishedManifestFindings(npmPacked, bundled)).toEqual([
      'dependencies.@orphus/framing is "workspace:^", which no installer outside the workspace resolves (pack with pnpm pack)',
      'dependencies.zod is "4.6.7", an exact version: a consumer on another release installs a second copy (a range comes from the catalog)',
      'exports still carry the "@orphus/source" condition, which points at src/ that is not published',
    ]);
    expect(
      publishedManifestFindings(
        { dependencies: { "@orphus/framing": "^0.1.0" }, exports: { ".": { import: "./dist/index.js" } } },
        bundled,
      ),
    ).toEqual([]);
  });

  test("keeps no catalog: range and no exact version of a dependency an installer reads", () => {
    const npmPacked = {
      dependencies: { zod: "catalog:", ioredis: "=6.0.0", "@orphus/rooms": "0.1.0" },
      optionalDependencies: { "better-sqlite3": "12.11.1" },
      peerDependencies: { "@mariozechner/pi-coding-agent": "catalog:pi-host" },
      devDependencies: { "@modelcontextprotocol/sdk": "catalog:", "@types/better-sqlite3": "7.6.13" },
    };
    expect(publishedManifestFindings(npmPacked, bundled)).toEqual([
      'dependencies.zod is "catalog:", which no installer outside the workspace resolves (pack with pnpm pack)',
      'dependencies.ioredis is "=6.0.0", an exact version: a consumer on another release installs a second copy (a range comes from the catalog)',
      'dependencies.@orphus/rooms is "0.1.0", an exact version: a consumer on another release installs a second copy (a range comes from the catalog)',
      'optionalDependencies.better-sqlite3 is "12.11.1", an exact version: a consumer on another release installs a second copy (a range comes from the catalog)',
      'peerDependencies.@mariozechner/pi-coding-agent is "catalog:pi-host", which no installer outside the workspace resolves (pack with pnpm pack)',
      'devDependencies.@modelcontextprotocol/sdk is "catalog:", which no installer outside the workspace resolves (pack with pnpm pack)',
    ]);
    const pnpmPacked = {
      dependencies: { zod: "^4.6.7", "better-sqlite3": "^12.11.1", "@orphus/rooms": "^0.1.0" },
      peerDependencies: { "@mariozechner/pi-coding-agent": "*", "@orphus/rooms-redis": ">=0.0.0 <1.0.0" },
      devDependencies: { "@types/better-sqlite3": "7.6.13" },
    };
    expect(publishedManifestFindings(pnpmPacked, bundled)).toEqual([]);
  });

  test("names no private package: one left in devDependencies (the .pnpmfile.mjs hook drops it) is found", () => {
    expect(
      publishedManifestFindings({ devDependencies: { "@orphus/internal": "0.0.0", ioredis: "6.0.0" } }, bundled),
    ).toEqual([
      "devDependencies.@orphus/internal is a private package of the workspace, bundled and never published; no manifest may name it",
    ]);
  });

  test("no built module or declaration imports a private package; a source map quoting the source, or a name, may", () => {
    const files = [
      { path: "package/dist/index.js", text: 'import { brandErrorClass } from "@orphus/internal";\nexport {};' },
      { path: "package/dist/index.d.ts", text: "import type { X } from '@orphus/internal/errors';" },
      { path: "package/dist/bin/cli.js", text: 'const m = await import("@orphus/internal");' },
      {
        path: "package/dist/index.js.map",
        text: '{"sourcesContent":["import { brandErrorClass } from \\"@orphus/internal\\";"]}',
      },
      {
        path: "package/dist/other.js",
        text: 'import { x } from "@orphus/internals";\n// bundled from @orphus/internal',
      },
      {
        path: "package/dist/version.js",
        text: 'var manifest = { devDependencies: { "@orphus/internal": "workspace:*" } };',
      },
      { path: "package/dist/side.js", text: 'import "@orphus/internal";\nconst r = require( "@orphus/internal" );' },
    ];
    expect(publishedFileFindings(files, bundled)).toEqual([
      "package/dist/index.js imports @orphus/internal, a private package that is bundled, never installed",
      "package/dist/index.d.ts imports @orphus/internal, a private package that is bundled, never installed",
      "package/dist/bin/cli.js imports @orphus/internal, a private package that is bundled, never installed",
      "package/dist/side.js imports @orphus/internal, a private package that is bundled, never installed",
    ]);
  });
});

describe("third-party versions, stated once in the catalog", () => {
  const catalogs = workspaceCatalogs(
    parse(readFileSync(join(root, "pnpm-workspace.yaml"), "utf8")) as Record<string, unknown>,
  );

  test("the catalog states caret ranges; better-sqlite3 stays on 12.x, ioredis on 6.0.x, uPlot on 1.x, pi's host any version", () => {
    expect(catalogs).toEqual({
      default: {
        zod: "^4.6.7",
        ioredis: "~6.0.0",
        "better-sqlite3": "^12.11.1",
        "@modelcontextprotocol/sdk": "^1.32.2",
        uplot: "^1.6.32",
      },
      "pi-host": { "@mariozechner/pi-coding-agent": "*" },
    });
    expect(catalogFindings(catalogs)).toEqual([]);
    expect(catalogFindings({ default: { zod: "4.6.7" }, host: { pi: "=0.73.1", other: "~1.2.3" } })).toEqual([
      'catalog.zod is "4.6.7", an exact version; state a caret range ("^4.6.7") and bound it in a comment where it must stop',
      'catalogs.host.pi is "=0.73.1", an exact version; state a caret range ("^0.73.1") and bound it in a comment where it must stop',
    ]);
  });

  test("an exact version is one that admits a single release", () => {
    for (const exact of ["4.6.7", "=4.6.7", "v4.6.7", "1.0.0-beta.1", "1.0.0+build.5"]) {
      expect({ exact, is: isExactVersion(exact) }).toEqual({ exact, is: true });
    }
    for (const range of ["^4.6.7", "~4.6.7", "*", ">=0.0.0 <1.0.0", "4", "4.6", "4.x", "^3.25 || ^4.0"]) {
      expect({ range, is: isExactVersion(range) }).toEqual({ range, is: false });
    }
  });

  test("every package takes its third-party dependencies from the catalog", () => {
    for (const dir of readdirSync(join(root, "packages"))) {
      expect({ dir, findings: catalogDependencyFindings(read(`packages/${dir}/package.json`), catalogs) }).toEqual({
        dir,
        findings: [],
      });
    }
  });

  test("a pinned dependency, a peer, a devDependency the catalog holds and a missing entry get one finding each", () => {
    const manifest = {
      dependencies: { "@orphus/rooms": "workspace:^", zod: "4.6.7", "left-pad": "catalog:" },
      peerDependencies: { "@mariozechner/pi-coding-agent": "*" },
      optionalDependencies: { "better-sqlite3": "catalog:pi-host" },
      devDependencies: { ioredis: "6.0.0", "@types/better-sqlite3": "7.6.13", "@orphus/internal": "workspace:*" },
    };
    expect(catalogDependencyFindings(manifest, catalogs)).toEqual([
      'dependencies.zod is "4.6.7"; a third-party dependency is "catalog:", its range stated once in pnpm-workspace.yaml',
      'dependencies.left-pad is "catalog:", but pnpm-workspace.yaml\'s catalog has no left-pad',
      'optionalDependencies.better-sqlite3 is "catalog:pi-host", but pnpm-workspace.yaml\'s catalogs.pi-host has no better-sqlite3',
      'peerDependencies.@mariozechner/pi-coding-agent is "*"; a third-party dependency is "catalog:", its range stated once in pnpm-workspace.yaml',
      'devDependencies.ioredis is "6.0.0"; the catalog holds ioredis, so it is "catalog:" here too (one version in the workspace)',
    ]);
  });
});

describe("a private package, bundled into the packages that use it", () => {
  test("packages/internal is private, source only and without dependencies; every user lists it as a devDependency", () => {
    const internal = read("packages/internal/package.json");
    expect(internal["private"]).toBe(true);
    expect(privatePackageFindings(internal, existsSync(join(root, "packages/internal/tsup.config.ts")))).toEqual([]);
    for (const dir of readdirSync(join(root, "packages"))) {
      expect({ dir, findings: bundledPackageFindings(read(`packages/${dir}/package.json`), bundled) }).toEqual({
        dir,
        findings: [],
      });
    }
  });

  test("a private package with a build, a dist or something to publish gets one finding each", () => {
    const built = {
      name: "@orphus/internal",
      private: true,
      files: ["dist"],
      publishConfig: { access: "public" },
      exports: { ".": { "@orphus/source": "./src/index.ts", types: "./dist/index.d.ts" } },
      scripts: { build: "tsup" },
      dependencies: { zod: "4.6.7" },
    };
    expect(privatePackageFindings(built, false)).toEqual([
      'is private and publishes nothing: drop "files"',
      'is private and publishes nothing: drop "publishConfig"',
      "is private and has no build of its own: the packages that use it bundle its source",
      'is private and has no dist: exports["."] must name its source (./src/...) only',
      "is bundled into other packages and must have no dependencies",
    ]);
  });

  test("a user that makes it a dependency, or names a range other than workspace:*, is told", () => {
    const manifest = {
      dependencies: { "@orphus/internal": "workspace:^" },
      peerDependencies: { "@orphus/internal": "workspace:*" },
      devDependencies: { "@orphus/internal": "workspace:^" },
    };
    expect(bundledPackageFindings(manifest, bundled)).toEqual([
      "dependencies.@orphus/internal is private and bundled at build time: list it in devDependencies",
      "peerDependencies.@orphus/internal is private and bundled at build time: list it in devDependencies",
      'devDependencies.@orphus/internal is "workspace:^"; a private package has no published version: "workspace:*"',
    ]);
  });
});

describe("the Node lines", () => {
  test("engines names the tested lines, and the CI matrix runs each on Linux, macOS and Windows", () => {
    expect(rootManifest["engines"]).toEqual({ node: "^20.19.0 || ^22.12.0 || ^24.0.0" });
    expect(nodeMajors("^20.19.0 || ^22.12.0 || ^24.0.0")).toEqual([20, 22, 24]);
    expect(() => nodeMajors(">=20.19")).toThrow(/caret ranges joined by \|\|/);
    const ci = readFileSync(join(root, ".github", "workflows", "ci.yml"), "utf8");
    expect(matrixFindings(ci, [20, 22, 24])).toEqual([]);
    expect(matrixFindings(ci, [20, 22])).toEqual([
      "tests Node [20,22,24] but engines.node names [20,22]; make them agree",
    ]);
  });
});
