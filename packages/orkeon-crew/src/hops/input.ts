import * as z from "zod";
import { ownObject, parseAtBoundary } from "../boundary.js";
import { HopInputInvalidError } from "../errors.js";
import { DEFAULT_MAX_PLAN_BATCHES, MAX_RUN_ID_LENGTH } from "../limits.js";
import { pullRequestContextSchema, type PullRequestContext } from "./context.js";

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

const RUN = `a string of 1 to ${MAX_RUN_ID_LENGTH} chars`;
const runSchema = z.string({ error: RUN }).min(1, { error: RUN }).max(MAX_RUN_ID_LENGTH, { error: RUN });

function count(max: number) {
  const expected = `an integer from 1 to ${max}`;
  return z
    .number({ error: expected })
    .int({ error: expected })
    .min(1, { error: expected })
    .max(max, { error: expected });
}

const IMPLEMENT_HOPS = ["implement", "audit", "close"] as const;
const BATCHES_HOPS = ["batch", "audit", "close"] as const;

/**
 * The contract of a command's hop inputs, which its crew parses its launch input with. /dev-implement:
 * `{ run, hop, context? }`. /dev-batches: `{ run, hop, batches, batch?, context? }`, a plan of 1 to `maxBatches`
 * batches and, on a batch hop, the batch's number within the plan.
 */
export function hopInputSchema(command: DevCommand, maxBatches = DEFAULT_MAX_PLAN_BATCHES): z.ZodType<HopInput> {
  const context = pullRequestContextSchema.optional();
  if (command === "dev-implement") {
    return ownObject(
      { run: runSchema, hop: z.enum(IMPLEMENT_HOPS, { error: `one of ${IMPLEMENT_HOPS.join(", ")}` }), context },
      "an object",
    );
  }
  return ownObject(
    {
      run: runSchema,
      hop: z.enum(BATCHES_HOPS, { error: `one of ${BATCHES_HOPS.join(", ")}` }),
      batches: count(maxBatches),
      batch: z.unknown().optional(),
      context,
    },
    "an object",
  )
    .superRefine((input, ctx) => {
      if (input.hop !== "batch") return;
      const batch = count(input.batches).safeParse(input.batch);
      if (!batch.success)
        ctx.addIssue({ code: "custom", path: ["batch"], message: batch.error.issues[0]?.message ?? "" });
    })
    .transform(({ run, hop, batch, batches, context: fresh }): HopInput => ({
      run,
      hop,
      ...(hop === "batch" ? { batch: batch as number } : {}),
      batches,
      ...(fresh === undefined ? {} : { context: fresh }),
    }));
}

/** /dev-implement's hop-input contract (see {@link hopInputSchema}). */
export const devImplementHopInputSchema: z.ZodType<HopInput> = hopInputSchema("dev-implement");

/** /dev-batches' hop-input contract with the default bound on a plan, `DEFAULT_MAX_PLAN_BATCHES` (see {@link hopInputSchema}). */
export const devBatchesHopInputSchema: z.ZodType<HopInput> = hopInputSchema("dev-batches");

/**
 * Reads a completed instance's input as a hop input of `command`, at the runtime boundary. The finished hop's
 * context is dropped: the next writing hop reads the session again. Throws HopInputInvalidError.
 */
export function parseHopInput(command: DevCommand, value: unknown, maxBatches = DEFAULT_MAX_PLAN_BATCHES): HopInput {
  const schema =
    command === "dev-implement"
      ? devImplementHopInputSchema
      : maxBatches === DEFAULT_MAX_PLAN_BATCHES
        ? devBatchesHopInputSchema
        : hopInputSchema(command, maxBatches);
  const parsed = parseAtBoundary(schema, value, "the input");
  if (!parsed.ok) {
    const { field, expected, got, cause } = parsed.failure;
    throw new HopInputInvalidError(command, field, expected, got, { cause });
  }
  const { context: _finishedHops, ...next } = parsed.data;
  return next;
}
