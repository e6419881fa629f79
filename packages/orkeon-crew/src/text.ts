import { MAX_QUOTED_REASON_LENGTH } from "./limits.js";

/** Cuts a text for a message, so a message says what arrived without quoting it whole. */
export function quote(text: string, max = MAX_QUOTED_REASON_LENGTH): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** The message of anything thrown, cut short for a line. */
export function reasonOf(error: unknown): string {
  if (error instanceof Error) return quote(error.message === "" ? error.name : error.message);
  return quote(String(error));
}

/** Describes a value that failed validation: its type, and a cut-short rendering. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === "string") return `the string ${JSON.stringify(quote(value, 40))}`;
  if (typeof value === "object") return "an object";
  return `${typeof value} ${quote(String(value), 40)}`;
}

/** A plain object (not null, not an array), read without trusting its prototype. */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An own property of a record, never one inherited from its prototype. */
export function ownField(record: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
