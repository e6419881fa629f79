/**
 * @orphus/orkeon-crew — the Orkeon crew adapter for the runtime surface of Orkeon main after #217 (ADR 0007):
 * the thrown wrap-up of a spent budget, `chain: "continue"` and the chain refusal, the per-hop session re-read,
 * the per-call tool-access table with its catalogue by mode and the gateless fallback guard, and the GitHub token.
 *
 * ```ts
 * import { createLlmAdapter, runMainLoopTurn } from "@orphus/orkeon-crew";
 * import { FakeLlm } from "@orphus/orkeon-crew/testing";
 *
 * const llm = createLlmAdapter(new FakeLlm([{ text: "Wrapped up: two of three files done.", budgetExhausted: true }]));
 * const turn = await runMainLoopTurn({ prompt: "refactor" }, { llm, print: console.log, store: (a) => history.push(a) });
 * // prints "The turn stopped on its token budget; its wrap-up follows." then the wrap-up; stores the wrap-up alone
 * ```
 *
 * The runtime is reached through ports (`Llm`, `CrewHost`, `SessionContextPort`) with adapters over its surface
 * (`ctx.llm.act`, `runCrewAsync`, the session read); in-memory fakes for tests (`FakeLlm`, `FakeCrewHost`,
 * `FakeSessionContext`, `FakeOrkeonRuntime`) are the subpath `@orphus/orkeon-crew/testing`.
 */
export { createLlmAdapter, finishedAnswerOf, orkeonActResultSchema } from "./budget/llm.js";
export { BUDGET_EXHAUSTED_ERROR_NAME, isBudgetExhaustedAnswer, isSpentBudget, wrapUpOf } from "./budget/spent.js";
export { BUDGET_STOP_LINE, runMainLoopTurn } from "./budget/main-loop.js";
export { chainRefusalOf, describeChainRefusal, formatChainRefusal, parseChainRefusal } from "./chain/refusal.js";
export { createCrewHostAdapter, launchCrew } from "./chain/crew-host.js";
export { isReadOnlyMode, MODE_NAMES, ORKEON_MODES, parseMode } from "./modes.js";
export { NO_RULES } from "./rules.js";
export { crewSystemTimers } from "./timers.js";
export {
  createSessionContextAdapter,
  orkeonSessionSnapshotSchema,
  parseSessionContextRead,
  permissionRulesSchema,
  pullRequestContextSchema,
  sessionContextReadSchema,
} from "./hops/context.js";
export {
  DEV_BATCHES_CREW,
  DEV_IMPLEMENT_CREW,
  devBatchesHopInputSchema,
  devImplementHopInputSchema,
  hopInputSchema,
  parseHopInput,
} from "./hops/input.js";
export { batchesNextLaunch, hopLabel, nextLaunch } from "./hops/next-launch.js";
export { devBatchesCompleted, devImplementCompleted } from "./hops/completed.js";
export {
  accessOf,
  DEFAULT_TOOL_TABLE,
  familyOf,
  GITHUB_READ_ACTIONS,
  GITHUB_WRITE_ACTIONS,
  githubAccess,
  HTTP_READ_METHODS,
  httpApiAccess,
} from "./access/table.js";
export { catalogue, FAMILY_MODES, isExposed } from "./access/catalogue.js";
export { gateDecision, isNameable, parseToolRule, toolRuleName } from "./access/gate.js";
export { fallbackDecision } from "./access/call-guard.js";
export { SPEECH_SERVER, SPEECH_TOOL_ANNOTATIONS, speechToolCall } from "./access/speech.js";
export {
  createSettingsReader,
  settingsFileSchema,
  settingValueSchema,
  settingVariableName,
  settingVariables,
} from "./github-token/settings.js";
export { isVariableName, resolveGitHubToken, tokenVariableOf } from "./github-token/resolve.js";
export { createTokenMasker, NO_TOKENS } from "./github-token/mask.js";
export { GitHubToken } from "./github-token/token.js";
export { dockerTokenArgs, TOKEN_VARIABLE_SETTING_VARIABLE } from "./github-token/docker.js";
export {
  DEFAULT_GITHUB_TOKEN_VARIABLE,
  DEFAULT_MAX_PLAN_BATCHES,
  DEFAULT_MAX_STOP_CHECK_RETRIES,
  DEFAULT_SESSION_READ_TIMEOUT_MS,
  GH_TOKEN_VARIABLE,
  GITHUB_TOKEN_SETTING,
  GITHUB_TOKEN_VARIABLE_SETTING,
  MAX_CHAIN_REFUSAL_LENGTH,
  MAX_COMMAND_NAME_LENGTH,
  MAX_MODE_NAME_LENGTH,
  MAX_RULE_LENGTH,
  MAX_RUN_ID_LENGTH,
  MAX_TOOL_NAME_LENGTH,
  MAX_SESSION_RULES,
  MAX_SESSION_TOOLS,
  TOKEN_MASK,
} from "./limits.js";
export {
  OrkeonCrewError,
  BudgetExhaustedAnswer,
  EmptyWrapUpError,
  ActResultInvalidError,
  HopInputInvalidError,
  SessionContextInvalidError,
  GitHubTokenSettingInvalidError,
  UnmaskableTokenError,
  SettingsInvalidError,
  OrkeonCrewOptionError,
} from "./errors.js";
export type {
  ActRequest,
  CrewLaunchOptions,
  OrkeonActResult,
  OrkeonCompletedHook,
  OrkeonCompletedInstance,
  OrkeonContext,
  OrkeonCrewRuntime,
  OrkeonLlm,
  OrkeonSession,
  OrkeonSessionSnapshot,
} from "./runtime.js";
export type { FinishedAnswer, Llm } from "./budget/llm.js";
export type { MainLoopTurn, MainLoopTurnOptions } from "./budget/main-loop.js";
export type { ChainRefusal } from "./chain/refusal.js";
export type { CrewHost, CrewLaunch, LaunchOutcome } from "./chain/crew-host.js";
export type { ModeTable, ModeTraits, OrkeonMode } from "./modes.js";
export type { PermissionRules } from "./rules.js";
export type { TimerHandle, Timers } from "./timers.js";
export type { PullRequestContext, SessionContextPort, SessionContextRead } from "./hops/context.js";
export type { DevCommand, HopInput, HopName } from "./hops/input.js";
export type { HopDecision, HopLaunch, NextLaunchOptions } from "./hops/next-launch.js";
export type { ChainCompletedOptions } from "./hops/completed.js";
export type {
  BuiltinToolCall,
  McpToolAnnotations,
  McpToolCall,
  ToolAccess,
  ToolCall,
  ToolEntry,
  ToolFamily,
  ToolTable,
} from "./access/table.js";
export type { GateDecision, ToolRule } from "./access/gate.js";
export type { GuardDecision } from "./access/call-guard.js";
export type { Environment, SettingsReader } from "./github-token/settings.js";
export type { GitHubTokenResolution, GitHubTokenSources } from "./github-token/resolve.js";
export type { TokenMasker } from "./github-token/mask.js";
export type { GitHubTokenSource } from "./github-token/token.js";
export type { Mask } from "./options.js";
