import { expect, test } from "vitest";
import * as bounds from "@orphus/bounds";

test("the public surface is exactly this", () => {
  expect(Object.keys(bounds).sort()).toEqual([
    "ArtifactWriteError",
    "BoundsError",
    "BoundsInputError",
    "BoundsLimitError",
    "BoundsOptionError",
    "ChainMalformedPlaceholderError",
    "ChainNoPreviousError",
    "ChainTemplateError",
    "ChainUnknownOutputError",
    "DEFAULT_FANOUT_BUDGET",
    "DEFAULT_RETURN_BUDGET",
    "DEFAULT_SPLICE_CHARS",
    "MAX_ARTIFACTS_DIR_LENGTH",
    "MAX_ARTIFACTS_PER_RUN",
    "MAX_FANOUT_CHILDREN",
    "TASK_OUTCOMES",
    "TRUNCATION_BACKSTOP_BYTES",
    "boundFanOut",
    "boundSubagentReturn",
    "displayName",
    "expandChainTemplate",
    "openArtifactRun",
    "recordChainStep",
    "truncateWithBackstop",
  ]);
});

test("limits", () => {
  expect(bounds.TRUNCATION_BACKSTOP_BYTES).toBe(204800);
  expect(bounds.DEFAULT_SPLICE_CHARS).toBe(2000);
  expect(bounds.DEFAULT_FANOUT_BUDGET).toBe(1200);
  expect(bounds.DEFAULT_RETURN_BUDGET).toBe(4000);
  expect(bounds.MAX_FANOUT_CHILDREN).toBe(256);
  expect(bounds.MAX_ARTIFACTS_PER_RUN).toBe(10000);
  expect(bounds.MAX_ARTIFACTS_DIR_LENGTH).toBe(128);
  expect(bounds.TASK_OUTCOMES).toEqual(["failed", "timed-out", "cancelled", "empty", "ok"]);
});

test("error names and codes are stable", () => {
  const cases: [Error & { code: string }, string, string][] = [
    [new bounds.BoundsInputError("children", "an array", 1), "BoundsInputError", "ERR_BOUNDS_INVALID_INPUT"],
    [new bounds.BoundsOptionError("budget", "an integer", -1), "BoundsOptionError", "ERR_BOUNDS_INVALID_OPTION"],
    [new bounds.BoundsLimitError("children", 1000, 1001), "BoundsLimitError", "ERR_BOUNDS_LIMIT_EXCEEDED"],
    [new bounds.ArtifactWriteError("/a", "write", new Error("x")), "ArtifactWriteError", "ERR_ARTIFACT_WRITE_FAILED"],
    [
      new bounds.ChainMalformedPlaceholderError("{outputs.}", []),
      "ChainMalformedPlaceholderError",
      "ERR_CHAIN_MALFORMED_PLACEHOLDER",
    ],
    [new bounds.ChainUnknownOutputError("{outputs.x}", ["a"]), "ChainUnknownOutputError", "ERR_CHAIN_UNKNOWN_OUTPUT"],
    [new bounds.ChainNoPreviousError("{previous}"), "ChainNoPreviousError", "ERR_CHAIN_NO_PREVIOUS"],
  ];
  for (const [error, name, code] of cases) {
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(error).toBeInstanceOf(bounds.BoundsError);
  }
});

test("error messages say what failed, the expected form and what arrived, cut short", () => {
  expect(new bounds.BoundsInputError("children[0].name", "a string", 42).message).toBe(
    "Invalid bounds input children[0].name: expected a string, got 42",
  );
  expect(new bounds.BoundsOptionError("dir", "an absolute path", "x".repeat(100)).message).toBe(
    `Invalid bounds option dir: expected an absolute path, got "${"x".repeat(60)}"… (100 characters)`,
  );
  expect(new bounds.BoundsLimitError("children", 1000, 1001).message).toBe(
    "Fan-out of 1001 children is above the maximum of 1000 (MAX_FANOUT_CHILDREN)",
  );
  const cause = new Error("ENOSPC: no space left on device");
  const write = new bounds.ArtifactWriteError("/a/run-1/001-x.txt", "write", cause);
  expect(write.message).toBe("Cannot write the artifact /a/run-1/001-x.txt: ENOSPC: no space left on device");
  expect(write.cause).toBe(cause);
  expect(new bounds.ChainUnknownOutputError("{outputs.revew}", ["plan", "review"]).message).toBe(
    'Unknown output in chain placeholder "{outputs.revew}": known outputs: "plan", "review"',
  );
  expect(new bounds.ChainNoPreviousError("{previous}").message).toBe(
    'No previous step for chain placeholder "{previous}": no step has produced output yet',
  );
});
