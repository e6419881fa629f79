import { describe, expect, test } from "vitest";
import {
  createSettingsReader,
  devBatchesHopInputSchema,
  devImplementHopInputSchema,
  finishedAnswerOf,
  hopInputSchema,
  HopInputInvalidError,
  orkeonActResultSchema,
  orkeonSessionSnapshotSchema,
  parseHopInput,
  parseSessionContextRead,
  pullRequestContextSchema,
  SessionContextInvalidError,
  SettingsInvalidError,
} from "@orphus/orkeon-crew";
import { thrown } from "./support/thrown.js";

const context = { mode: "default", rules: { allow: ["github"], deny: [] }, githubTool: false };

describe("a crew's hop-input contract is a schema", () => {
  test("a /dev-batches crew parses its launch input, fresh context included", () => {
    expect(devBatchesHopInputSchema.parse({ run: "b", hop: "batch", batch: 2, batches: 3, context, extra: 1 })).toEqual(
      {
        run: "b",
        hop: "batch",
        batch: 2,
        batches: 3,
        context,
      },
    );
    expect(devBatchesHopInputSchema.parse({ run: "b", hop: "close", batch: 9, batches: 3 })).toEqual({
      run: "b",
      hop: "close",
      batches: 3,
    });
    expect(devBatchesHopInputSchema.safeParse({ run: "b", hop: "batch", batch: 4, batches: 3 }).success).toBe(false);
    expect(hopInputSchema("dev-batches", 2).safeParse({ run: "b", hop: "audit", batches: 3 }).success).toBe(false);
  });

  test("a /dev-implement crew's input, and a context that lacks a field, is refused", () => {
    expect(devImplementHopInputSchema.parse({ run: "i", hop: "close", context })).toEqual({
      run: "i",
      hop: "close",
      context,
    });
    expect(devImplementHopInputSchema.safeParse({ run: "i", hop: "close", context: { mode: "default" } }).success).toBe(
      false,
    );
    expect(pullRequestContextSchema.safeParse({ ...context, mode: "" }).success).toBe(false);
  });

  test("fields are read off own properties alone", () => {
    const inherited = Object.assign(Object.create({ hop: "audit" }) as object, { run: "i" });
    expect(() => parseHopInput("dev-implement", inherited)).toThrow(
      "Invalid /dev-implement hop input: hop must be one of implement, audit, close, got one inherited from its prototype",
    );
  });
});

describe("the runtime's answers are schemas too", () => {
  test("the act result", () => {
    expect(orkeonActResultSchema.parse({ text: "t", budgetExhausted: true, usage: {} })).toEqual({
      text: "t",
      budgetExhausted: true,
    });
    expect(orkeonActResultSchema.safeParse({ budgetExhausted: true }).success).toBe(false);
  });

  test("the session snapshot: a null field, as a .NET runtime may send, is a missing one", () => {
    expect(orkeonSessionSnapshotSchema.parse({ mode: null, rules: { allow: null, deny: ["x"] }, tools: null })).toEqual(
      {
        mode: undefined,
        rules: { allow: [], deny: ["x"] },
        tools: undefined,
      },
    );
  });
});

describe("errors pass their cause", () => {
  test("a schema failure is the cause of the error that reports it", () => {
    for (const error of [
      thrown(() => parseHopInput("dev-batches", { run: "r" })),
      thrown(() => parseSessionContextRead({ mode: 1 })),
      thrown(() => finishedAnswerOf({ text: 1 })),
      thrown(() => createSettingsReader({ json: ["x"] })),
      thrown(() =>
        createSettingsReader({ json: { Orkeon: { Tools: { GitHub: { Token: 12 } } } } })("Orkeon:Tools:GitHub:Token"),
      ),
    ]) {
      expect(error?.cause).toMatchObject({ name: "ZodError", issues: expect.any(Array) });
    }
    expect(thrown(() => parseHopInput("dev-batches", { run: "r" }))).toBeInstanceOf(HopInputInvalidError);
    expect(thrown(() => parseSessionContextRead({ mode: 1 }))).toBeInstanceOf(SessionContextInvalidError);
  });

  test("a setting of the wrong shape is refused by kind, never quoting the value", () => {
    const error = thrown(() =>
      createSettingsReader({ json: { Orkeon: { Tools: { GitHub: { Token: 4242424242 } } } } })(
        "Orkeon:Tools:GitHub:Token",
      ),
    );
    expect(error).toBeInstanceOf(SettingsInvalidError);
    expect(error?.message).toBe(
      "Orkeon:Tools:GitHub:Token in the settings file must be a string or null, got a number",
    );
    expect(thrown(() => createSettingsReader({ json: "ghp_pasted" }))?.message).toBe(
      "The settings file's root must be a JSON object, got a string",
    );
  });
});
