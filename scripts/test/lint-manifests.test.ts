import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { publishedManifestFindings, publishedMetadataFindings, repositoryHome } from "../lib/lint-manifests.js";
import { matrixFindings, nodeMajors } from "../lib/lint-workflows.js";

const root = join(import.meta.dirname, "..", "..");
const read = (path: string): Record<string, unknown> => JSON.parse(readFileSync(join(root, path), "utf8"));
const rootManifest = read("package.json");

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
    const exact = { ...manifest, dependencies: { "@orphus/rooms": "workspace:*" }, peerDependencies: { "@orphus/digest": "workspace:~" } };
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
});

describe("a published manifest", () => {
  test("keeps no workspace: range (what npm pack leaves in) and no source condition", () => {
    const npmPacked = {
      dependencies: { "@orphus/framing": "workspace:^", zod: "4.6.7" },
      exports: { ".": { "@orphus/source": "./src/index.ts", import: "./dist/index.js" } },
    };
    expect(publishedManifestFindings(npmPacked)).toEqual([
      'dependencies.@orphus/framing is "workspace:^", which no installer outside the workspace resolves (pack with pnpm pack)',
      'exports still carry the "@orphus/source" condition, which points at src/ that is not published',
    ]);
    expect(
      publishedManifestFindings({ dependencies: { "@orphus/framing": "^0.1.0" }, exports: { ".": { import: "./dist/index.js" } } }),
    ).toEqual([]);
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
