// Checks of the Markdown a reader meets, on GitHub or on a registry page: links resolve, package READMEs link
// absolutely (a registry page has no repository around it), nothing points at a file or package that is not in
// this repository, and shell lines that write a config file do not let the shell expand `~`.
import { posix } from "node:path";
import type { RepositoryHome } from "./lint-manifests.js";

/** A link target and the line it is on (1-based). */
export interface MarkdownLink {
  readonly target: string;
  readonly line: number;
}

/** The text with fenced code blocks blanked, line breaks kept, so line numbers still hold. */
function withoutFences(text: string): string {
  let fenced = false;
  return text
    .split("\n")
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return "";
      }
      return fenced ? "" : line;
    })
    .join("\n");
}

/** Inline links and images, and reference definitions, outside code; without their titles. */
export function markdownLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  withoutFences(text)
    .split("\n")
    .forEach((raw, index) => {
      const line = raw.replace(/`[^`]*`/g, "");
      for (const match of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        links.push({ target: match[1] as string, line: index + 1 });
      }
      const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
      if (definition !== null) links.push({ target: definition[1] as string, line: index + 1 });
    });
  return links;
}

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** The repository path an absolute link into this repository names ("docs/wire.md"), or undefined. */
function repositoryPath(target: string, home: RepositoryHome): string | undefined {
  const match = new RegExp(`^${home.webUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/(?:blob|tree)/main/([^#?]*)`).exec(
    target,
  );
  return match === null ? undefined : decodeURIComponent(match[1] as string).replace(/\/$/, "");
}

/** Whether a repository-relative path (file or folder) exists. */
export type PathExists = (repositoryPath: string) => boolean;

/**
 * Links in a Markdown file at `docPath` (repository-relative). Relative links must resolve inside the repository.
 * In a published README (`published`), every link that leaves the page must be absolute, because a registry page
 * has no repository around it: a relative one is reported with the absolute address to use.
 */
export function linkFindings(
  text: string,
  docPath: string,
  home: RepositoryHome,
  exists: PathExists,
  published: boolean,
): string[] {
  const findings: string[] = [];
  for (const { target, line } of markdownLinks(text)) {
    if (target.startsWith("#")) continue;
    if (isExternal(target)) {
      const path = repositoryPath(target, home);
      if (path !== undefined && !exists(path))
        findings.push(`${line}: ${target} names ${path}, which is not in the repository`);
      continue;
    }
    const path = posix.normalize(posix.join(posix.dirname(docPath), target.replace(/[#?].*$/, ""))).replace(/\/$/, "");
    if (path.startsWith("..")) {
      findings.push(`${line}: ${target} points outside the repository`);
    } else if (!exists(path)) {
      findings.push(`${line}: ${target} names ${path}, which is not in the repository`);
    } else if (published) {
      const kind = exists(`${path}/`) ? "tree" : "blob";
      findings.push(
        `${line}: ${target} is relative and breaks on the registry page; link ${home.webUrl}/${kind}/main/${path}`,
      );
    }
  }
  return findings;
}

/** Names under `@orphus/` that are not packages: the source export condition and the error brand's registered symbol. */
const NOT_PACKAGES: ReadonlySet<string> = new Set(["source", "error"]);

/** `@orphus/<name>` mentioned anywhere in the text that is not a package of this repository. */
export function packageMentionFindings(text: string, packages: ReadonlySet<string>): string[] {
  const findings: string[] = [];
  text.split("\n").forEach((line, index) => {
    for (const match of line.matchAll(/@orphus\/([a-z0-9][a-z0-9-]*)/g)) {
      if (NOT_PACKAGES.has(match[1] as string) || packages.has(match[1] as string)) continue;
      findings.push(`${index + 1}: ${match[0]} is not a package of this repository; describe it instead of naming it`);
    }
  });
  return findings;
}

/**
 * Code-quoted paths (`docs/wire.md`, `test/golden/`) that no file or folder of the repository ends with. Quoted
 * words without a file extension or a closing slash (`tools/list`), placeholders and build output are skipped.
 */
export function pathMentionFindings(text: string, paths: readonly string[]): string[] {
  const findings: string[] = [];
  text.split("\n").forEach((line, index) => {
    for (const match of line.matchAll(/`((?:\.?[\w-]+\/)+(?:[\w.-]+\.\w+)?)`/g)) {
      const path = match[1] as string;
      if (path.startsWith("dist/") || path.startsWith("node_modules/")) continue;
      const wanted = `/${path.replace(/\/$/, "")}`;
      const found = paths.some((p) => `/${p}`.endsWith(wanted));
      if (!found) findings.push(`${index + 1}: \`${path}\` is not in the repository`);
    }
  });
  return findings;
}

/**
 * In shell code blocks, a command that registers an MCP server (`... mcp add`) writes its arguments into a config
 * file, often one that is committed: an unquoted `~` there becomes this machine's home directory. Quote it; the
 * server expands `~` itself.
 */
export function unquotedTildeFindings(text: string): string[] {
  const findings: string[] = [];
  let shell = false;
  text.split("\n").forEach((line, index) => {
    const fence = /^\s*```(\w*)/.exec(line);
    if (fence !== null) {
      shell = !shell && ["sh", "bash", "shell", "console", "zsh"].includes(fence[1] as string);
      return;
    }
    if (!shell || !/\bmcp add\b/.test(line)) return;
    const unquoted = line.replace(/'[^']*'|"[^"]*"/g, "");
    if (/(^|[\s=])~/.test(unquoted)) {
      findings.push(
        `${index + 1}: the shell expands this unquoted ~ into a home directory before the command stores it; quote it ('~/...')`,
      );
    }
  });
  return findings;
}

/** A benchmark figure as a README would print it: a ratio such as `1.23x`, `0.5×` or `2x`. */
const RATIO_PATTERN = /(?<![\w.])\d+(?:\.\d+)?[x×](?!\w)/;
/** A history of runs: "3 runs", "five more runs", "in 4 of 5 runs". */
const RUNS_PATTERN =
  /\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(?:more\s+|full\s+|pinned\s+|alternating\s+)?runs\b/i;
/** What makes a line a target statement, where a ratio may stand: "target", "≤", "≥", "at most", "at least". */
const TARGET_STATEMENT = /target|≤|≥|<=|>=|\bat most\b|\bat least\b/i;
/**
 * Lines of text a README's Performance section may hold: enough to say what each figure measures against what, with
 * its target, and link; how the code is made fast, and why, goes under a heading of its own.
 */
export const PERFORMANCE_MAX_LINES = 30;

/**
 * A package README's performance rules (docs/contributing.md, "Benchmarks"): measured figures live in BENCHMARKS.md,
 * generated from the benchmark record, not in READMEs. So a README's section on speed is `## Performance` (not
 * "Benchmarks"); a ratio (`1.23x`, `0.5×`) may appear only there, and only on a line that states a target; a count of
 * runs ("five runs", "in 4 of 5 runs") appears nowhere; and a package with benchmarks (`hasBenchmarks`) has that
 * section, with a link to its part of BENCHMARKS.md, in at most {@link PERFORMANCE_MAX_LINES} lines of text. Fenced
 * code is not read.
 */
export function readmePerformanceFindings(text: string, hasBenchmarks: boolean): string[] {
  const findings: string[] = [];
  let section = "";
  let performanceLinks = 0;
  let performanceLines = 0;
  let performanceStart = 0;
  withoutFences(text)
    .split("\n")
    .forEach((line, index) => {
      const heading = /^##\s+(.*\S)\s*$/.exec(line);
      if (heading !== null) {
        section = heading[1] as string;
        if (section === "Performance") performanceStart = index + 1;
        if (/^benchmarks?\b/i.test(section)) {
          findings.push(
            `${index + 1}: a README's section on speed is "## Performance", with targets only (figures live in BENCHMARKS.md)`,
          );
        }
        return;
      }
      const inPerformance = section === "Performance";
      if (inPerformance && /BENCHMARKS\.md#/.test(line)) performanceLinks++;
      if (inPerformance && line.trim() !== "") performanceLines++;
      const runs = RUNS_PATTERN.exec(line);
      if (runs !== null) {
        findings.push(
          `${index + 1}: "${runs[0]}": a history of runs belongs in the benchmark record (BENCHMARKS.md), not a README`,
        );
      }
      const ratio = RATIO_PATTERN.exec(line);
      if (ratio !== null && !(inPerformance && TARGET_STATEMENT.test(line))) {
        findings.push(
          `${index + 1}: "${ratio[0]}" is a measured figure; a README states only targets, in its Performance section ` +
            "(figures live in BENCHMARKS.md)",
        );
      }
    });
  if (performanceLines > PERFORMANCE_MAX_LINES) {
    findings.push(
      `${performanceStart}: the Performance section has ${performanceLines} lines of text, more than ` +
        `${PERFORMANCE_MAX_LINES}: it states what is measured against what, the targets and a link; how the code is ` +
        "made fast goes under a heading of its own",
    );
  }
  if (hasBenchmarks && performanceLinks === 0) {
    findings.push(
      'the package has benchmarks: a "## Performance" section must state its targets and link to its part of BENCHMARKS.md',
    );
  }
  return findings;
}
