import { OrkeonCrewOptionError } from "../errors.js";
import { MAX_CHAIN_REFUSAL_LENGTH, MAX_COMMAND_NAME_LENGTH } from "../limits.js";
import { isRecord } from "@orphus/internal";

/** The runtime's refusal of a climbing launch past `MaxChainDepth`. */
export interface ChainRefusal {
  /** The depth the chain reached. */
  readonly depth: number;
  /** The operator's `MaxChainDepth`. */
  readonly limit: number;
  /** The command that started the chain, without its slash (e.g. `dev-implement`). */
  readonly command: string;
}

// A count as the runtime prints it: no sign, no leading zero, at most 15 digits so it stays a safe integer.
const COUNT = "(0|[1-9][0-9]{0,14})";
const COMMAND = `([A-Za-z0-9][A-Za-z0-9._:-]{0,${MAX_COMMAND_NAME_LENGTH - 1}})`;
const REFUSAL = new RegExp(`^chain depth ${COUNT} reached \\(MaxChainDepth ${COUNT}, /${COMMAND}\\)$`);
const COMMAND_ONLY = new RegExp(`^${COMMAND}$`);

/**
 * Parses the chain refusal in its wording since #221, `chain depth <d> reached (MaxChainDepth <l>, /<command>)`,
 * matched whole. Anything else, the former wording included, is not a chain refusal: undefined.
 */
export function parseChainRefusal(text: string): ChainRefusal | undefined {
  if (text.length > MAX_CHAIN_REFUSAL_LENGTH) return undefined;
  const match = REFUSAL.exec(text);
  if (match === null) return undefined;
  const [, depth, limit, command] = match;
  if (depth === undefined || limit === undefined || command === undefined) return undefined;
  return { depth: Number(depth), limit: Number(limit), command };
}

/** The chain refusal a rejection carries in its message (or as a bare string), or undefined. */
export function chainRefusalOf(error: unknown): ChainRefusal | undefined {
  if (typeof error === "string") return parseChainRefusal(error);
  if (!isRecord(error)) return undefined;
  const message = error["message"];
  return typeof message === "string" ? parseChainRefusal(message) : undefined;
}

/** Writes a refusal in the runtime's wording; the inverse of {@link parseChainRefusal}. */
export function formatChainRefusal(refusal: ChainRefusal): string {
  for (const field of ["depth", "limit"] as const) {
    const value = refusal[field];
    if (!Number.isSafeInteger(value) || value < 0 || value > 999_999_999_999_999) {
      throw new OrkeonCrewOptionError(`refusal.${field}`, "an integer from 0 to 999999999999999", value);
    }
  }
  if (!COMMAND_ONLY.test(refusal.command)) {
    throw new OrkeonCrewOptionError(
      "refusal.command",
      `a command name without its slash (letters, digits, . _ : -; at most ${MAX_COMMAND_NAME_LENGTH})`,
      refusal.command,
    );
  }
  return `chain depth ${refusal.depth} reached (MaxChainDepth ${refusal.limit}, /${refusal.command})`;
}

/** The line shown when a hop's launch met the chain's ceiling: the command it names, and what to do. */
export function describeChainRefusal(refusal: ChainRefusal): string {
  return (
    `The chain of /${refusal.command} stopped: depth ${refusal.depth} reached MaxChainDepth ${refusal.limit}. ` +
    `Type the next step by hand, or raise MaxChainDepth.`
  );
}
