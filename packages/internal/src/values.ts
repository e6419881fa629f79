// Small readings of values and text that several packages made the same way, each with a copy of its own.

/** A plain object (not null, not an array), as a JSON object or an options bag is read before its fields. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `count` and the noun that agrees with it: `1 room`, `3 rooms`, `2 replies` (with `many` given). */
export function plural(count: number, one: string, many: string = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** True for the first half of a UTF-16 surrogate pair: a cut just after it would split a character. */
export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** True for the second half of a UTF-16 surrogate pair: a cut just before it would split a character. */
export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
