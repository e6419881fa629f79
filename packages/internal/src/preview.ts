// How an error message shows what arrived. Every package's errors said it their own way (40, 60 or 80 characters,
// "chars" or "characters", JSON of any value, `typeof` or `String()`), so one value read differently from one package
// to the next; this is the one form.

/** Characters of a string an error message quotes before it cuts the string and says how long it was. */
export const PREVIEW_CHARS = 60;

/**
 * A value as an error message shows it, never whole: a string quoted as JSON and, past {@link PREVIEW_CHARS}, cut with
 * its length in characters (`"<its first 60 characters>"… (812 characters)`); a number as it is; anything else by its
 * type ({@link typeName}), since quoting an object could be long, could throw and could carry what a message must not
 * print.
 */
export function previewValue(value: unknown): string {
  if (typeof value === "string") {
    return value.length > PREVIEW_CHARS
      ? `${JSON.stringify(value.slice(0, PREVIEW_CHARS))}… (${value.length} characters)`
      : JSON.stringify(value);
  }
  if (typeof value === "number") return String(value);
  return typeName(value);
}

/**
 * What kind of value arrived, never its contents: `null`, `undefined`, `an array`, `an object`, `a string`,
 * `a number`, `a boolean`, `a bigint`, `a symbol` or `a function`. The one wording for a message that names a
 * value's kind ("expected a JSON object, got an array").
 */
export function typeName(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
