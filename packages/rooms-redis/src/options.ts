import { RoomsOptionError } from "@orphus/rooms";

/** Returns `value ?? fallback` after checking it is a positive safe integer; throws RoomsOptionError. */
export function positiveInteger(option: string, value: number | undefined, fallback: number): number {
  const resolved = value ?? fallback;
  if (!Number.isSafeInteger(resolved) || resolved < 1) {
    throw new RoomsOptionError(option, "a positive integer", resolved);
  }
  return resolved;
}
