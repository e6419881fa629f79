import type { CrewLaunch } from "../chain/crew-host.js";
import { DEFAULT_MAX_PLAN_BATCHES, DEFAULT_SESSION_READ_TIMEOUT_MS } from "../limits.js";
import { modeEntryOf, ORKEON_MODES, type ModeTable } from "../modes.js";
import { noMask, resolveInteger, type Mask } from "../options.js";
import type { CrewLaunchOptions } from "../runtime.js";
import { MAX_TIMER_MS, crewSystemTimers, within, type Timers } from "../timers.js";
import { outgoing, reasonOf } from "../outgoing.js";
import { parseSessionContextRead, type SessionContextPort, type SessionContextRead } from "./context.js";
import { DEV_BATCHES_CREW, DEV_IMPLEMENT_CREW, parseHopInput, type DevCommand, type HopInput } from "./input.js";

/** What {@link nextLaunch} and {@link batchesNextLaunch} need. */
export interface NextLaunchOptions {
  /** Where the session's context is read again before a writing hop. */
  readonly session: SessionContextPort;
  /** Masks every text the decision carries. */
  readonly mask?: Mask;
  /** How long the session read may take before the hop goes on without it; default `DEFAULT_SESSION_READ_TIMEOUT_MS`. */
  readonly readTimeoutMs?: number;
  /** The timers the read's timeout runs on; default the real ones. */
  readonly timers?: Timers;
  /**
   * The modes that refuse a writing hop, by what they promise; default `ORKEON_MODES`. Any mode the table does not
   * hold launches: pass your runtime's table when its wave-asking mode has another name.
   */
  readonly modes?: ModeTable;
}

/** A launch whose input is a hop input. */
export interface HopLaunch extends CrewLaunch {
  readonly input: HopInput;
}

/** What follows a finished hop. */
export type HopDecision =
  /** Launch the next hop; `notice` says when it goes on with the record's context because the read failed. */
  | { readonly kind: "launch"; readonly launch: HopLaunch; readonly notice?: string }
  /** The session's mode forbids the next (writing) hop; `message` names /mode and the command to type. */
  | { readonly kind: "refused"; readonly hop: HopInput; readonly mode: string; readonly message: string }
  /** The chain is over. */
  | { readonly kind: "done" };

/**
 * /dev-implement's next hop. Its chain climbs (no `chain: "continue"`), so a chain started by hand still meets the
 * operator's `MaxChainDepth`: implement, then the audit (reads only), then the close, which writes and so reads the
 * session again first.
 */
export async function nextLaunch(finished: HopInput, options: NextLaunchOptions): Promise<HopDecision> {
  const checked = parseHopInput("dev-implement", finished);
  const plan = { command: "dev-implement", crew: DEV_IMPLEMENT_CREW, launchOptions: undefined } as const;
  switch (checked.hop) {
    case "implement":
      return launch(plan, { run: checked.run, hop: "audit" }, undefined);
    case "audit":
      return writingHop(plan, { run: checked.run, hop: "close" }, options, false);
    default:
      return { kind: "done" };
  }
}

/**
 * /dev-batches' next hop, every one relaunched with `chain: "continue"` so a plan of any length closes in one
 * command: each batch in turn, then the audit (reads only), then the close. Each batch and the close read the
 * session again first; the close keeps `githubTool: false` whatever the session offers.
 */
export async function batchesNextLaunch(
  finished: HopInput,
  options: NextLaunchOptions & { readonly maxBatches?: number },
): Promise<HopDecision> {
  const maxBatches = resolveInteger("maxBatches", options.maxBatches, DEFAULT_MAX_PLAN_BATCHES, 1);
  const checked = parseHopInput("dev-batches", finished, maxBatches);
  const plan = { command: "dev-batches", crew: DEV_BATCHES_CREW, launchOptions: { chain: "continue" } } as const;
  const { run } = checked;
  const batches = checked.batches ?? 1;
  const batch = checked.batch ?? batches;
  switch (checked.hop) {
    case "batch":
      return batch < batches
        ? writingHop(plan, { run, hop: "batch", batch: batch + 1, batches }, options, false)
        : launch(plan, { run, hop: "audit", batches }, undefined);
    case "audit":
      return writingHop(plan, { run, hop: "close", batches }, options, true);
    default:
      return { kind: "done" };
  }
}

interface ChainPlan {
  readonly command: DevCommand;
  readonly crew: string;
  readonly launchOptions: CrewLaunchOptions | undefined;
}

function launch(plan: ChainPlan, input: HopInput, notice: string | undefined): HopDecision {
  const next: HopLaunch =
    plan.launchOptions === undefined
      ? { crew: plan.crew, input }
      : { crew: plan.crew, input, options: plan.launchOptions };
  return notice === undefined ? { kind: "launch", launch: next } : { kind: "launch", launch: next, notice };
}

/** Reads the session again before a hop that writes: refuse it, carry the fresh context, or go on with the record's. */
async function writingHop(
  plan: ChainPlan,
  hop: HopInput,
  options: NextLaunchOptions,
  closeOfBatches: boolean,
): Promise<HopDecision> {
  const mask = options.mask ?? noMask;
  const timeoutMs = resolveInteger(
    "readTimeoutMs",
    options.readTimeoutMs,
    DEFAULT_SESSION_READ_TIMEOUT_MS,
    1,
    MAX_TIMER_MS,
  );
  // The record's context is a fallback, never a refusal: the hop launches as the crew named it, saying why.
  const withRecord = (reason: string): HopDecision => {
    const notice =
      `/${plan.command}: the session context was not read again (${reason}); ` +
      `${hopLabel(hop)} goes on with the context recorded when the run started.`;
    return launch(plan, hop, outgoing(notice, mask));
  };
  const answer = await within(
    () => options.session.readPullRequestContext(),
    timeoutMs,
    options.timers ?? crewSystemTimers,
  );
  if (answer.kind === "timed-out") return withRecord(`the read did not answer within ${timeoutMs} ms`);
  let read: SessionContextRead;
  try {
    if (answer.kind === "rejected") throw answer.error;
    read = parseSessionContextRead(answer.value);
  } catch (error) {
    return withRecord(`the read failed: ${reasonOf(error, mask)}`);
  }
  if (read.mode === undefined) return withRecord("the read answered no mode");
  const why = refusalReason(read.mode, options.modes ?? ORKEON_MODES);
  if (why !== undefined) {
    const message =
      `/${plan.command} did not launch ${hopLabel(hop)}: the session is in ${read.mode} mode, ${why}. ` +
      `Switch to a writing mode with /mode (e.g. /mode default), then type /${plan.command} to go on.`;
    return { kind: "refused", hop, mode: outgoing(read.mode, mask), message: outgoing(message, mask) };
  }
  const githubTool = closeOfBatches ? false : read.githubTool;
  return launch(plan, { ...hop, context: { mode: read.mode, rules: read.rules, githubTool } }, undefined);
}

/**
 * Why a mode forbids an unattended writing hop, or undefined when it allows one. Only a mode the table says is
 * read-only or asks before a parallel wave refuses; any other mode, one this package never heard of included,
 * launches, as the ADR has every mode but those.
 */
function refusalReason(mode: string, modes: ModeTable): string | undefined {
  const entry = modeEntryOf(mode, modes);
  const traits = entry === undefined ? undefined : modes[entry];
  if (traits?.readOnly === true) return "a read-only mode";
  if (traits?.asksBeforeWave === true) return "which asks before each parallel wave";
  return undefined;
}

/** How a hop is named in a line: "the close", "batch 3 of 5". */
export function hopLabel(hop: HopInput): string {
  if (hop.hop === "batch") return `batch ${hop.batch ?? "?"} of ${hop.batches ?? "?"}`;
  return hop.hop === "implement" ? "the implementation" : `the ${hop.hop}`;
}
