/**
 * @orphus/bounds — bounding what subagent fan-out and chain steps hand back. A bound relocates content, it never
 * deletes it: full outputs go to artifact files, and the bounded text points at them.
 *
 * ```ts
 * import { boundFanOut, expandChainTemplate, openArtifactRun, recordChainStep } from "@orphus/bounds";
 *
 * const artifacts = await openArtifactRun({ dir: "/home/me/.orphus/agent/artifacts" });
 * const fanOut = await boundFanOut(
 *   [
 *     { name: "scout", outcome: "ok", output: hugeReport },
 *     { name: "tester", outcome: "failed", output: log, error: "npm test exited 1" },
 *   ],
 *   { artifacts },
 * );
 * fanOut.text; // the failed tester first, then scout; each stub names the child, its outcome and its file
 *
 * const plan = await recordChainStep(artifacts, "plan", planOutput);
 * expandChainTemplate("Review this plan:\n{previous}", [plan]); // 2000 chars at most, plus a line with the path
 * ```
 *
 * A parallel fan-out is rendered through @orphus/digest (pinned stubs, failures first); a chain splice and a single
 * subagent's return keep head and tail within a budget. With artifacts off (`artifacts: null`) there is nowhere to
 * point, so nothing is bounded: only the 200 KB truncation backstop applies. Every text handed back passes
 * @orphus/digest's sanitiser (the artifacts keep the raw bytes), names in stubs are escaped rather than stripped,
 * and a path or step name that could not be shown as written is refused.
 */
export { boundFanOut, TASK_OUTCOMES } from "./fanout.js";
export { displayName } from "./stub.js";
export { boundSubagentReturn } from "./single.js";
export { expandChainTemplate, recordChainStep } from "./chain.js";
export { openArtifactRun } from "./artifacts.js";
export { truncateWithBackstop } from "./backstop.js";
export {
  DEFAULT_FANOUT_BUDGET,
  DEFAULT_RETURN_BUDGET,
  DEFAULT_SPLICE_CHARS,
  MAX_ARTIFACTS_DIR_LENGTH,
  MAX_ARTIFACTS_PER_RUN,
  MAX_FANOUT_CHILDREN,
  TRUNCATION_BACKSTOP_BYTES,
} from "./limits.js";
export {
  ArtifactWriteError,
  BoundsError,
  BoundsInputError,
  BoundsLimitError,
  BoundsOptionError,
  ChainMalformedPlaceholderError,
  ChainNoPreviousError,
  ChainTemplateError,
  ChainUnknownOutputError,
} from "./errors.js";
export type { ArtifactFs, ArtifactKind, ArtifactRun, ArtifactRunOptions } from "./artifacts.js";
export type { BackstopCut, BackstopOptions, BackstopResult } from "./backstop.js";
export type { ChainStepOutput, ChainStepRecord, ChainTemplateOptions } from "./chain.js";
export type { OutputContent } from "./content.js";
export type { FanOutChild, FanOutOptions, FanOutResult, FanOutTask, TaskOutcome } from "./fanout.js";
export type { SubagentOutput, SubagentReturn, SubagentReturnOptions } from "./single.js";
