import { describe, expect, test } from "vitest";
import { BoundsInputError, BoundsOptionError, boundSubagentReturn, openArtifactRun } from "@orphus/bounds";
import { memoryFs } from "./memory-fs.js";

const report = Array.from({ length: 5000 }, (_, i) => `finding ${String(i).padStart(4, "0")}: ok`).join("\n");

describe("a single subagent's return", () => {
  test("with artifacts: head and tail within the budget, one line with the path, the file byte for byte", async () => {
    const fs = memoryFs();
    const artifacts = await openArtifactRun({ dir: "/a", fs });
    const result = await boundSubagentReturn({ name: "auditor", output: report }, { artifacts });
    expect(result.bounded).toBe(true);
    expect(result.path).toBe("/a/run-000001/001-auditor.txt");
    expect(new TextDecoder().decode(fs.files.get(result.path!))).toBe(report);
    const lines = result.text.split("\n");
    const at = lines.findIndex((line) => line.startsWith("… "));
    expect(lines[at]).toBe(
      `… ${result.cutChars} of ${report.length} characters cut here; the full output is in /a/run-000001/001-auditor.txt`,
    );
    const head = lines.slice(0, at).join("\n");
    const tail = lines.slice(at + 1).join("\n");
    expect(report.startsWith(head)).toBe(true);
    expect(report.endsWith(tail)).toBe(true);
    expect(head.length + tail.length).toBeLessThanOrEqual(4000);
    expect(head.length + result.cutChars + tail.length).toBe(report.length);
    expect(lines[0]).toBe("finding 0000: ok");
    expect(lines.at(-1)).toBe("finding 4999: ok");
    expect(result.truncated).toBeNull();
  });

  test("an output within the budget arrives whole, still written", async () => {
    const fs = memoryFs();
    const artifacts = await openArtifactRun({ dir: "/a", fs });
    const result = await boundSubagentReturn({ name: "a", output: "short" }, { artifacts, budget: 5 });
    expect(result).toMatchObject({ text: "short", cutChars: 0, bounded: true, path: "/a/run-000001/001-a.txt" });
  });

  test("with artifacts off nothing is bounded: the whole output, behind the 200 KB backstop", async () => {
    const small = await boundSubagentReturn({ name: "a", output: report }, { artifacts: null });
    expect(small).toEqual({
      text: report,
      bounded: false,
      path: null,
      cutChars: 0,
      truncated: null,
      artifactError: null,
    });
    const big = await boundSubagentReturn({ name: "a", output: "y".repeat(250_000) }, { artifacts: null });
    expect(big.text).toBe(`${"y".repeat(204_800)}\n… truncated: 45200 of 250000 bytes cut by the 204800-byte backstop`);
    expect(big.truncated).toEqual({ totalBytes: 250_000, keptBytes: 204_800, cutBytes: 45_200 });
  });

  test("a refused write falls back to the unbounded return and says so first", async () => {
    const fs = memoryFs();
    const artifacts = await openArtifactRun({ dir: "/a", fs });
    fs.failOn.add(".tmp");
    const result = await boundSubagentReturn({ name: "a", output: report }, { artifacts });
    expect(result.bounded).toBe(false);
    expect(result.path).toBeNull();
    expect(result.artifactError?.name).toBe("ArtifactWriteError");
    expect(result.text).toBe(
      "… artifacts could not be written (Cannot write the artifact /a/run-000001/001-a.txt: ENOSPC: injected failure, " +
        "/a/run-000001/.001-a.txt.tmp); what follows is unbounded, cut only by the 204800-byte backstop\n" +
        report,
    );
  });

  test("what the parent reads is sanitised, with artifacts or without; the artifact keeps the raw bytes", async () => {
    const raw = `\x1b]0;pwned\x07\x1b[31mFAIL\x1b[0m \u202eevil\u{E0049}\u{E0067} done\r\n${"log\n".repeat(2000)}\x1b[2Jend`;
    const fs = memoryFs();
    const artifacts = await openArtifactRun({ dir: "/a", fs });
    const bounded = await boundSubagentReturn({ name: "a", output: raw }, { artifacts, budget: 100 });
    expect(bounded.text.startsWith("FAIL evil done\nlog\n")).toBe(true);
    expect(bounded.text.endsWith("\nlog\nlog\nend")).toBe(true);
    expect(bounded.text).not.toMatch(/[\x1b\x07\r\u202e]|\u{E0049}/u);
    expect(new TextDecoder().decode(fs.files.get(bounded.path!))).toBe(raw);
    const whole = await boundSubagentReturn({ name: "a", output: raw }, { artifacts: null });
    expect(whole.text).toBe(`FAIL evil done\n${"log\n".repeat(2000)}end`);
  });

  test("inputs and options are checked", async () => {
    await expect(boundSubagentReturn(null as never, { artifacts: null })).rejects.toThrow(BoundsInputError);
    await expect(boundSubagentReturn({ name: "a", output: 5 as never }, { artifacts: null })).rejects.toThrow(
      "Invalid bounds input subagent.output: expected a string or a Uint8Array, got 5",
    );
    await expect(boundSubagentReturn({ name: "a", output: "" }, { artifacts: null, budget: 0.5 })).rejects.toThrow(
      BoundsOptionError,
    );
  });
});
