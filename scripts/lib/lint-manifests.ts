// What a registry page and an installer need from each published manifest, checked against the one statement of
// where the project lives: the root package.json's "repository". Every package points at that repository (with its
// own directory), its README there, and the repository's issues; every package promises the root's "engines".

/** Where the project lives, as the root manifest states it. */
export interface RepositoryHome {
  /** The "repository.url" every manifest carries, e.g. git+https://github.com/orphus/roundtable.git. */
  readonly gitUrl: string;
  /** The web address READMEs link to, e.g. https://github.com/orphus/roundtable. */
  readonly webUrl: string;
}

type Manifest = Record<string, unknown>;

/** Reads the repository from the root manifest: a git+https GitHub URL ending in .git. */
export function repositoryHome(root: Manifest): RepositoryHome {
  const url = (root["repository"] as { url?: unknown } | undefined)?.url;
  const match = typeof url === "string" ? /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+)\.git$/.exec(url) : null;
  if (match === null) {
    throw new Error(
      `the root package.json must state "repository": { "url": "git+https://github.com/<owner>/<name>.git" }, ` +
        `got ${JSON.stringify(url)}`,
    );
  }
  return { gitUrl: url as string, webUrl: match[1] as string };
}

/** The findings for one published package's manifest (packages/<dir>/package.json). */
export function publishedMetadataFindings(manifest: Manifest, dir: string, root: Manifest): string[] {
  const home = repositoryHome(root);
  const findings: string[] = [];
  const expect = (field: string, wanted: unknown): void => {
    if (JSON.stringify(manifest[field]) !== JSON.stringify(wanted)) {
      findings.push(`"${field}" must be ${JSON.stringify(wanted)}, got ${JSON.stringify(manifest[field])}`);
    }
  };
  expect("repository", { type: "git", url: home.gitUrl, directory: `packages/${dir}` });
  expect("homepage", `${home.webUrl}/tree/main/packages/${dir}#readme`);
  expect("bugs", { url: `${home.webUrl}/issues` });
  expect("license", root["license"]);
  expect("engines", root["engines"]);
  const keywords = manifest["keywords"];
  if (
    !Array.isArray(keywords) ||
    keywords.length < 3 ||
    keywords.some((k) => typeof k !== "string" || !/^[a-z0-9-]+$/.test(k))
  ) {
    findings.push('"keywords" must list at least three lowercase words, so a registry search finds the package');
  }
  // `workspace:*` publishes the exact version, so a patch of one package would force a release of every dependent;
  // the release rehearsal checks each published range is ^<version>. An optional peer is the exception: changesets
  // bumps a dependent's major whenever a peer's new version leaves its range, and ^0.x leaves it at every minor, so
  // an optional peer names the whole range it works with (the broker's Redis store: `>=0.0.0 <1.0.0`).
  const optionalPeers = (manifest["peerDependenciesMeta"] as Record<string, { optional?: unknown }> | undefined) ?? {};
  for (const field of INSTALLED_FIELDS) {
    for (const [name, range] of Object.entries((manifest[field] as Record<string, string> | undefined) ?? {})) {
      if (field === "peerDependencies" && optionalPeers[name]?.optional === true) {
        if (/^workspace:[\^~*]$/.test(range)) {
          findings.push(
            `peerDependencies.${name} is "${range}"; an optional peer of the workspace names the whole range it works with (e.g. "workspace:>=0.0.0 <1.0.0"), or changesets releases this package as a new major whenever the peer's minor moves`,
          );
        }
        continue;
      }
      if (range.startsWith("workspace:") && range !== "workspace:^") {
        findings.push(
          `${field}.${name} is "${range}"; a package of the workspace is depended on as "workspace:^" (published as ^<version>)`,
        );
      }
    }
  }
  const publishConfig = manifest["publishConfig"] as { provenance?: unknown; access?: unknown } | undefined;
  if (publishConfig?.provenance !== true || publishConfig.access !== "public") {
    findings.push(
      '"publishConfig" must set "access": "public" and "provenance": true (the release workflow attests each tarball)',
    );
  }
  return findings;
}

/** Dependency fields a consumer's installer reads. */
const INSTALLED_FIELDS = ["dependencies", "optionalDependencies", "peerDependencies"] as const;

/** The catalogs of pnpm-workspace.yaml: the default one ("catalog:") under "default", then each named one. */
export type Catalogs = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** Reads the catalogs out of a parsed pnpm-workspace.yaml: `catalog` is the default, `catalogs` the named ones. */
export function workspaceCatalogs(workspace: Record<string, unknown>): Catalogs {
  const named = (workspace["catalogs"] as Record<string, Record<string, string>> | undefined) ?? {};
  return { ...named, default: (workspace["catalog"] as Record<string, string> | undefined) ?? named["default"] ?? {} };
}

/**
 * True for a range that admits one version only ("4.6.7", "=4.6.7", "v4.6.7"): published, it makes a consumer on any
 * other release of the package install a second copy beside its own.
 */
export function isExactVersion(range: string): boolean {
  return /^[=v]?\d+\.\d+\.\d+(?:-[\w.-]+)?(?:\+[\w.-]+)?$/.test(range.trim());
}

/**
 * Findings for any package's manifest about where its third-party versions come from: every dependency an installer
 * reads (dependencies, optional and peer ones) is "catalog:" or "catalog:<name>", so pnpm-workspace.yaml states each
 * range once and `pnpm pack` writes it into the tarball; a devDependency on a package the default catalog holds is
 * "catalog:" too, so the workspace tests one version of it. The catalog must hold the entry named.
 */
export function catalogDependencyFindings(manifest: Manifest, catalogs: Catalogs): string[] {
  const findings: string[] = [];
  const entry = (field: string, name: string, range: string): void => {
    const catalog = range.slice("catalog:".length) || "default";
    if (catalogs[catalog]?.[name] === undefined) {
      findings.push(
        `${field}.${name} is "${range}", but pnpm-workspace.yaml's ${catalog === "default" ? "catalog" : `catalogs.${catalog}`} has no ${name}`,
      );
    }
  };
  for (const field of INSTALLED_FIELDS) {
    for (const [name, range] of Object.entries((manifest[field] as Record<string, string> | undefined) ?? {})) {
      if (range.startsWith("workspace:")) continue;
      if (range.startsWith("catalog:")) entry(field, name, range);
      else
        findings.push(
          `${field}.${name} is "${range}"; a third-party dependency is "catalog:", its range stated once in pnpm-workspace.yaml`,
        );
    }
  }
  for (const [name, range] of Object.entries(
    (manifest["devDependencies"] as Record<string, string> | undefined) ?? {},
  )) {
    if (range.startsWith("catalog:")) entry("devDependencies", name, range);
    else if (catalogs["default"]?.[name] !== undefined && !range.startsWith("workspace:")) {
      findings.push(
        `devDependencies.${name} is "${range}"; the catalog holds ${name}, so it is "catalog:" here too (one version in the workspace)`,
      );
    }
  }
  return findings;
}

/** Findings for the catalogs themselves: each entry is a range a consumer's own copy can satisfy, never one version. */
export function catalogFindings(catalogs: Catalogs): string[] {
  const findings: string[] = [];
  for (const [catalog, entries] of Object.entries(catalogs)) {
    for (const [name, range] of Object.entries(entries)) {
      if (isExactVersion(range)) {
        const where = catalog === "default" ? "catalog" : `catalogs.${catalog}`;
        findings.push(
          `${where}.${name} is "${range}", an exact version; state a caret range ("^${range.replace(/^[=v]/, "")}") and bound it in a comment where it must stop`,
        );
      }
    }
  }
  return findings;
}

/**
 * Findings for a private package's manifest (packages/internal): source only. It has no build and publishes nothing;
 * the packages that use it bundle its source, so it has no dependencies of its own either (their imports would be
 * left in packages that do not declare them).
 */
export function privatePackageFindings(manifest: Manifest, hasBuildConfig: boolean): string[] {
  const findings: string[] = [];
  for (const field of ["files", "publishConfig", "bin", "main", "types"]) {
    if (field in manifest) findings.push(`is private and publishes nothing: drop "${field}"`);
  }
  if (hasBuildConfig || (manifest["scripts"] as Record<string, string> | undefined)?.["build"] !== undefined) {
    findings.push("is private and has no build of its own: the packages that use it bundle its source");
  }
  const dot = (manifest["exports"] as Record<string, unknown> | undefined)?.["."];
  if (
    typeof dot !== "object" ||
    dot === null ||
    Object.values(dot).some((target) => typeof target !== "string" || !target.startsWith("./src/"))
  ) {
    findings.push('is private and has no dist: exports["."] must name its source (./src/...) only');
  }
  for (const field of INSTALLED_FIELDS) {
    if (Object.keys((manifest[field] as Record<string, string> | undefined) ?? {}).length > 0) {
      findings.push(`is bundled into other packages and must have no ${field}`);
    }
  }
  return findings;
}

/**
 * Findings for any package's manifest about the private packages it uses: each is bundled at build time, so it is a
 * devDependency ("workspace:*"; no version of it is ever published), never a dependency an installer would look for.
 */
export function bundledPackageFindings(manifest: Manifest, privatePackages: ReadonlySet<string>): string[] {
  const findings: string[] = [];
  for (const field of INSTALLED_FIELDS) {
    for (const name of Object.keys((manifest[field] as Record<string, string> | undefined) ?? {})) {
      if (privatePackages.has(name))
        findings.push(`${field}.${name} is private and bundled at build time: list it in devDependencies`);
    }
  }
  for (const [name, range] of Object.entries(
    (manifest["devDependencies"] as Record<string, string> | undefined) ?? {},
  )) {
    if (privatePackages.has(name) && range !== "workspace:*") {
      findings.push(`devDependencies.${name} is "${range}"; a private package has no published version: "workspace:*"`);
    }
  }
  return findings;
}

/**
 * Findings for a manifest as it is published (read back out of a packed tarball): no `workspace:` or `catalog:`
 * range an installer outside this workspace cannot resolve (`npm pack` leaves them in; `pnpm pack` rewrites them), no
 * exact version of a dependency an installer reads (a consumer on another release would get a second copy), no
 * private package of the workspace named (it is bundled; the workspace's .pnpmfile.mjs drops it from
 * devDependencies), and no source export condition.
 */
export function publishedManifestFindings(manifest: Manifest, privatePackages: ReadonlySet<string>): string[] {
  const findings: string[] = [];
  for (const field of [...INSTALLED_FIELDS, "devDependencies"]) {
    for (const [name, range] of Object.entries((manifest[field] as Record<string, string> | undefined) ?? {})) {
      if (range.startsWith("workspace:") || range.startsWith("catalog:")) {
        findings.push(
          `${field}.${name} is "${range}", which no installer outside the workspace resolves (pack with pnpm pack)`,
        );
      } else if (field !== "devDependencies" && isExactVersion(range)) {
        findings.push(
          `${field}.${name} is "${range}", an exact version: a consumer on another release installs a second copy (a range comes from the catalog)`,
        );
      }
      if (privatePackages.has(name)) {
        findings.push(
          `${field}.${name} is a private package of the workspace, bundled and never published; no manifest may name it`,
        );
      }
    }
  }
  if (JSON.stringify(manifest["exports"] ?? {}).includes('"@orphus/source"')) {
    findings.push('exports still carry the "@orphus/source" condition, which points at src/ that is not published');
  }
  return findings;
}

/** Published files a module loader or a type checker reads: the rest (source maps, READMEs) only quote source. */
const LOADED_FILE = /\.(?:[cm]?js|d\.[cm]?ts)$/;

/**
 * Findings for the files of a packed package (paths inside the tarball): no built module or declaration imports a
 * private package of the workspace, which no installer can provide; its code must have been bundled in.
 */
export function publishedFileFindings(
  files: readonly { readonly path: string; readonly text: string }[],
  privatePackages: ReadonlySet<string>,
): string[] {
  const findings: string[] = [];
  for (const { path, text } of files) {
    if (!LOADED_FILE.test(path)) continue;
    for (const name of privatePackages) {
      // An import, static or dynamic, or a require: not any mention (a build that inlines its package.json, to read
      // its version, carries the devDependencies' names as plain strings).
      const quoted = `["']${name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}(?:/[^"']*)?["']`;
      const imported = new RegExp(`(?:\\bfrom\\s*|\\bimport\\s*\\(\\s*|\\brequire\\s*\\(\\s*|\\bimport\\s+)${quoted}`);
      if (imported.test(text))
        findings.push(`${path} imports ${name}, a private package that is bundled, never installed`);
    }
  }
  return findings;
}
