import { launchCrew, type CrewHost } from "../chain/crew-host.js";
import { describeChainRefusal } from "../chain/refusal.js";
import { noMask } from "../options.js";
import type { OrkeonCompletedHook } from "../runtime.js";
import { outgoing, reasonOf } from "../outgoing.js";
import { parseHopInput, type DevCommand } from "./input.js";
import { batchesNextLaunch, nextLaunch, type HopDecision, type NextLaunchOptions } from "./next-launch.js";

/** What a chain's completed hook needs: the session read's options, and where to launch and print. */
export interface ChainCompletedOptions extends NextLaunchOptions {
  /** Where the next hop is launched. */
  readonly host: CrewHost;
  /** Shows one line to the operator. */
  readonly print: (line: string) => void;
  /** /dev-batches: the longest plan accepted; default `DEFAULT_MAX_PLAN_BATCHES`. */
  readonly maxBatches?: number;
}

/** The async completed hook of /dev-implement's crew: launches the next hop by {@link nextLaunch}. */
export function devImplementCompleted(options: ChainCompletedOptions): OrkeonCompletedHook {
  return chainCompleted("dev-implement", options, (input) =>
    nextLaunch(parseHopInput("dev-implement", input), options),
  );
}

/** The async completed hook of /dev-batches' crew: launches the next hop by {@link batchesNextLaunch}. */
export function devBatchesCompleted(options: ChainCompletedOptions): OrkeonCompletedHook {
  return chainCompleted("dev-batches", options, (input) =>
    batchesNextLaunch(parseHopInput("dev-batches", input, options.maxBatches), options),
  );
}

/**
 * A completed hook caught whole: whatever fails (a malformed input, a failed read, a failed launch) prints one
 * line, so the host never prints `Error in completed(...)` for it and the hook never rejects.
 */
function chainCompleted(
  command: DevCommand,
  options: ChainCompletedOptions,
  decide: (input: unknown) => Promise<HopDecision>,
): OrkeonCompletedHook {
  const mask = options.mask ?? noMask;
  const print = (line: string): void => {
    try {
      options.print(outgoing(line, mask));
    } catch {
      // Nowhere left to report to; the hook must still not reject.
    }
  };
  return async (instance) => {
    try {
      const decision = await decide(instance.input);
      if (decision.kind === "refused") print(decision.message);
      if (decision.kind !== "launch") return;
      if (decision.notice !== undefined) print(decision.notice);
      const outcome = await launchCrew(options.host, decision.launch);
      if (outcome.kind === "chain-refused") print(describeChainRefusal(outcome.refusal));
    } catch (error) {
      print(`/${command}: the next hop was not launched: ${reasonOf(error, mask)}`);
    }
  };
}
