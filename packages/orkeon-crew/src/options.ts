import { OrkeonCrewOptionError } from "./errors.js";

/** Reads an integer option, or its default when absent; throws OrkeonCrewOptionError outside `min`..`max`. */
export function resolveInteger(
  option: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const resolved = value ?? fallback;
  if (!Number.isInteger(resolved) || resolved < min || resolved > max) {
    throw new OrkeonCrewOptionError(option, `an integer from ${min} to ${max}`, resolved);
  }
  return resolved;
}

/** Turns a text into the text a line may show; the identity when no masker is given. */
export type Mask = (text: string) => string;

/** The identity mask, for callers that hold no token. */
export const noMask: Mask = (text) => text;
