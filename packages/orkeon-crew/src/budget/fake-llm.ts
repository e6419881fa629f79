import { FakeMisuseError } from "../errors.js";
import type { ActRequest, OrkeonActResult, OrkeonLlm } from "../runtime.js";
import { BUDGET_EXHAUSTED_ERROR_NAME } from "./spent.js";

/** One scripted step of {@link FakeLlm}: a result to resolve, or `{ reject }` to reject with that value. */
export type FakeActStep = OrkeonActResult | { readonly reject: unknown };

/**
 * An in-memory `ctx.llm` for tests: each `act` takes the next scripted step, in order, and records its request.
 * Wrap it with `createLlmAdapter` to test code written against the `Llm` port of the main entry.
 */
export class FakeLlm implements OrkeonLlm {
  readonly #steps: FakeActStep[];
  /** Every request `act` received, in order. */
  readonly requests: ActRequest[] = [];

  constructor(steps: Iterable<FakeActStep> = []) {
    this.#steps = [...steps];
  }

  /** Appends steps to the script. */
  push(...steps: FakeActStep[]): this {
    this.#steps.push(...steps);
    return this;
  }

  /** Steps not yet taken. */
  get remaining(): number {
    return this.#steps.length;
  }

  async act(request: ActRequest): Promise<OrkeonActResult> {
    this.requests.push(request);
    const step = this.#steps.shift();
    if (step === undefined) {
      throw new FakeMisuseError("FakeLlm", `act call ${this.requests.length} has no scripted step left`);
    }
    if ("reject" in step) throw step.reject;
    return step;
  }
}

/**
 * The rejection the runtime makes when a spent budget's wrap-up fails or comes back empty: an Error with the
 * runtime's name and the budget's dimension, and no answer. For scripting {@link FakeLlm}.
 */
export function runtimeBudgetRejection(dimension = "tokens"): Error & { readonly dimension: string } {
  const error = new Error(`budget exhausted: ${dimension}`);
  error.name = BUDGET_EXHAUSTED_ERROR_NAME;
  return Object.assign(error, { dimension });
}
