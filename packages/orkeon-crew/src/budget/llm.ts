import * as z from "zod";
import { ownObject, parseAtBoundary } from "../boundary.js";
import { ActResultInvalidError, BudgetExhaustedAnswer, EmptyWrapUpError } from "../errors.js";
import type { ActRequest, OrkeonLlm } from "../runtime.js";
import { describeValue } from "../text.js";

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
 * What `ctx.llm.act` resolves to, read off its own properties: `{ text, budgetExhausted? }`. `budgetExhausted: false`
 * is outside the typings but says the same as a missing flag; a field found only on the prototype is refused.
 */
export const orkeonActResultSchema = ownObject(
  {
    text: z.string({ error: "a string" }),
    budgetExhausted: z.boolean({ error: "true, false or absent" }).optional(),
  },
  "an object { text: string, budgetExhausted?: true }",
);

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
  const parsed = parseAtBoundary(orkeonActResultSchema, result, "the result");
  if (!parsed.ok) {
    const { field, expected, got, cause } = parsed.failure;
    const detail =
      field === "the result" ? `got ${describeValue(got)}` : `${field} must be ${expected}, got ${describeValue(got)}`;
    throw new ActResultInvalidError(detail, { cause });
  }
  const { text, budgetExhausted } = parsed.data;
  if (budgetExhausted === true) {
    if (text.trim() === "") throw new EmptyWrapUpError(text);
    throw new BudgetExhaustedAnswer(text);
  }
  return { text };
}
