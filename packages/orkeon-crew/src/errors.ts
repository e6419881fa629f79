import { brandErrorClass } from "@orphus/internal";
import { describeValue } from "./text.js";

/**
 * The brand of a spent budget's errors: `"wrap-up"` on a BudgetExhaustedAnswer, `"empty-wrap-up"` on an
 * EmptyWrapUpError. A registered symbol, so an error made by a second copy of this package is read the same way.
 */
export const SPENT_BUDGET_BRAND: unique symbol = Symbol.for("@orphus/orkeon-crew.spent-budget");

/** Base class of every failure this package throws; `code` is stable across releases. */
export abstract class OrkeonCrewError extends Error {
  abstract readonly code: string;
  static {
    brandErrorClass(this);
  }
}

/**
 * Thrown by the Llm adapter when `ctx.llm.act` resolves with `budgetExhausted: true`: the token budget ran out and
 * the runtime made one last tool-less call, whose answer is `answer`. It carries the runtime's error name, so a
 * caller that reads a spent budget off the rejection keeps doing so; the main loop alone shows the wrap-up.
 */
export class BudgetExhaustedAnswer extends OrkeonCrewError {
  override readonly name = "BudgetExhaustedAnswer";
  readonly code = "ERR_BUDGET_EXHAUSTED_ANSWER";
  /** The budget that ran out: the sum of prompt and completion tokens of every call. */
  readonly dimension = "tokens";
  constructor(
    /** The wrap-up the runtime made once the budget was spent; never empty. */
    readonly answer: string,
  ) {
    super(`The act stopped on its token budget; the runtime's wrap-up (${answer.length} chars) is the answer`);
    Object.defineProperty(this, SPENT_BUDGET_BRAND, { value: "wrap-up" });
  }
}

/**
 * Thrown by the Llm adapter when the runtime resolves a spent budget with an empty or blank wrap-up. The runtime
 * itself rejects such a wrap-up; this guards a runtime that resolves one instead, so a spent budget still rejects.
 */
export class EmptyWrapUpError extends OrkeonCrewError {
  override readonly name = "EmptyWrapUpError";
  readonly code = "ERR_EMPTY_WRAP_UP";
  /** The budget that ran out. */
  readonly dimension = "tokens";
  constructor(text: string) {
    super(
      `The act stopped on its token budget with an empty wrap-up: expected a non-blank answer, got ${describeValue(text)}`,
    );
    Object.defineProperty(this, SPENT_BUDGET_BRAND, { value: "empty-wrap-up" });
  }
}

/** Thrown by the Llm adapter when `ctx.llm.act` resolves to something other than `{ text, budgetExhausted?: true }`. */
export class ActResultInvalidError extends OrkeonCrewError {
  override readonly name = "ActResultInvalidError";
  readonly code = "ERR_ACT_RESULT_INVALID";
  constructor(detail: string, options?: ErrorOptions) {
    super(
      `ctx.llm.act resolved to an invalid result: expected { text: string, budgetExhausted?: true }, ${detail}`,
      options,
    );
  }
}

/** Thrown when a completed crew instance's input is not a hop input of its command (see `parseHopInput`). */
export class HopInputInvalidError extends OrkeonCrewError {
  override readonly name = "HopInputInvalidError";
  readonly code = "ERR_HOP_INPUT_INVALID";
  constructor(command: string, field: string, expected: string, got: unknown, options?: ErrorOptions) {
    super(`Invalid /${command} hop input: ${field} must be ${expected}, got ${describeValue(got)}`, options);
  }
}

/** Thrown when a session context read answers something other than a mode, allow/deny rules and a github flag. */
export class SessionContextInvalidError extends OrkeonCrewError {
  override readonly name = "SessionContextInvalidError";
  readonly code = "ERR_SESSION_CONTEXT_INVALID";
  constructor(field: string, expected: string, got: unknown, options?: ErrorOptions) {
    super(`Invalid session context read: ${field} must be ${expected}, got ${describeValue(got)}`, options);
  }
}

/**
 * Thrown when `Orkeon:Tools:GitHub:TokenVariable` (or the variable `Orkeon__Tools__GitHub__TokenVariable`) is not a
 * variable name, or looks like a token pasted into it. The message gives the value's length and what is wrong with
 * it, never the value: a value in the wrong setting may well be the token itself.
 */
export class GitHubTokenSettingInvalidError extends OrkeonCrewError {
  override readonly name = "GitHubTokenSettingInvalidError";
  readonly code = "ERR_GITHUB_TOKEN_SETTING_INVALID";
  constructor(setting: string, length: number, problem: string) {
    super(
      `${setting} must name an environment variable (letters, digits and _, not starting with a digit), got a value of ${length} chars ${problem}`,
    );
  }
}

/**
 * Thrown when a token cannot be masked: a value made of asterisks alone would show through the `***` mask. Such a
 * value is a masked placeholder copied back into a setting, never a token. The message never quotes the value.
 */
export class UnmaskableTokenError extends OrkeonCrewError {
  override readonly name = "UnmaskableTokenError";
  readonly code = "ERR_TOKEN_UNMASKABLE";
  constructor(source: string) {
    super(`The token from ${source} is made of asterisks alone: expected a token, got a masked placeholder`);
  }
}

/**
 * Thrown when the runtime's settings cannot be read as its configuration would read them: a settings file whose root
 * is not an object or that holds a key twice (letter case aside), a setting that is neither a string nor null, or
 * one key set by several variables with different values. The message names keys and variables, never values.
 */
export class SettingsInvalidError extends OrkeonCrewError {
  override readonly name = "SettingsInvalidError";
  readonly code = "ERR_SETTINGS_INVALID";
  constructor(detail: string, options?: ErrorOptions) {
    super(detail, options);
  }
}

/** Thrown when an option of this package is outside its allowed range. */
export class OrkeonCrewOptionError extends OrkeonCrewError {
  override readonly name = "OrkeonCrewOptionError";
  readonly code = "ERR_ORKEON_CREW_INVALID_OPTION";
  constructor(option: string, expected: string, got: unknown) {
    super(`Invalid option ${option}: expected ${expected}, got ${describeValue(got)}`);
  }
}

/**
 * Thrown by the in-memory fakes when a test drives them outside the runtime's contract: an unknown crew,
 * `runCrewAsync` outside a completed hook, more launches than the bound (a runaway chain), or an act past the script.
 */
export class FakeMisuseError extends OrkeonCrewError {
  override readonly name = "FakeMisuseError";
  readonly code = "ERR_FAKE_MISUSE";
  constructor(fake: string, detail: string) {
    super(`${fake}: ${detail}`);
  }
}
