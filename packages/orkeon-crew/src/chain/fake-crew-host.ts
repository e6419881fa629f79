import type { CrewLaunchOptions } from "../runtime.js";
import type { CrewHost, CrewLaunch } from "./crew-host.js";
import { formatChainRefusal, type ChainRefusal } from "./refusal.js";

type Scripted = { readonly refuse: ChainRefusal } | { readonly fail: unknown };

/**
 * An in-memory CrewHost for tests: records every launch with its options; a launch succeeds unless a refusal or a
 * failure was scripted for it with {@link FakeCrewHost.refuseNext} or {@link FakeCrewHost.failNext}.
 */
export class FakeCrewHost implements CrewHost {
  /** Every launch asked for, in order, refused ones included. */
  readonly launches: CrewLaunch[] = [];
  readonly #script: Scripted[] = [];

  /** The next launch rejects with this chain refusal, in the runtime's wording. */
  refuseNext(refusal: ChainRefusal): this {
    formatChainRefusal(refusal);
    this.#script.push({ refuse: refusal });
    return this;
  }

  /** The next launch rejects with `error`. */
  failNext(error: unknown): this {
    this.#script.push({ fail: error });
    return this;
  }

  async launch(crew: string, input: unknown, options?: CrewLaunchOptions): Promise<void> {
    this.launches.push(options === undefined ? { crew, input } : { crew, input, options });
    const next = this.#script.shift();
    if (next === undefined) return;
    if ("refuse" in next) throw new Error(formatChainRefusal(next.refuse));
    throw next.fail;
  }
}
