import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type * as api from "@orphus/orkeon-crew";
import {
  accessOf,
  ActResultInvalidError,
  BudgetExhaustedAnswer,
  BUDGET_STOP_LINE,
  createLlmAdapter,
  createSettingsReader,
  dockerTokenArgs,
  EmptyWrapUpError,
  gateDecision,
  isSpentBudget,
  parseToolRule,
  resolveGitHubToken,
  runMainLoopTurn,
  SettingsInvalidError,
  tokenVariableOf,
  wrapUpOf,
  type Environment,
  type OrkeonLlm,
  type McpToolCall,
  type ToolCall,
} from "@orphus/orkeon-crew";
import { thrown } from "./support/thrown.js";

// Finding 6 of issue 16, item by item.

describe("an HTTP method is upper-cased by ASCII rules alone", () => {
  const http = (method: string): ToolCall => ({
    kind: "builtin",
    tool: "http_api",
    args: { url: "https://x", method },
  });

  test.each(["optionſ", "optıons", "gEt\u0131", "head\u017f", "ＧＥＴ"])(
    "%j executes: Unicode folding makes it no read",
    (method) => {
      expect(accessOf(http(method))).toBe("execute");
    },
  );

  test.each(["get", "Get", "hEaD", "Options"])("%j reads, letter case aside", (method) => {
    expect(accessOf(http(method))).toBe("read");
  });
});

describe("an act result is read off its own properties alone", () => {
  const adapter = (result: unknown) => createLlmAdapter({ act: async () => result } as unknown as OrkeonLlm);

  test("a budgetExhausted inherited from a prototype is refused, never read as a finished answer", async () => {
    const inherited = Object.assign(Object.create({ budgetExhausted: true }) as object, { text: "wrap-up" });
    const error = await adapter(inherited)
      .act({ prompt: "p" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActResultInvalidError);
    expect((error as Error).message).toContain(
      "budgetExhausted must be true, false or absent, got one inherited from its prototype",
    );
  });

  test("a getter on a class's prototype is no own property either", async () => {
    class Result {
      readonly text = "wrap-up";
      get budgetExhausted(): true {
        return true;
      }
    }
    await expect(adapter(new Result()).act({ prompt: "p" })).rejects.toBeInstanceOf(ActResultInvalidError);
  });

  test("own properties resolve as before", async () => {
    await expect(adapter({ text: "done" }).act({ prompt: "p" })).resolves.toEqual({ text: "done" });
    await expect(adapter({ text: "w", budgetExhausted: true }).act({ prompt: "p" })).rejects.toBeInstanceOf(
      BudgetExhaustedAnswer,
    );
  });
});

describe("one brand for a spent budget, recognised the same way everywhere", () => {
  /** The error classes of a second copy of the package, as two installed versions would give. */
  async function secondCopy(): Promise<typeof api> {
    const specifier = "../src/errors.ts?second-copy";
    return (await import(/* @vite-ignore */ specifier)) as typeof api;
  }

  test("the main loop shows the wrap-up of a BudgetExhaustedAnswer from a second copy of the package", async () => {
    const copy = await secondCopy();
    const foreign = new copy.BudgetExhaustedAnswer("Wrapped up elsewhere.");
    expect(foreign).not.toBeInstanceOf(BudgetExhaustedAnswer);
    const printed: string[] = [];
    const stored: string[] = [];
    const llm = { act: async () => Promise.reject(foreign) };
    const turn = await runMainLoopTurn(
      { prompt: "p" },
      { llm, print: (l) => printed.push(l), store: (a) => stored.push(a) },
    );
    expect(turn).toEqual({ answer: "Wrapped up elsewhere.", stoppedOnBudget: true, acts: 1 });
    expect(printed).toEqual([BUDGET_STOP_LINE, "Wrapped up elsewhere."]);
    expect(isSpentBudget(foreign)).toBe(true);
    expect(wrapUpOf(foreign)).toBe("Wrapped up elsewhere.");
    expect(isSpentBudget(new copy.EmptyWrapUpError(""))).toBe(true);
  });

  test("an error that only borrows the name carries no wrap-up, for any reader", async () => {
    const impostor = Object.assign(new Error("budget"), { name: "BudgetExhaustedAnswer", answer: "not a wrap-up" });
    expect(wrapUpOf(impostor)).toBeUndefined();
    const llm = { act: async () => Promise.reject(impostor) };
    await expect(runMainLoopTurn({ prompt: "p" }, { llm, print: () => {}, store: () => {} })).rejects.toBe(impostor);
    // The runtime's own rejection is read by its name, and carries no wrap-up.
    expect(isSpentBudget(impostor)).toBe(true);
    expect(isSpentBudget(new EmptyWrapUpError(""))).toBe(true);
  });

  test("the brand is Symbol.for, so any copy reads it", () => {
    const error = new BudgetExhaustedAnswer("w") as unknown as Record<symbol, unknown>;
    expect(error[Symbol.for("@orphus/orkeon-crew.spent-budget")]).toBe("wrap-up");
    expect(
      (new EmptyWrapUpError("") as unknown as Record<symbol, unknown>)[Symbol.for("@orphus/orkeon-crew.spent-budget")],
    ).toBe("empty-wrap-up");
  });
});

describe("an MCP rule names one server unambiguously", () => {
  const mcp = (server: string, tool: string): McpToolCall => ({ kind: "mcp", server, tool });

  test("a rule is read one way: the server ends at the first __ after mcp__", () => {
    expect(parseToolRule("mcp__a__b__c")).toEqual({ kind: "mcp", server: "a", tool: "b__c" });
    expect(parseToolRule("mcp__speech")).toEqual({ kind: "mcp", server: "speech" });
    expect(parseToolRule("github")).toEqual({ kind: "builtin", tool: "github" });
    for (const nothing of ["mcp__", "mcp____t", "mcp__a__"]) expect(parseToolRule(nothing)).toBeUndefined();
  });

  test("an allow rule mcp__a__b allows tool b of server a, and nothing of a server named a__b", () => {
    const rules = { allow: ["mcp__a__b"], deny: [] };
    expect(gateDecision("default", mcp("a", "b"), rules)).toBe("allow");
    expect(gateDecision("default", mcp("a__b", "x"), rules)).toBe("deny");
  });

  test("a server whose name no rule can spell alone is denied: no rule could allow or deny it", () => {
    for (const server of ["a__b", "a_", "", "__"]) {
      expect(gateDecision("default", { ...mcp(server, "t"), annotations: { readOnlyHint: true } })).toBe("deny");
    }
    expect(gateDecision("default", { ...mcp("_a", "t__u"), annotations: { readOnlyHint: true } })).toBe("allow");
  });

  test("property: a rule matches the calls of one server at most", () => {
    const name = fc.string({ maxLength: 6, unit: fc.constantFrom("a", "b", "_") });
    fc.assert(
      fc.property(name, name, name, name, (s1, t1, s2, t2) => {
        for (const rule of [`mcp__${s1}__${t1}`, `mcp__${s1}`]) {
          const rules = { allow: [rule], deny: [] };
          const first = gateDecision("default", mcp(s1, t1), rules) === "allow";
          const second = gateDecision("default", mcp(s2, t2), rules) === "allow";
          if (first && second) expect(s2).toBe(s1);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe("configuration keys match as .NET configuration matches them", () => {
  const resolve = (json: unknown, env: Environment) =>
    resolveGitHubToken({ settings: createSettingsReader({ json, env }), env });

  test("an upper-case ORKEON__TOOLS__GITHUB__TOKEN is used, and masked", () => {
    const { token, masker } = resolve(undefined, { ORKEON__TOOLS__GITHUB__TOKEN: "tok-upper", GITHUB_TOKEN: "tok-gh" });
    expect(token?.reveal()).toBe("tok-upper");
    expect(token?.source).toEqual({ kind: "setting", key: "Orkeon:Tools:GitHub:Token" });
    expect(masker.mask("tok-upper and tok-gh")).toBe("*** and ***");
  });

  test("any letter case, and : as well as __, names the key", () => {
    expect(tokenVariableOf(createSettingsReader({ env: { orkeon__tools__github__tokenvariable: "MINE" } }))).toBe(
      "MINE",
    );
    expect(tokenVariableOf(createSettingsReader({ env: { "Orkeon:Tools:GitHub:TokenVariable": "MINE" } }))).toBe(
      "MINE",
    );
    expect(
      createSettingsReader({ json: { ORKEON: { tools: { GITHUB: { token: "t" } } } } })("Orkeon:Tools:GitHub:Token"),
    ).toBe("t");
  });

  test("non-ASCII letters are not folded: a Kelvin sign or a dotless i names no key", () => {
    expect(
      createSettingsReader({ env: { "Or\u212Aeon__Tools__GitHub__Token": "t" } })("Orkeon:Tools:GitHub:Token"),
    ).toBeUndefined();
    expect(
      createSettingsReader({ json: { Orkeon: { Tools: { GıtHub: { Token: "t" } } } } })("Orkeon:Tools:GitHub:Token"),
    ).toBeUndefined();
  });

  test("Docker is handed the setting in whatever spelling it is set, and the variable it names", () => {
    expect(dockerTokenArgs({ ORKEON__TOOLS__GITHUB__TOKENVARIABLE: "MY_TOKEN", MY_TOKEN: "t" })).toEqual([
      "-e",
      "MY_TOKEN",
      "-e",
      "ORKEON__TOOLS__GITHUB__TOKENVARIABLE",
    ]);
  });

  test("two spellings with different values are refused, naming the spellings, never the values", () => {
    const env = { Orkeon__Tools__GitHub__Token: "secret-one", ORKEON__TOOLS__GITHUB__TOKEN: "secret-two" };
    const error = thrown(() => resolve(undefined, env));
    expect(error).toBeInstanceOf(SettingsInvalidError);
    expect(error?.message).toBe(
      "Orkeon:Tools:GitHub:Token is set by 2 variables with different values (ORKEON__TOOLS__GITHUB__TOKEN, Orkeon__Tools__GitHub__Token): " +
        "the runtime's configuration matches keys without regard to case and would take one of them unpredictably; keep one",
    );
    expect(
      resolve(undefined, {
        Orkeon__Tools__GitHub__Token: "same",
        ORKEON__TOOLS__GITHUB__TOKEN: "same",
      }).token?.reveal(),
    ).toBe("same");
  });

  test("a settings file holding a key twice, letter case aside, is refused as .NET refuses it", () => {
    expect(() => resolve({ Orkeon: { Tools: { GitHub: { Token: "a", TOKEN: "b" } } } }, {})).toThrow(
      "The settings file holds the key Orkeon:Tools:GitHub:Token more than once, letter case aside",
    );
  });
});
