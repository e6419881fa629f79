// The error rules of docs/contributing.md that lint checks, on the syntax tree (the TypeScript compiler's parser):
// an error of another package is classified by its code, never by `instanceof` of that package's class (false for an
// error made by another copy of the package), and no two error classes share a code (they would pass for each other).
import ts from "typescript";

/** One finding, at a line of a file. */
export interface LineFinding {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly message: string;
}

/** A source file, as lint read it. */
export interface SourceText {
  readonly file: string;
  readonly text: string;
}

const parse = ({ file, text }: SourceText): ts.SourceFile =>
  ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

const lineOf = (source: ts.SourceFile, node: ts.Node): number =>
  source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;

function visit(node: ts.Node, each: (node: ts.Node) => void): void {
  each(node);
  ts.forEachChild(node, (child) => visit(child, each));
}

/** The module a value import of our packages names (`@orphus/...`), or undefined. */
function ourModule(specifier: ts.Expression): string | undefined {
  return ts.isStringLiteralLike(specifier) && specifier.text.startsWith("@orphus/") ? specifier.text : undefined;
}

/** The module of `import("@orphus/x")`, awaited or not, or undefined. */
function dynamicImportOf(expression: ts.Expression | undefined): string | undefined {
  let inner = expression;
  while (inner !== undefined && (ts.isAwaitExpression(inner) || ts.isParenthesizedExpression(inner)))
    inner = inner.expression;
  if (inner === undefined || !ts.isCallExpression(inner) || inner.expression.kind !== ts.SyntaxKind.ImportKeyword)
    return undefined;
  const [specifier] = inner.arguments;
  return specifier === undefined ? undefined : ourModule(specifier);
}

/** Names bound to our packages' exports in a file: named imports (by local name) and namespaces (module objects). */
interface OurBindings {
  readonly named: Map<string, { readonly exported: string; readonly module: string }>;
  readonly namespaces: Map<string, string>;
}

function ourBindings(source: ts.SourceFile): OurBindings {
  const named: OurBindings["named"] = new Map();
  const namespaces: OurBindings["namespaces"] = new Map();
  visit(source, (node) => {
    if (ts.isImportDeclaration(node)) {
      const module = ourModule(node.moduleSpecifier);
      const clause = node.importClause;
      if (module === undefined || clause === undefined || clause.isTypeOnly) return;
      if (clause.name !== undefined) named.set(clause.name.text, { exported: "default", module });
      const bindings = clause.namedBindings;
      if (bindings !== undefined && ts.isNamespaceImport(bindings)) namespaces.set(bindings.name.text, module);
      if (bindings !== undefined && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) {
          if (element.isTypeOnly) continue;
          named.set(element.name.text, { exported: (element.propertyName ?? element.name).text, module });
        }
      }
    } else if (ts.isVariableDeclaration(node)) {
      // `const memory = await import("@orphus/memory")`, or `const { X } = await import(...)`.
      const module = dynamicImportOf(node.initializer);
      if (module === undefined) return;
      if (ts.isIdentifier(node.name)) namespaces.set(node.name.text, module);
      else if (ts.isObjectBindingPattern(node.name)) {
        for (const element of node.name.elements) {
          if (!ts.isIdentifier(element.name)) continue;
          const exported =
            element.propertyName !== undefined && ts.isIdentifier(element.propertyName)
              ? element.propertyName.text
              : element.name.text;
          named.set(element.name.text, { exported, module });
        }
      }
    }
  });
  return { named, namespaces };
}

/** What an `instanceof` right-hand side names from our packages: the class and its module, or undefined. */
function ourClass(
  expression: ts.Expression,
  bindings: OurBindings,
): { readonly name: string; readonly module: string } | undefined {
  let inner = expression;
  while (ts.isParenthesizedExpression(inner)) inner = inner.expression;
  if (ts.isIdentifier(inner)) {
    const bound = bindings.named.get(inner.text);
    return bound === undefined ? undefined : { name: bound.exported, module: bound.module };
  }
  if (ts.isPropertyAccessExpression(inner) && ts.isIdentifier(inner.expression)) {
    const module = bindings.namespaces.get(inner.expression.text);
    return module === undefined ? undefined : { name: inner.name.text, module };
  }
  return undefined;
}

/**
 * `x instanceof Y` where `Y` comes from an `@orphus/*` module (a named import, a namespace import's member, or the
 * same from a dynamic import): false for an error that another copy of that package made.
 */
export function foreignInstanceofFindings(source: SourceText): LineFinding[] {
  const tree = parse(source);
  const bindings = ourBindings(tree);
  const findings: LineFinding[] = [];
  visit(tree, (node) => {
    if (!ts.isBinaryExpression(node) || node.operatorToken.kind !== ts.SyntaxKind.InstanceOfKeyword) return;
    const foreign = ourClass(node.right, bindings);
    if (foreign === undefined) return;
    findings.push({
      file: source.file,
      line: lineOf(tree, node),
      message:
        `instanceof ${foreign.name} of ${foreign.module} is false for an error made by another copy of that package; ` +
        "classify by code: hasErrorCode from @orphus/internal",
    });
  });
  return findings;
}

/** The literal `ERR_` code a class declares as `readonly code = "ERR_..."`, with where it says so. */
interface DeclaredCode {
  readonly code: string;
  readonly className: string;
  readonly file: string;
  readonly line: number;
}

function declaredCodes(source: SourceText): DeclaredCode[] {
  const tree = parse(source);
  const codes: DeclaredCode[] = [];
  visit(tree, (node) => {
    if (!ts.isClassLike(node)) return;
    for (const member of node.members) {
      if (!ts.isPropertyDeclaration(member) || !ts.isIdentifier(member.name) || member.name.text !== "code") continue;
      const readonly = ts.getCombinedModifierFlags(member) & ts.ModifierFlags.Readonly;
      const value = member.initializer;
      if (!readonly || value === undefined || !ts.isStringLiteralLike(value) || !value.text.startsWith("ERR_"))
        continue;
      codes.push({
        code: value.text,
        className: node.name?.text ?? "(anonymous class)",
        file: source.file,
        line: lineOf(tree, member),
      });
    }
  });
  return codes;
}

/** Every class whose `readonly code = "ERR_..."` another class of the given files also declares. */
export function duplicateErrorCodeFindings(sources: readonly SourceText[]): LineFinding[] {
  const byCode = new Map<string, DeclaredCode[]>();
  for (const declared of sources.flatMap(declaredCodes))
    byCode.set(declared.code, [...(byCode.get(declared.code) ?? []), declared]);
  const findings: LineFinding[] = [];
  for (const [code, classes] of byCode) {
    if (classes.length < 2) continue;
    for (const declared of classes) {
      const others = classes
        .filter((other) => other !== declared)
        .map((other) => `${other.className} (${other.file}:${other.line})`);
      findings.push({
        file: declared.file,
        line: declared.line,
        message: `${declared.className}'s code ${code} is also ${others.join(", ")}'s; two classes with one code pass for each other: give each its own`,
      });
    }
  }
  return findings;
}
