import type { CrewLaunchOptions, OrkeonCrewRuntime } from "../runtime.js";
import { chainRefusalOf, type ChainRefusal } from "./refusal.js";

/** One launch of a crew: its name, its input and the launch options. */
export interface CrewLaunch {
  readonly crew: string;
  readonly input: unknown;
  readonly options?: CrewLaunchOptions;
}

/** The port through which the commands launch crews; `chain: "continue"` keeps the completing instance's depth. */
export interface CrewHost {
  launch(crew: string, input: unknown, options?: CrewLaunchOptions): Promise<void>;
}

/**
 * The CrewHost adapter over the runtime's `runCrewAsync`. It hands `{ chain: "continue" }` on when asked and calls
 * with two arguments otherwise, so a climbing launch reaches the runtime exactly as it did before #221.
 */
export function createCrewHostAdapter(runtime: OrkeonCrewRuntime): CrewHost {
  return {
    async launch(crew: string, input: unknown, options?: CrewLaunchOptions): Promise<void> {
      if (options?.chain === "continue") await runtime.runCrewAsync(crew, input, { chain: "continue" });
      else await runtime.runCrewAsync(crew, input);
    },
  };
}

/** How {@link launchCrew} ended: launched, or refused at the chain's ceiling. */
export type LaunchOutcome =
  { readonly kind: "launched" } | { readonly kind: "chain-refused"; readonly refusal: ChainRefusal };

/**
 * Launches one crew through a CrewHost, carrying its launch options. A rejection in the chain refusal's wording comes
 * back as `chain-refused` with the depth, limit and command; any other rejection propagates.
 */
export async function launchCrew(host: CrewHost, launch: CrewLaunch): Promise<LaunchOutcome> {
  try {
    await host.launch(launch.crew, launch.input, launch.options);
    return { kind: "launched" };
  } catch (error) {
    const refusal = chainRefusalOf(error);
    if (refusal === undefined) throw error;
    return { kind: "chain-refused", refusal };
  }
}
