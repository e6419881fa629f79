import { describe, expect, test, vi } from "vitest";
import {
  BUDGET_STOP_LINE,
  createLlmAdapter,
  createTokenMasker,
  OrkeonCrewOptionError,
  runMainLoopTurn,
} from "@orphus/orkeon-crew";
import { FakeLlm, runtimeBudgetRejection, type FakeActStep } from "@orphus/orkeon-crew/testing";

function harness(steps: FakeActStep[]) {
  const fake = new FakeLlm(steps);
  const printed: string[] = [];
  const stored: string[] = [];
  return {
    fake,
    llm: createLlmAdapter(fake),
    printed,
    stored,
    print: (t: string) => printed.push(t),
    store: (a: string) => stored.push(a),
  };
}

describe("the main loop, the one reader of a wrap-up", () => {
  test("prints the wrap-up under the budget line, stores the wrap-up alone, makes no stop-check retry", async () => {
    const h = harness([{ text: "Done: a and b. Left: c.", budgetExhausted: true }]);
    const stopCheck = vi.fn(() => ({ prompt: "are you done?" }));
    const turn = await runMainLoopTurn({ prompt: "do a, b, c" }, { ...h, stopCheck });
    expect(BUDGET_STOP_LINE).toBe("The turn stopped on its token budget; its wrap-up follows.");
    expect(h.printed).toEqual([BUDGET_STOP_LINE, "Done: a and b. Left: c."]);
    expect(h.stored).toEqual(["Done: a and b. Left: c."]);
    expect(stopCheck).not.toHaveBeenCalled();
    expect(turn).toEqual({ answer: "Done: a and b. Left: c.", stoppedOnBudget: true, acts: 1 });
    expect(h.fake.requests).toHaveLength(1);
  });

  test("a finished answer is printed and stored; the stop check may retry, within its bound", async () => {
    const h = harness([{ text: "first" }, { text: "second" }, { text: "third" }]);
    const stopCheck = vi.fn(() => ({ prompt: "keep going" }));
    const turn = await runMainLoopTurn({ prompt: "p" }, { ...h, stopCheck, maxStopCheckRetries: 2 });
    expect(stopCheck).toHaveBeenCalledTimes(2);
    expect(h.printed).toEqual(["first", "second", "third"]);
    expect(h.stored).toEqual(["third"]);
    expect(turn).toEqual({ answer: "third", stoppedOnBudget: false, acts: 3 });
    expect(h.fake.requests.map((r) => r.prompt)).toEqual(["p", "keep going", "keep going"]);
  });

  test("a stop check that is satisfied ends the turn", async () => {
    const h = harness([{ text: "all done" }]);
    const turn = await runMainLoopTurn({ prompt: "p" }, { ...h, stopCheck: async () => undefined });
    expect(turn).toEqual({ answer: "all done", stoppedOnBudget: false, acts: 1 });
  });

  test("a retry that meets the spent budget shows its wrap-up and stores it alone", async () => {
    const h = harness([{ text: "half" }, { text: "wrap", budgetExhausted: true }]);
    const turn = await runMainLoopTurn({ prompt: "p" }, { ...h, stopCheck: () => ({ prompt: "more" }) });
    expect(h.printed).toEqual(["half", BUDGET_STOP_LINE, "wrap"]);
    expect(h.stored).toEqual(["wrap"]);
    expect(turn).toEqual({ answer: "wrap", stoppedOnBudget: true, acts: 2 });
  });

  test("a spent budget without a wrap-up rejects as before, printing and storing nothing", async () => {
    const rejection = runtimeBudgetRejection();
    const h = harness([{ reject: rejection }]);
    await expect(runMainLoopTurn({ prompt: "p" }, h)).rejects.toBe(rejection);
    expect(h.printed).toEqual([]);
    expect(h.stored).toEqual([]);
  });

  test("masks what it prints and stores", async () => {
    const h = harness([{ text: "token ghp_secret leaked", budgetExhausted: true }]);
    const { mask } = createTokenMasker(["ghp_secret"]);
    await runMainLoopTurn({ prompt: "p" }, { ...h, mask });
    expect(h.printed).toEqual([BUDGET_STOP_LINE, "token *** leaked"]);
    expect(h.stored).toEqual(["token *** leaked"]);
  });

  test("refuses a negative or fractional retry bound", async () => {
    const h = harness([{ text: "x" }]);
    await expect(runMainLoopTurn({ prompt: "p" }, { ...h, maxStopCheckRetries: -1 })).rejects.toBeInstanceOf(
      OrkeonCrewOptionError,
    );
    await expect(runMainLoopTurn({ prompt: "p" }, { ...h, maxStopCheckRetries: 1.5 })).rejects.toThrow(
      "Invalid option maxStopCheckRetries: expected an integer from 0 to 9007199254740991, got number 1.5",
    );
  });
});
