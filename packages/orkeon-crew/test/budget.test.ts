import { describe, expect, test } from "vitest";
import {
  ActResultInvalidError,
  BudgetExhaustedAnswer,
  createLlmAdapter,
  EmptyWrapUpError,
  isSpentBudget,
  wrapUpOf,
  type Llm,
} from "@orphus/orkeon-crew";
import { FakeLlm, FakeMisuseError, runtimeBudgetRejection } from "@orphus/orkeon-crew/testing";

describe("the Llm adapter over ctx.llm.act", () => {
  test("a finished answer resolves as the text alone", async () => {
    const fake = new FakeLlm([{ text: "done" }]);
    const llm = createLlmAdapter(fake);
    await expect(llm.act({ prompt: "go", maxSteps: 3 })).resolves.toEqual({ text: "done" });
    expect(fake.requests).toEqual([{ prompt: "go", maxSteps: 3 }]);
  });

  test("a result flagged budgetExhausted is thrown as BudgetExhaustedAnswer with the wrap-up as answer", async () => {
    const llm = createLlmAdapter(new FakeLlm([{ text: "Two of three files refactored.", budgetExhausted: true }]));
    const error = await llm.act({ prompt: "go" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BudgetExhaustedAnswer);
    expect(error).toMatchObject({
      name: "BudgetExhaustedAnswer",
      code: "ERR_BUDGET_EXHAUSTED_ANSWER",
      dimension: "tokens",
      answer: "Two of three files refactored.",
    });
    expect((error as Error).message).toBe(
      "The act stopped on its token budget; the runtime's wrap-up (30 chars) is the answer",
    );
  });

  test("an empty or blank wrap-up still rejects, with no answer to show", async () => {
    for (const text of ["", "  \n\t"]) {
      const llm = createLlmAdapter(new FakeLlm([{ text, budgetExhausted: true }]));
      const error = await llm.act({ prompt: "go" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EmptyWrapUpError);
      expect(error).toMatchObject({ code: "ERR_EMPTY_WRAP_UP", dimension: "tokens" });
      expect(isSpentBudget(error)).toBe(true);
      expect(wrapUpOf(error)).toBeUndefined();
    }
  });

  test("the runtime's own rejection of a failing wrap-up passes through untouched", async () => {
    const rejection = runtimeBudgetRejection();
    const llm = createLlmAdapter(new FakeLlm([{ reject: rejection }]));
    await expect(llm.act({ prompt: "go" })).rejects.toBe(rejection);
    expect(rejection).toMatchObject({ name: "BudgetExhaustedAnswer", dimension: "tokens" });
  });

  test("any other rejection passes through untouched", async () => {
    const failure = new Error("socket closed");
    const llm = createLlmAdapter(new FakeLlm([{ reject: failure }]));
    await expect(llm.act({ prompt: "go" })).rejects.toBe(failure);
    expect(isSpentBudget(failure)).toBe(false);
  });

  test("budgetExhausted: false reads as a finished answer", async () => {
    const surface = { act: async () => ({ text: "ok", budgetExhausted: false }) };
    await expect(createLlmAdapter(surface as never).act({ prompt: "p" })).resolves.toEqual({ text: "ok" });
  });

  test.each([
    [null, "ctx.llm.act resolved to an invalid result: expected { text: string, budgetExhausted?: true }, got null"],
    [
      "text",
      'ctx.llm.act resolved to an invalid result: expected { text: string, budgetExhausted?: true }, got the string "text"',
    ],
    [
      { text: 3 },
      "ctx.llm.act resolved to an invalid result: expected { text: string, budgetExhausted?: true }, text must be a string, got number 3",
    ],
    [
      { text: "a", budgetExhausted: "yes" },
      'ctx.llm.act resolved to an invalid result: expected { text: string, budgetExhausted?: true }, budgetExhausted must be true, false or absent, got the string "yes"',
    ],
  ])("an act result of another shape is ActResultInvalidError: %j", async (result, message) => {
    const surface = { act: async () => result };
    const error = await createLlmAdapter(surface as never)
      .act({ prompt: "p" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActResultInvalidError);
    expect(error).toMatchObject({ code: "ERR_ACT_RESULT_INVALID", message });
  });
});

describe("callers that must not parse a cut-short answer", () => {
  // Stands for runSubAgent, the dev roles, the auditor, the repair run and /analyze: they read a spent budget off a
  // rejection, and see the same before and after #218.
  async function subAgent(llm: Llm): Promise<string> {
    try {
      return (await llm.act({ prompt: "sub-task" })).text;
    } catch (error) {
      if (isSpentBudget(error)) return "did not finish";
      throw error;
    }
  }

  test("read a spent budget the same way whether the runtime rejected or made a wrap-up", async () => {
    const before = createLlmAdapter(new FakeLlm([{ reject: runtimeBudgetRejection() }]));
    const after = createLlmAdapter(new FakeLlm([{ text: "partial work", budgetExhausted: true }]));
    await expect(subAgent(before)).resolves.toBe("did not finish");
    await expect(subAgent(after)).resolves.toBe("did not finish");
  });
});

describe("reading a spent budget", () => {
  test("isSpentBudget knows the runtime's name, the thrown wrap-up and the empty wrap-up", () => {
    expect(isSpentBudget(new BudgetExhaustedAnswer("w"))).toBe(true);
    expect(isSpentBudget(new EmptyWrapUpError(""))).toBe(true);
    expect(isSpentBudget({ name: "BudgetExhaustedAnswer" })).toBe(true);
    expect(isSpentBudget(new Error("BudgetExhaustedAnswer"))).toBe(false);
    expect(isSpentBudget(undefined)).toBe(false);
    expect(isSpentBudget("BudgetExhaustedAnswer")).toBe(false);
  });

  test("wrapUpOf returns the answer only when there is one", () => {
    expect(wrapUpOf(new BudgetExhaustedAnswer("the wrap-up"))).toBe("the wrap-up");
    // A wrap-up is read off the brand alone; a plain object borrowing the name carries none.
    expect(wrapUpOf({ name: "BudgetExhaustedAnswer", answer: "borrowed name" })).toBeUndefined();
    expect(wrapUpOf({ name: "BudgetExhaustedAnswer", answer: " " })).toBeUndefined();
    expect(wrapUpOf(runtimeBudgetRejection())).toBeUndefined();
    expect(wrapUpOf({ name: "Other", answer: "x" })).toBeUndefined();
  });
});

describe("FakeLlm", () => {
  test("takes its steps in order and says when the script ran out", async () => {
    const fake = new FakeLlm().push({ text: "one" });
    expect(fake.remaining).toBe(1);
    await expect(fake.act({ prompt: "a" })).resolves.toEqual({ text: "one" });
    const error = await fake.act({ prompt: "b" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FakeMisuseError);
    expect(error).toMatchObject({ code: "ERR_FAKE_MISUSE", message: "FakeLlm: act call 2 has no scripted step left" });
  });
});
