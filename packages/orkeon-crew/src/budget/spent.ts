import { SPENT_BUDGET_BRAND } from "../errors.js";
import { isRecord } from "@orphus/internal";

/** The name the runtime's rejection of a spent budget is read by; {@link BudgetExhaustedAnswer} carries it too. */
export const BUDGET_EXHAUSTED_ERROR_NAME = "BudgetExhaustedAnswer";

/** The spent-budget brand an error carries as its own property, or undefined; never throws. */
function brandOf(error: unknown): unknown {
  try {
    return isRecord(error) && Object.hasOwn(error, SPENT_BUDGET_BRAND)
      ? (error as Readonly<Record<symbol, unknown>>)[SPENT_BUDGET_BRAND]
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True for a {@link BudgetExhaustedAnswer}, made by this copy of the package or any other: it is recognised by its
 * brand (a registered symbol), never by `instanceof` or by its name, and the same way by every reader here.
 */
export function isBudgetExhaustedAnswer(error: unknown): error is Error & { readonly answer: string } {
  return brandOf(error) === "wrap-up" && typeof (error as { readonly answer?: unknown }).answer === "string";
}

/**
 * True when `error` says a budget was spent: a {@link BudgetExhaustedAnswer} or an {@link EmptyWrapUpError} (by their
 * brand, from any copy of this package), or the runtime's own rejection (by its name). This is how the callers that
 * must not parse a cut-short answer read a spent budget, before and after #218 alike.
 */
export function isSpentBudget(error: unknown): boolean {
  if (brandOf(error) !== undefined) return true;
  try {
    return isRecord(error) && error["name"] === BUDGET_EXHAUSTED_ERROR_NAME;
  } catch {
    return false;
  }
}

/**
 * The wrap-up a spent budget left: the answer of a {@link BudgetExhaustedAnswer} (by its brand), or undefined. The
 * runtime's own rejection carries none, and an error that merely borrows the name is no wrap-up.
 */
export function wrapUpOf(error: unknown): string | undefined {
  return isBudgetExhaustedAnswer(error) ? error.answer : undefined;
}
