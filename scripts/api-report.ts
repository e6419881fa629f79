// `pnpm api:check [package ...]` and `pnpm api:update [package ...]`: the API report of every publishable package,
// made by api-extractor from its built declarations with the one configuration at the root (api-extractor.base.json),
// for its main entry (dist/index.d.ts, report packages/<name>/api/<name>.api.md) and for each subpath it exports
// (dist/testing.d.ts, report <name>-testing.api.md). The reports are committed, so a change of a public type, not
// only of the runtime export lists the tests pin, shows in review. `api:check` fails when a report differs from the
// committed one and prints the difference; `api:update` rewrites the reports. Packages must be built first
// (`pnpm build`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import {
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  ExtractorMessageCategory,
  type IConfigFile,
} from "@microsoft/api-extractor";
import { exportedSubpaths, publishablePackages, type Manifest } from "./lib/pack.js";

const root = join(import.meta.dirname, "..");
const baseConfig = join(root, "api-extractor.base.json");
const say = (line: string): void => void process.stdout.write(`${line}\n`);

const argv = process.argv.slice(2);
const update = argv.includes("--update");
const only = argv.filter((arg) => arg !== "--update");

/** One report: an entry of a package's built declarations and the name of its report file. */
interface ReportEntry {
  /** The declaration file, relative to the package folder: dist/index.d.ts, dist/testing.d.ts. */
  readonly declarations: string;
  /** The report's base name: the package's unscoped name, with the subpath after a dash. */
  readonly report: string;
}

/** The reports of a package: its main entry, then each subpath its manifest exports ("./testing"). */
function reportEntries(manifest: Manifest): ReportEntry[] {
  const unscoped = manifest.name.replace(/^@[^/]+\//, "");
  return [
    { declarations: "dist/index.d.ts", report: unscoped },
    ...exportedSubpaths(manifest).map((key) => {
      const subpath = key.slice(2);
      return { declarations: `dist/${subpath}.d.ts`, report: `${unscoped}-${subpath.replaceAll("/", "-")}` };
    }),
  ];
}

const temp = mkdtempSync(join(tmpdir(), "orphus-api-report-"));
const started = performance.now();
let problems = 0;
let reports = 0;
try {
  const base: IConfigFile = ExtractorConfig.loadFile(baseConfig);
  for (const { dir, manifest } of publishablePackages(root, only)) {
    for (const { declarations, report } of reportEntries(manifest)) {
      const name = `${manifest.name}${declarations === "dist/index.d.ts" ? "" : ` (${declarations})`}`;
      if (!existsSync(join(dir, declarations))) {
        say(`${name}: ${declarations} is missing; run pnpm build first`);
        problems++;
        continue;
      }
      const configObject: IConfigFile = {
        ...structuredClone(base),
        projectFolder: dir,
        mainEntryPointFilePath: `<projectFolder>/${declarations}`,
        apiReport: { ...base.apiReport, enabled: true, reportFileName: report, reportTempFolder: temp },
      };
      const config = ExtractorConfig.prepare({
        configObject,
        configObjectFullPath: baseConfig,
        packageJsonFullPath: join(dir, "package.json"),
      });
      if (update) mkdirSync(join(dir, "api"), { recursive: true });
      const start = performance.now();
      const messages: string[] = [];
      const result = Extractor.invoke(config, {
        localBuild: update,
        messageCallback: (message) => {
          // api-extractor's own lines about its run (the compiler version, "You have changed the public API ...", a
          // report created) are replaced by the one line below; what the configuration reports as a warning or an
          // error about the declarations is printed.
          message.handled = true;
          if (message.category === ExtractorMessageCategory.Console) return;
          if (message.logLevel === ExtractorLogLevel.Warning || message.logLevel === ExtractorLogLevel.Error) {
            messages.push(message.formatMessageWithLocation(root));
          }
        },
      });
      reports++;
      const seconds = ((performance.now() - start) / 1000).toFixed(1);
      const committed = join(dir, "api", `${report}.api.md`);
      if (result.apiReportChanged && !update) {
        problems++;
        say(
          `${name}: the API report differs from ${relative(root, committed)} (${seconds} s); pnpm api:update rewrites it`,
        );
        const made = join(temp, `${report}.api.md`);
        const shown = existsSync(committed)
          ? spawnSync(
              "diff",
              ["-u", "--label", `committed ${relative(root, committed)}`, "--label", "built", committed, made],
              {
                encoding: "utf8",
              },
            ).stdout
          : `(no committed report)\n`;
        process.stdout.write(shown);
      } else {
        say(
          `${name}: ${result.apiReportChanged ? `report rewritten, ${relative(root, committed)}` : "report unchanged"} (${seconds} s)`,
        );
      }
      for (const line of messages) say(`  ${line}`);
      if (messages.length > 0 || result.errorCount > 0) problems++;
    }
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
const total = ((performance.now() - started) / 1000).toFixed(1);
say(
  `api:${update ? "update" : "check"}: ${reports} reports in ${total} s, ${problems === 0 ? "clean" : `${problems} problem(s)`}`,
);
process.exitCode = problems === 0 ? 0 : 1;
