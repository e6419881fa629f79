import { BudgetExhaustedAnswer, EmptyWrapUpError } from "../errors.js";
import { isRecord } from "../text.js";

/** The name the runtime gives the rejection of a spent budget; {@link BudgetExhaustedAnswer} carries it too. */
export const BUDGET_EXHAUSTED_ERROR_NAME = "BudgetExhaustedAnswer";

/**
 * True when `error` says a budget was spent: the runtime's own rejection (read by its name, so an error from another
 * copy of the runtime counts), a {@link BudgetExhaustedAnswer}, or an {@link EmptyWrapUpError}. This is how the
 * callers that must not parse a cut-short answer read a spent budget, before and after #218 alike.
 */
export function isSpentBudget(error: unknown): boolean {
  if (error instanceof BudgetExhaustedAnswer || error instanceof EmptyWrapUpError) return true;
  return isRecord(error) && error["name"] === BUDGET_EXHAUSTED_ERROR_NAME;
}

/** The wrap-up a spent budget left, or undefined when `error` carries none (a failing or empty wrap-up). */
export function wrapUpOf(error: unknown): string | undefined {
  if (error instanceof BudgetExhaustedAnswer) return error.answer;
  if (!isRecord(error) || error["name"] !== BUDGET_EXHAUSTED_ERROR_NAME) return undefined;
  const answer = error["answer"];
  return typeof answer === "string" && answer.trim() !== "" ? answer : undefined;
}
