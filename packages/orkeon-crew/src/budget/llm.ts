import { ActResultInvalidError, BudgetExhaustedAnswer, EmptyWrapUpError } from "../errors.js";
import type { ActRequest, OrkeonLlm } from "../runtime.js";
import { describeValue, isInherited, isRecord, ownField } from "../text.js";

/** A finished answer: the only thing the port's `act` resolves to. */
export interface FinishedAnswer {
  readonly text: string;
}

/**
 * The Llm port the crews call. `act` resolves to a finished answer alone; a spent budget rejects (with a
 * {@link BudgetExhaustedAnswer} when the runtime made a wrap-up), so no caller has to tell a cut-short answer apart.
 */
export interface Llm {
  act(request: ActRequest): Promise<FinishedAnswer>;
}

/**
 * The Llm adapter over `ctx.llm`. A result flagged `budgetExhausted` is thrown as a {@link BudgetExhaustedAnswer}
 * carrying the wrap-up; a blank wrap-up as an {@link EmptyWrapUpError}; the runtime's own rejections pass through
 * untouched; a result of another shape is an {@link ActResultInvalidError}.
 */
export function createLlmAdapter(llm: OrkeonLlm): Llm {
  return {
    async act(request: ActRequest): Promise<FinishedAnswer> {
      return finishedAnswerOf(await llm.act(request));
    },
  };
}

/** Reads one act result at the runtime boundary: a finished answer, or the thrown form of a spent budget. */
export function finishedAnswerOf(result: unknown): FinishedAnswer {
  if (!isRecord(result)) throw new ActResultInvalidError(`got ${describeValue(result)}`);
  for (const field of ["text", "budgetExhausted"]) {
    if (isInherited(result, field)) {
      throw new ActResultInvalidError(`${field} must be an own property, got one inherited from its prototype`);
    }
  }
  const text = ownField(result, "text");
  const flag = ownField(result, "budgetExhausted");
  if (typeof text !== "string") throw new ActResultInvalidError(`got text as ${describeValue(text)}`);
  // `false` is outside the typings but says the same as a missing flag; anything else is not a result we know.
  if (flag !== undefined && flag !== true && flag !== false) {
    throw new ActResultInvalidError(`got budgetExhausted as ${describeValue(flag)}`);
  }
  if (flag === true) {
    if (text.trim() === "") throw new EmptyWrapUpError(text);
    throw new BudgetExhaustedAnswer(text);
  }
  return { text };
}
