import { brandErrorClass, PREVIEW_CHARS, previewValue } from "@orphus/internal";

/** Base class of every bounds failure; `code` is stable across releases. */
export abstract class BoundsError extends Error {
  abstract readonly code: string;
  static {
    brandErrorClass(this);
  }
}

/** An input to a bound (a child, a step, a name, a template) is not of the documented form. */
export class BoundsInputError extends BoundsError {
  override readonly name = "BoundsInputError";
  readonly code = "ERR_BOUNDS_INVALID_INPUT";
  constructor(
    readonly field: string,
    expected: string,
    got: unknown,
  ) {
    super(`Invalid bounds input ${field}: expected ${expected}, got ${previewValue(got)}`);
  }
}

/** An option is outside its allowed range: a budget, a byte limit, the artifacts directory. */
export class BoundsOptionError extends BoundsError {
  override readonly name = "BoundsOptionError";
  readonly code = "ERR_BOUNDS_INVALID_OPTION";
  constructor(
    readonly option: string,
    expected: string,
    got: unknown,
  ) {
    super(`Invalid bounds option ${option}: expected ${expected}, got ${previewValue(got)}`);
  }
}

/** A fan-out has more children than MAX_FANOUT_CHILDREN, or a run would write more than MAX_ARTIFACTS_PER_RUN files. */
export class BoundsLimitError extends BoundsError {
  override readonly name = "BoundsLimitError";
  readonly code = "ERR_BOUNDS_LIMIT_EXCEEDED";
  constructor(
    readonly limit: "children" | "artifacts",
    readonly max: number,
    readonly got: number,
  ) {
    super(
      limit === "children"
        ? `Fan-out of ${got} children is above the maximum of ${max} (MAX_FANOUT_CHILDREN)`
        : `Artifact number ${got} of this run is above the maximum of ${max} (MAX_ARTIFACTS_PER_RUN); open a new run`,
    );
  }
}

/** The file system refused the artifacts directory, a temporary file, or the rename that publishes it. */
export class ArtifactWriteError extends BoundsError {
  override readonly name = "ArtifactWriteError";
  readonly code = "ERR_ARTIFACT_WRITE_FAILED";
  constructor(
    readonly path: string,
    readonly step: "create-run" | "write",
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : previewValue(cause);
    super(
      `Cannot ${step === "create-run" ? "create an artifacts run directory under" : "write the artifact"} ` +
        `${path}: ${reason.slice(0, 200)}`,
      { cause },
    );
  }
}

/** The known outputs, as error messages list them. */
function knownList(known: readonly string[]): string {
  if (known.length === 0) return "no step has produced output yet";
  const shown = known.slice(0, 20).map((name) => JSON.stringify(name.slice(0, PREVIEW_CHARS)));
  const more = known.length > shown.length ? ` and ${known.length - shown.length} more` : "";
  return `known outputs: ${shown.join(", ")}${more}`;
}

/** Base class of a chain template failure: each names the placeholder and the outputs it could have used. */
export abstract class ChainTemplateError extends BoundsError {
  constructor(
    readonly placeholder: string,
    readonly known: readonly string[],
    problem: string,
  ) {
    super(`${problem} ${previewValue(placeholder)}: ${knownList(known)}`);
  }
}

/** A chain template has `{previous…` or `{outputs…` that is not one of the four placeholder forms. */
export class ChainMalformedPlaceholderError extends ChainTemplateError {
  override readonly name = "ChainMalformedPlaceholderError";
  readonly code = "ERR_CHAIN_MALFORMED_PLACEHOLDER";
  constructor(placeholder: string, known: readonly string[]) {
    super(
      placeholder,
      known,
      "Malformed chain placeholder (expected {previous}, {previous.full}, {outputs.<name>} or " +
        '{outputs.<name>.full}, <name> of letters, digits, "_" and "-")',
    );
  }
}

/** A chain template names an output that no earlier step produced. */
export class ChainUnknownOutputError extends ChainTemplateError {
  override readonly name = "ChainUnknownOutputError";
  readonly code = "ERR_CHAIN_UNKNOWN_OUTPUT";
  constructor(placeholder: string, known: readonly string[]) {
    super(placeholder, known, "Unknown output in chain placeholder");
  }
}

/** A chain template uses `{previous}` in the first step, where there is no previous output. */
export class ChainNoPreviousError extends ChainTemplateError {
  override readonly name = "ChainNoPreviousError";
  readonly code = "ERR_CHAIN_NO_PREVIOUS";
  constructor(placeholder: string) {
    super(placeholder, [], "No previous step for chain placeholder");
  }
}
