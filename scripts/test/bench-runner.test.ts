import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import {
  BenchUsageError,
  closingLine,
  nodeVersionOf,
  parseBenchArguments,
  resolveNodeBinary,
  runBenchFile,
  selectBenchFiles,
  type FileOutcome,
} from "../lib/bench-runner.js";

const root = join(import.meta.dirname, "..", "..");
const scratch = mkdtempSync(join(tmpdir(), "bench-runner-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A packages/ folder with the given bench files: { "pkg/bench/x.bench.ts": source }. */
function packagesWith(files: Record<string, string>, plain: string[] = []): string {
  const dir = mkdtempSync(join(scratch, "packages-"));
  for (const name of [...plain, ...Object.keys(files).map((path) => path.split("/")[0] as string)]) {
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, "package.json"), "{}");
  }
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  return dir;
}

const reportModule = pathToFileURL(join(root, "bench-support", "report.ts")).href;
const reporting = (name: string, ratio: number, target = 2): string =>
  `import { reportRatio } from ${JSON.stringify(reportModule)};\n` +
  `reportRatio({ name: ${JSON.stringify(name)}, about: "demo", ratio: ${ratio}, target: { kind: "at-most", value: ${target} } });\n`;

describe("arguments", () => {
  test("package names, --cpu in both spellings, --help", () => {
    expect(parseBenchArguments(["framing", "rooms"])).toEqual({
      packages: ["framing", "rooms"],
      help: false,
      record: false,
    });
    expect(parseBenchArguments(["--cpu", "0", "framing"])).toEqual({
      packages: ["framing"],
      help: false,
      record: false,
      cpu: 0,
    });
    expect(parseBenchArguments(["--cpu=3"])).toEqual({ packages: [], help: false, record: false, cpu: 3 });
    expect(parseBenchArguments(["--help"]).help).toBe(true);
    expect(parseBenchArguments(["--record", "framing"])).toEqual({ packages: ["framing"], help: false, record: true });
  });

  test("--node in both spellings", () => {
    expect(parseBenchArguments(["--node", "/opt/node24/bin/node", "broker"])).toEqual({
      packages: ["broker"],
      help: false,
      record: false,
      node: "/opt/node24/bin/node",
    });
    expect(parseBenchArguments(["--node=/n", "--cpu", "1"])).toEqual({
      packages: [],
      help: false,
      record: false,
      cpu: 1,
      node: "/n",
    });
  });

  test("an unknown option or a bad CPU is a usage error", () => {
    expect(() => parseBenchArguments(["--fast"])).toThrow(BenchUsageError);
    expect(() => parseBenchArguments(["--cpu"])).toThrow(/--cpu needs a CPU number/);
    expect(() => parseBenchArguments(["--cpu", "two"])).toThrow(/--cpu: a CPU is a number such as 0, got "two"/);
    expect(() => parseBenchArguments(["--node"])).toThrow("--node needs the path of a Node binary");
    expect(() => parseBenchArguments(["--node="])).toThrow("--node needs the path of a Node binary");
  });

  test("--node's path is made absolute from where the command was typed; a bare name is left for PATH", () => {
    expect(resolveNodeBinary("../n24/bin/node", "/home/u/project/packages/framing")).toBe(
      "/home/u/project/packages/n24/bin/node",
    );
    expect(resolveNodeBinary("/opt/node24/bin/node", "/elsewhere")).toBe("/opt/node24/bin/node");
    expect(resolveNodeBinary("node24", "/elsewhere")).toBe("node24");
  });

  test("--node's binary must run as Node and say its version", () => {
    expect(nodeVersionOf(process.execPath)).toBe(process.version);
    const missing = join(scratch, "no-such-node");
    expect(() => nodeVersionOf(missing)).toThrow(BenchUsageError);
    expect(() => nodeVersionOf(missing)).toThrow(`--node: ${JSON.stringify(missing)} did not run as Node (`);
    const notNode = join(scratch, "not-node.sh");
    writeFileSync(notNode, "#!/bin/sh\necho hello\n");
    chmodSync(notNode, 0o755);
    expect(() => nodeVersionOf(notNode)).toThrow(`did not run as Node (printed "hello")`);
  });
});

describe("selecting files", () => {
  const dir = packagesWith(
    { "alpha/bench/b.bench.ts": "", "alpha/bench/a.bench.ts": "", "beta/bench/x.bench.ts": "" },
    ["gamma"],
  );

  test("every package's bench files in order, or only the named packages'", () => {
    expect(selectBenchFiles(dir, []).map((f) => `${f.packageName}/${f.file}`)).toEqual([
      "alpha/a.bench.ts",
      "alpha/b.bench.ts",
      "beta/x.bench.ts",
    ]);
    expect(selectBenchFiles(dir, ["beta"]).map((f) => f.file)).toEqual(["x.bench.ts"]);
  });

  test("an unknown package, or one without benchmarks, is a usage error that lists the packages that have some", () => {
    expect(() => selectBenchFiles(dir, ["nosuchpkg"])).toThrow(
      'no package named "nosuchpkg"; packages with benchmarks: alpha, beta',
    );
    expect(() => selectBenchFiles(dir, ["gamma"])).toThrow("gamma has no benchmarks (no bench/*.bench.ts)");
  });
});

describe("the closing line", () => {
  const file = (name: string) => ({ packageName: "p", file: `${name}.bench.ts`, path: `/p/bench/${name}.bench.ts` });
  const outcome = (name: string, status: number, results: [string, boolean, boolean?][]): FileOutcome => ({
    file: file(name),
    status,
    results: results.map(([n, met, hasTarget = true]) => ({
      kind: "figure",
      name: n,
      about: n,
      ratio: 1,
      met,
      hasTarget,
    })),
    notes: [],
  });

  test("names each missed figure", () => {
    const { line, ok } = closingLine([
      outcome("a", 1, [
        ["a.fast", true],
        ["a.slow", false],
      ]),
      outcome("b", 1, [
        ["b.slow", false],
        ["b.info", true, false],
      ]),
    ]);
    expect(line).toBe("bench: 4 figures from 2 files; 1 of 3 targets met; missed: a.slow, b.slow");
    expect(ok).toBe(false);
  });

  test("all met", () => {
    expect(closingLine([outcome("a", 0, [["a.fast", true]])])).toEqual({
      line: "bench: 1 figures from 1 files; 1 of 1 targets met; none missed",
      ok: true,
    });
  });

  test("a file that reported nothing, or failed after meeting every target, is named as failed", () => {
    const { line, ok } = closingLine([outcome("a", 1, []), outcome("b", 1, [["b.fast", true]]), outcome("c", 0, [])]);
    expect(line).toBe(
      "bench: 1 figures from 3 files; 1 of 1 targets met; none missed; failed: p/a.bench.ts (reported no figure, " +
        "exit 1), p/b.bench.ts (failed after reporting, exit 1), p/c.bench.ts (reported no figure, exit 0)",
    );
    expect(ok).toBe(false);
  });
});

describe("running files", () => {
  test("each file runs in its own process and its figures come back through the results file", () => {
    const dir = packagesWith({
      "alpha/bench/a.bench.ts": reporting("alpha.ok", 1) + reporting("alpha.slow", 3),
      "alpha/bench/b.bench.ts": "throw new Error('broken benchmark');\n",
    });
    const [a, b] = selectBenchFiles(dir, []).map((f) => runBenchFile(f, process.env, { stdio: "ignore" }));
    expect(a?.status).toBe(1);
    expect(a?.results.map((r) => [r.name, r.met])).toEqual([
      ["alpha.ok", true],
      ["alpha.slow", false],
    ]);
    expect(b?.status).toBe(1);
    expect(b?.results).toEqual([]);
  }, 30_000);

  test("the notes a file declares come back beside its figures", () => {
    const dir = packagesWith({
      "alpha/bench/n.bench.ts":
        `import { benchNotes } from ${JSON.stringify(reportModule)};\n` +
        `benchNotes(["The floor is a raw echo.", "Blocks spread with the host."]);\n` +
        reporting("alpha.noted", 1),
    });
    const [only] = selectBenchFiles(dir, []);
    const outcome = runBenchFile(only!, process.env, { stdio: "ignore" });
    expect(outcome.notes).toEqual(["The floor is a raw echo.", "Blocks spread with the host."]);
    expect(outcome.results.map((r) => r.name)).toEqual(["alpha.noted"]);
  }, 30_000);

  test.runIf(process.platform === "linux")(
    "--cpu runs the file, and what it spawns, on that CPU",
    () => {
      const dir = packagesWith({
        "alpha/bench/cpu.bench.ts":
          `import { execFileSync } from "node:child_process";\n` +
          `import { reportRatio } from ${JSON.stringify(reportModule)};\n` +
          // taskset -p prints "pid N's current affinity mask: 1" for CPU 0; a child sees one CPU too.
          `const mask = execFileSync("taskset", ["-p", String(process.pid)], { encoding: "utf8" }).trim();\n` +
          `const child = execFileSync(process.execPath, ["-p", "require('node:os').availableParallelism()"], { encoding: "utf8" }).trim();\n` +
          `reportRatio({ name: "alpha.cpu", about: "demo", ratio: mask.endsWith(": 1") && child === "1" ? 1 : 3, target: { kind: "at-most", value: 2 } });\n`,
      });
      const [only] = selectBenchFiles(dir, []);
      const outcome = runBenchFile(only!, process.env, { cpu: 0, stdio: "ignore" });
      expect(outcome.results).toEqual([
        {
          kind: "figure",
          name: "alpha.cpu",
          about: "demo",
          ratio: 1,
          target: { kind: "at-most", value: 2 },
          met: true,
          hasTarget: true,
        },
      ]);
    },
    30_000,
  );

  test.runIf(process.platform !== "win32")(
    "--node runs the file with that binary",
    () => {
      // A wrapper that marks its processes, then runs this Node: the figure says whether the file ran through it.
      const wrapper = join(scratch, "marked-node.sh");
      writeFileSync(wrapper, `#!/bin/sh\nORPHUS_TEST_MARKED_NODE=1 exec ${JSON.stringify(process.execPath)} "$@"\n`);
      chmodSync(wrapper, 0o755);
      const dir = packagesWith({
        "alpha/bench/node.bench.ts":
          `import { reportRatio } from ${JSON.stringify(reportModule)};\n` +
          `const marked = process.env.ORPHUS_TEST_MARKED_NODE === "1";\n` +
          `reportRatio({ name: "alpha.node", about: "demo", ratio: marked ? 1 : 3, target: { kind: "at-most", value: 2 } });\n`,
      });
      const [only] = selectBenchFiles(dir, []);
      expect(runBenchFile(only!, process.env, { node: wrapper, stdio: "ignore" }).results[0]?.met).toBe(true);
      expect(runBenchFile(only!, process.env, { stdio: "ignore" }).results[0]?.met).toBe(false);
    },
    30_000,
  );
});

describe("the command", () => {
  test("pnpm bench with an unknown package exits 2 and says which packages have benchmarks", () => {
    const result = spawnSync(process.execPath, ["--import", "tsx", join(root, "scripts", "bench.ts"), "nosuchpkg"], {
      cwd: root,
      encoding: "utf8",
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'bench: no package named "nosuchpkg"; packages with benchmarks: bounds, digest, framing',
    );
    expect(result.stdout).toBe("");
  }, 30_000);

  test("pnpm bench with a --node that is not Node exits 2 before running anything", () => {
    const missing = join(scratch, "no-such-node");
    const result = spawnSync(
      process.execPath,
      ["--import", "tsx", join(root, "scripts", "bench.ts"), "--node", missing, "framing"],
      { cwd: root, encoding: "utf8" },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`bench: --node: ${JSON.stringify(missing)} did not run as Node (`);
    expect(result.stdout).toBe("");
  }, 30_000);
});
