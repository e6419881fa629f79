import { describe, expect, test } from "vitest";
import * as api from "@orphus/orkeon-crew";
import * as testing from "@orphus/orkeon-crew/testing";

describe("the public surface", () => {
  test("exports exactly these names", () => {
    expect(Object.keys(api).sort()).toEqual([
      "ActResultInvalidError",
      "BUDGET_EXHAUSTED_ERROR_NAME",
      "BUDGET_STOP_LINE",
      "BudgetExhaustedAnswer",
      "DEFAULT_GITHUB_TOKEN_VARIABLE",
      "DEFAULT_MAX_PLAN_BATCHES",
      "DEFAULT_MAX_STOP_CHECK_RETRIES",
      "DEFAULT_SESSION_READ_TIMEOUT_MS",
      "DEFAULT_TOOL_TABLE",
      "DEV_BATCHES_CREW",
      "DEV_IMPLEMENT_CREW",
      "EmptyWrapUpError",
      "FAMILY_MODES",
      "GH_TOKEN_VARIABLE",
      "GITHUB_READ_ACTIONS",
      "GITHUB_TOKEN_SETTING",
      "GITHUB_TOKEN_VARIABLE_SETTING",
      "GITHUB_WRITE_ACTIONS",
      "GitHubToken",
      "GitHubTokenSettingInvalidError",
      "HTTP_READ_METHODS",
      "HopInputInvalidError",
      "MAX_CHAIN_REFUSAL_LENGTH",
      "MAX_COMMAND_NAME_LENGTH",
      "MAX_MODE_NAME_LENGTH",
      "MAX_RULE_LENGTH",
      "MAX_RUN_ID_LENGTH",
      "MAX_SESSION_RULES",
      "MAX_SESSION_TOOLS",
      "MAX_TOOL_NAME_LENGTH",
      "MODE_NAMES",
      "NO_RULES",
      "NO_TOKENS",
      "ORKEON_MODES",
      "OrkeonCrewError",
      "OrkeonCrewOptionError",
      "SPEECH_SERVER",
      "SPEECH_TOOL_ANNOTATIONS",
      "SessionContextInvalidError",
      "SettingsInvalidError",
      "TOKEN_MASK",
      "TOKEN_VARIABLE_SETTING_VARIABLE",
      "UnmaskableTokenError",
      "accessOf",
      "batchesNextLaunch",
      "catalogue",
      "chainRefusalOf",
      "createCrewHostAdapter",
      "createLlmAdapter",
      "createSessionContextAdapter",
      "createSettingsReader",
      "createTokenMasker",
      "crewSystemTimers",
      "describeChainRefusal",
      "devBatchesCompleted",
      "devBatchesHopInputSchema",
      "devImplementCompleted",
      "devImplementHopInputSchema",
      "dockerTokenArgs",
      "fallbackDecision",
      "familyOf",
      "finishedAnswerOf",
      "formatChainRefusal",
      "gateDecision",
      "githubAccess",
      "hopInputSchema",
      "hopLabel",
      "httpApiAccess",
      "isBudgetExhaustedAnswer",
      "isExposed",
      "isNameable",
      "isReadOnlyMode",
      "isSpentBudget",
      "isVariableName",
      "launchCrew",
      "nextLaunch",
      "orkeonActResultSchema",
      "orkeonSessionSnapshotSchema",
      "parseChainRefusal",
      "parseHopInput",
      "parseMode",
      "parseSessionContextRead",
      "parseToolRule",
      "permissionRulesSchema",
      "pullRequestContextSchema",
      "resolveGitHubToken",
      "runMainLoopTurn",
      "sessionContextReadSchema",
      "settingValueSchema",
      "settingVariableName",
      "settingVariables",
      "settingsFileSchema",
      "speechToolCall",
      "tokenVariableOf",
      "toolRuleName",
      "wrapUpOf",
    ]);
  });

  test("every error has its stable code and name", () => {
    const cases: Array<[api.OrkeonCrewError, string, string]> = [
      [new api.BudgetExhaustedAnswer("w"), "BudgetExhaustedAnswer", "ERR_BUDGET_EXHAUSTED_ANSWER"],
      [new api.EmptyWrapUpError(""), "EmptyWrapUpError", "ERR_EMPTY_WRAP_UP"],
      [new api.ActResultInvalidError("x"), "ActResultInvalidError", "ERR_ACT_RESULT_INVALID"],
      [new api.HopInputInvalidError("dev-batches", "f", "e", 1), "HopInputInvalidError", "ERR_HOP_INPUT_INVALID"],
      [new api.SessionContextInvalidError("f", "e", 1), "SessionContextInvalidError", "ERR_SESSION_CONTEXT_INVALID"],
      [
        new api.GitHubTokenSettingInvalidError("s", 1, "p"),
        "GitHubTokenSettingInvalidError",
        "ERR_GITHUB_TOKEN_SETTING_INVALID",
      ],
      [new api.UnmaskableTokenError("s"), "UnmaskableTokenError", "ERR_TOKEN_UNMASKABLE"],
      [new api.SettingsInvalidError("d"), "SettingsInvalidError", "ERR_SETTINGS_INVALID"],
      [new api.OrkeonCrewOptionError("o", "e", 1), "OrkeonCrewOptionError", "ERR_ORKEON_CREW_INVALID_OPTION"],
      [new testing.FakeMisuseError("Fake", "d"), "FakeMisuseError", "ERR_FAKE_MISUSE"],
    ];
    for (const [error, name, code] of cases) {
      expect(error).toBeInstanceOf(api.OrkeonCrewError);
      expect(error).toBeInstanceOf(Error);
      expect([error.name, error.code]).toEqual([name, code]);
    }
  });

  test("the constants a user configures against", () => {
    expect({
      TOKEN_MASK: api.TOKEN_MASK,
      BUDGET_EXHAUSTED_ERROR_NAME: api.BUDGET_EXHAUSTED_ERROR_NAME,
      DEFAULT_GITHUB_TOKEN_VARIABLE: api.DEFAULT_GITHUB_TOKEN_VARIABLE,
      GH_TOKEN_VARIABLE: api.GH_TOKEN_VARIABLE,
      GITHUB_TOKEN_SETTING: api.GITHUB_TOKEN_SETTING,
      GITHUB_TOKEN_VARIABLE_SETTING: api.GITHUB_TOKEN_VARIABLE_SETTING,
      TOKEN_VARIABLE_SETTING_VARIABLE: api.TOKEN_VARIABLE_SETTING_VARIABLE,
      MAX_CHAIN_REFUSAL_LENGTH: api.MAX_CHAIN_REFUSAL_LENGTH,
      MAX_COMMAND_NAME_LENGTH: api.MAX_COMMAND_NAME_LENGTH,
      DEFAULT_MAX_STOP_CHECK_RETRIES: api.DEFAULT_MAX_STOP_CHECK_RETRIES,
      DEFAULT_MAX_PLAN_BATCHES: api.DEFAULT_MAX_PLAN_BATCHES,
      DEFAULT_SESSION_READ_TIMEOUT_MS: api.DEFAULT_SESSION_READ_TIMEOUT_MS,
      MAX_RUN_ID_LENGTH: api.MAX_RUN_ID_LENGTH,
      MAX_SESSION_RULES: api.MAX_SESSION_RULES,
      MAX_SESSION_TOOLS: api.MAX_SESSION_TOOLS,
      MAX_TOOL_NAME_LENGTH: api.MAX_TOOL_NAME_LENGTH,
      MAX_RULE_LENGTH: api.MAX_RULE_LENGTH,
      MAX_MODE_NAME_LENGTH: api.MAX_MODE_NAME_LENGTH,
      DEV_IMPLEMENT_CREW: api.DEV_IMPLEMENT_CREW,
      DEV_BATCHES_CREW: api.DEV_BATCHES_CREW,
      MODE_NAMES: api.MODE_NAMES,
    }).toEqual({
      TOKEN_MASK: "***",
      BUDGET_EXHAUSTED_ERROR_NAME: "BudgetExhaustedAnswer",
      DEFAULT_GITHUB_TOKEN_VARIABLE: "GITHUB_TOKEN",
      GH_TOKEN_VARIABLE: "GH_TOKEN",
      GITHUB_TOKEN_SETTING: "Orkeon:Tools:GitHub:Token",
      GITHUB_TOKEN_VARIABLE_SETTING: "Orkeon:Tools:GitHub:TokenVariable",
      TOKEN_VARIABLE_SETTING_VARIABLE: "Orkeon__Tools__GitHub__TokenVariable",
      MAX_CHAIN_REFUSAL_LENGTH: 512,
      MAX_COMMAND_NAME_LENGTH: 64,
      DEFAULT_MAX_STOP_CHECK_RETRIES: 2,
      DEFAULT_MAX_PLAN_BATCHES: 10_000,
      DEFAULT_SESSION_READ_TIMEOUT_MS: 5_000,
      MAX_RUN_ID_LENGTH: 256,
      MAX_SESSION_RULES: 1_000,
      MAX_SESSION_TOOLS: 1_000,
      MAX_TOOL_NAME_LENGTH: 256,
      MAX_RULE_LENGTH: 1_024,
      MAX_MODE_NAME_LENGTH: 64,
      DEV_IMPLEMENT_CREW: "dev-implement",
      DEV_BATCHES_CREW: "dev-batches",
      MODE_NAMES: ["plan", "dontAsk", "default", "acceptEdits", "confirmWaves"],
    });
  });

  test("the test doubles are the /testing subpath, exactly these names, and none is in the main entry", () => {
    expect(Object.keys(testing).sort()).toEqual([
      "DEFAULT_FAKE_MAX_CHAIN_DEPTH",
      "DEFAULT_FAKE_MAX_LAUNCHES",
      "FakeCrewHost",
      "FakeLlm",
      "FakeMisuseError",
      "FakeOrkeonRuntime",
      "FakeSessionContext",
      "runtimeBudgetRejection",
    ]);
    expect({
      DEFAULT_FAKE_MAX_CHAIN_DEPTH: testing.DEFAULT_FAKE_MAX_CHAIN_DEPTH,
      DEFAULT_FAKE_MAX_LAUNCHES: testing.DEFAULT_FAKE_MAX_LAUNCHES,
    }).toEqual({ DEFAULT_FAKE_MAX_CHAIN_DEPTH: 3, DEFAULT_FAKE_MAX_LAUNCHES: 1_000 });
  });

  test("a fake's error is an error of the main entry: one class, whichever entry reaches it", () => {
    const misuse = new testing.FakeMisuseError("FakeLlm", "no step left");
    expect(misuse).toBeInstanceOf(api.OrkeonCrewError);
    expect(() => new testing.FakeOrkeonRuntime({ maxChainDepth: 0 })).toThrow(api.OrkeonCrewOptionError);
  });

  test("the modes and what they promise", () => {
    expect(api.ORKEON_MODES).toEqual({
      plan: { readOnly: true, asksBeforeWave: false },
      dontAsk: { readOnly: true, asksBeforeWave: false },
      default: { readOnly: false, asksBeforeWave: false },
      acceptEdits: { readOnly: false, asksBeforeWave: false },
      confirmWaves: { readOnly: false, asksBeforeWave: true },
    });
    expect(api.parseMode("plan")).toBe("plan");
    expect(api.parseMode("Plan")).toBe("plan");
    expect(api.parseMode("DontAsk")).toBe("dontAsk");
    expect(api.parseMode("auto")).toBeUndefined();
    expect(api.parseMode("toString")).toBeUndefined();
  });
});
