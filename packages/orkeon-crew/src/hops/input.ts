import { HopInputInvalidError } from "../errors.js";
import { DEFAULT_MAX_PLAN_BATCHES, MAX_RUN_ID_LENGTH } from "../limits.js";
import { isRecord, ownField } from "../text.js";
import type { PullRequestContext } from "./context.js";

/** The commands whose chains this package drives, without their slash; each runs a crew of the same name. */
export type DevCommand = "dev-implement" | "dev-batches";

/** The crew /dev-implement launches for each of its hops. */
export const DEV_IMPLEMENT_CREW = "dev-implement";

/** The crew /dev-batches launches for each of its hops. */
export const DEV_BATCHES_CREW = "dev-batches";

/** A hop of a chain: /dev-implement runs implement, audit, close; /dev-batches runs each batch, audit, close. */
export type HopName = "implement" | "batch" | "audit" | "close";

/** The launch input of every hop; the crew finds its record by `run`. */
export interface HopInput {
  /** The run's id, shared by every hop of one typed command. */
  readonly run: string;
  readonly hop: HopName;
  /** /dev-batches batch hops: which batch, from 1. */
  readonly batch?: number;
  /** /dev-batches: how many batches the plan holds. */
  readonly batches?: number;
  /** The session context read again before a writing hop; absent when the crew should use its record's. */
  readonly context?: PullRequestContext;
}

const HOPS: Readonly<Record<DevCommand, readonly HopName[]>> = {
  "dev-implement": ["implement", "audit", "close"],
  "dev-batches": ["batch", "audit", "close"],
};

/**
 * Reads a completed instance's input as a hop input of `command`, at the runtime boundary. The finished hop's
 * context is dropped: the next writing hop reads the session again. Throws HopInputInvalidError.
 */
export function parseHopInput(command: DevCommand, value: unknown, maxBatches = DEFAULT_MAX_PLAN_BATCHES): HopInput {
  if (!isRecord(value)) throw new HopInputInvalidError(command, "the input", "an object", value);
  const run = ownField(value, "run");
  if (typeof run !== "string" || run === "" || run.length > MAX_RUN_ID_LENGTH) {
    throw new HopInputInvalidError(command, "run", `a string of 1 to ${MAX_RUN_ID_LENGTH} chars`, run);
  }
  const hop = ownField(value, "hop");
  const hops = HOPS[command];
  if (typeof hop !== "string" || !(hops as readonly string[]).includes(hop)) {
    throw new HopInputInvalidError(command, "hop", `one of ${hops.join(", ")}`, hop);
  }
  if (command === "dev-implement") return { run, hop: hop as HopName };
  const batches = countField(command, value, "batches", 1, maxBatches);
  if (hop !== "batch") return { run, hop: hop as HopName, batches };
  return { run, hop: "batch", batch: countField(command, value, "batch", 1, batches), batches };
}

function countField(
  command: DevCommand,
  value: Readonly<Record<string, unknown>>,
  field: string,
  min: number,
  max: number,
): number {
  const count = ownField(value, field);
  if (typeof count !== "number" || !Number.isInteger(count) || count < min || count > max) {
    throw new HopInputInvalidError(command, field, `an integer from ${min} to ${max}`, count);
  }
  return count;
}
