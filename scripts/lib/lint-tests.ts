// The test-helper rule of docs/contributing.md that lint checks: a helper that tests of more than one package use lives
// in test-support/, so no file of one package imports from another package's test/ folder; and test-support/, which
// belongs to no package, reaches packages by name (as `pnpm test:installed` resolves them), never through a
// package's src/ or test/ folder.
import { posix } from "node:path";
import ts from "typescript";
import type { LineFinding, SourceText } from "./lint-errors.js";

/** Every module specifier of a file, with its line: imports, re-exports and dynamic imports of a literal. */
function specifiers({ file, text }: SourceText): { readonly specifier: string; readonly line: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: { specifier: string; line: number }[] = [];
  const add = (node: ts.Node | undefined): void => {
    if (node === undefined || !ts.isStringLiteralLike(node)) return;
    found.push({ specifier: node.text, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Imports of `source` (its `file` relative to the repository root, with forward slashes) that reach into another
 * package's test/ folder, or, from test-support/, into any package's src/ or test/ folder.
 */
export function testImportFindings(source: SourceText): LineFinding[] {
  const own = /^packages\/([^/]+)\//.exec(source.file)?.[1];
  const inTestSupport = source.file.startsWith("test-support/");
  if (own === undefined && !inTestSupport) return [];
  const findings: LineFinding[] = [];
  for (const { specifier, line } of specifiers(source)) {
    if (!specifier.startsWith("./") && !specifier.startsWith("../")) continue;
    const target = posix.normalize(posix.join(posix.dirname(source.file), specifier));
    const reached = /^packages\/([^/]+)\/(test|src)\//.exec(target);
    if (reached === null) continue;
    const [, name, folder] = reached;
    if (inTestSupport) {
      const instead = folder === "src" ? `import @orphus/${name} by name` : "move what it needs to test-support/";
      findings.push({
        file: source.file,
        line,
        message: `imports "${specifier}" from packages/${name}/${folder}/; ${instead}`,
      });
    } else if (folder === "test" && name !== own) {
      findings.push({
        file: source.file,
        line,
        message: `imports "${specifier}" from the tests of packages/${name}; a helper the tests of two packages share lives in test-support/`,
      });
    }
  }
  return findings;
}
