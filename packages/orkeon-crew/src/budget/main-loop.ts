import { DEFAULT_MAX_STOP_CHECK_RETRIES } from "../limits.js";
import { noMask, resolveInteger, type Mask } from "../options.js";
import { outgoing } from "../outgoing.js";
import type { ActRequest } from "../runtime.js";
import type { Llm } from "./llm.js";
import { isBudgetExhaustedAnswer } from "./spent.js";

/** The line printed above a wrap-up, saying the turn stopped on its budget. */
export const BUDGET_STOP_LINE = "The turn stopped on its token budget; its wrap-up follows.";

/** What the main loop's turn needs: the Llm port and where answers go. */
export interface MainLoopTurnOptions {
  readonly llm: Llm;
  /** Shows text to the operator. */
  readonly print: (text: string) => void;
  /** Keeps the turn's answer in the conversation. */
  readonly store: (answer: string) => void;
  /**
   * Looks at a finished answer and returns a follow-up request when the turn stopped too early, or undefined when it
   * is done. Never consulted after a spent budget: a retry would meet the same spent budget.
   */
  readonly stopCheck?: (answer: string) => ActRequest | undefined | Promise<ActRequest | undefined>;
  /** Most stop-check retries; default {@link DEFAULT_MAX_STOP_CHECK_RETRIES}. */
  readonly maxStopCheckRetries?: number;
  /** Masks every printed and stored text (see `createTokenMasker`). */
  readonly mask?: Mask;
}

/** How a main-loop turn ended. */
export interface MainLoopTurn {
  /** The answer stored: the last finished answer, or the wrap-up of a spent budget. */
  readonly answer: string;
  /** True when the turn ended on a spent token budget with a wrap-up. */
  readonly stoppedOnBudget: boolean;
  /** How many acts the turn made. */
  readonly acts: number;
}

/**
 * One turn of the main loop, the one reader of a wrap-up. A finished answer is printed, then the stop check may ask
 * for a retry; the last answer is stored. A BudgetExhaustedAnswer (from any copy of this package) prints {@link BUDGET_STOP_LINE} and the
 * wrap-up under it, stores the wrap-up alone and makes no stop-check retry. Any other rejection propagates.
 */
export async function runMainLoopTurn(request: ActRequest, options: MainLoopTurnOptions): Promise<MainLoopTurn> {
  const maxRetries = resolveInteger(
    "maxStopCheckRetries",
    options.maxStopCheckRetries,
    DEFAULT_MAX_STOP_CHECK_RETRIES,
    0,
  );
  const mask = options.mask ?? noMask;
  const print = (text: string): void => options.print(outgoing(text, mask));
  let current = request;
  for (let acts = 1; ; acts++) {
    let text: string;
    try {
      ({ text } = await options.llm.act(current));
    } catch (error) {
      if (!isBudgetExhaustedAnswer(error)) throw error;
      print(BUDGET_STOP_LINE);
      print(error.answer);
      const answer = outgoing(error.answer, mask);
      options.store(answer);
      return { answer, stoppedOnBudget: true, acts };
    }
    const answer = outgoing(text, mask);
    print(text);
    const retry = acts <= maxRetries ? await options.stopCheck?.(text) : undefined;
    if (retry === undefined) {
      options.store(answer);
      return { answer, stoppedOnBudget: false, acts };
    }
    current = retry;
  }
}
