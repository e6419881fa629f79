import { MAX_QUOTED_VALUE_LENGTH } from "./limits.js";

/** Stands for a field found only on a value's prototype chain: a field this package refuses to read. */
export const INHERITED: unique symbol = Symbol("a field inherited from a prototype");

/**
 * Describes a value that failed validation, for an error message. A short string is quoted whole, and a longer one
 * (or one that JSON would escape) is described by its length alone, never cut: a message is masked later, where a
 * masker is at hand, and a masker can only hide a token it sees whole (see `outgoing`).
 */
export function describeValue(value: unknown): string {
  if (value === INHERITED) return "one inherited from its prototype";
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === "string") {
    const quoted = JSON.stringify(value);
    return value.length <= MAX_QUOTED_VALUE_LENGTH && quoted === `"${value}"`
      ? `the string ${quoted}`
      : `a string of ${value.length} chars`;
  }
  if (typeof value === "number" || typeof value === "boolean") return `${typeof value} ${String(value)}`;
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** An own property of a record, never one inherited from its prototype. */
export function ownField(record: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Upper-cases the ASCII letters a to z alone. Unicode rules would turn `ſ` into `S` and `ı` into `I`, so a text no
 * ASCII reader accepts (`optionſ`) would pass for one it does (`OPTIONS`).
 */
export function asciiUpperCase(text: string): string {
  return text.replace(/[a-z]+/g, (letters) => letters.toUpperCase());
}

/** Equal when ASCII letter case is ignored, as .NET's OrdinalIgnoreCase compares ASCII text; nothing else is folded. */
export function sameIgnoringAsciiCase(a: string, b: string): boolean {
  return a.length === b.length && asciiUpperCase(a) === asciiUpperCase(b);
}
