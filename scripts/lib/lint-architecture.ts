// ARCHITECTURE.md's package map says who imports whom; the manifests say it too. This check keeps them one story: each
// row's "imports (ours)" column names exactly the workspace packages its manifest depends on (dependencies and peers;
// the private package bundled at build time is named in its own row, not in each user's).

/** One row of the package map: the package and the packages its "imports (ours)" column names. */
export interface PackageMapRow {
  readonly name: string;
  readonly imports: ReadonlySet<string>;
}

/** The rows of the "## Package map" table, with the names each imports column mentions outside parentheses. */
export function packageMapRows(text: string, known: ReadonlySet<string>): PackageMapRow[] {
  const start = text.indexOf("\n## Package map");
  if (start === -1) return [];
  const end = text.indexOf("\n## ", start + 1);
  const section = text.slice(start, end === -1 ? undefined : end);
  const rows: PackageMapRow[] = [];
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    // | `name` | imports | job |  splits into ["", name, imports, job, ""].
    const name = /^`([a-z0-9-]+)`$/.exec(cells[1] ?? "")?.[1];
    if (name === undefined || cells.length < 4) continue;
    const column = withoutParentheses(cells[2] ?? "");
    const imports = new Set((column.match(/[a-z0-9]+(?:-[a-z0-9]+)*/g) ?? []).filter((word) => known.has(word)));
    rows.push({ name, imports });
  }
  return rows;
}

/** The text with every parenthesised aside removed, nested ones included: asides say why, not what. */
function withoutParentheses(text: string): string {
  let depth = 0;
  let kept = "";
  for (const char of text) {
    if (char === "(") depth++;
    else if (char === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0) kept += char;
  }
  return kept;
}

/** Findings where the package map and the manifests disagree; `declared` maps each package to its @orphus imports. */
export function packageMapFindings(text: string, declared: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const rows = packageMapRows(text, new Set(declared.keys()));
  const findings: string[] = [];
  const listed = new Set(rows.map((row) => row.name));
  for (const name of declared.keys()) {
    if (!listed.has(name)) findings.push(`the package map has no row for ${name}`);
  }
  for (const row of rows) {
    const manifest = declared.get(row.name);
    if (manifest === undefined) {
      findings.push(`the package map lists ${row.name}, which is not a workspace package`);
      continue;
    }
    const missing = [...manifest].filter((dep) => !row.imports.has(dep)).sort();
    const extra = [...row.imports].filter((dep) => !manifest.has(dep)).sort();
    if (missing.length > 0)
      findings.push(`the package map's row for ${row.name} omits ${missing.join(", ")}, which its manifest depends on`);
    if (extra.length > 0)
      findings.push(
        `the package map's row for ${row.name} names ${extra.join(", ")}, which its manifest does not depend on`,
      );
  }
  return findings;
}
