import { escapeIdentity } from "@orphus/digest";
import { SHOWN_VALUE_CHARS } from "./limits.js";
import { showableJson } from "./showable-json.js";

/**
 * A value as a refusal quotes it, cut short: a string quoted and escaped as a name is (escapeIdentity), so an
 * invisible character in an argument shows rather than vanishing into a lookalike of a valid value; anything else
 * as JSON with such characters as `\uXXXX` escapes (showableJson). Past `maxChars`
 * (default {@link SHOWN_VALUE_CHARS}) it is cut and its length said.
 */
export function shownValue(value: unknown, maxChars: number = SHOWN_VALUE_CHARS): string {
  if (typeof value === "string") {
    const shown = `"${escapeIdentity(value, { also: '"', maxLength: maxChars })}"`;
    return value.length > maxChars ? `${shown} (${value.length} characters)` : shown;
  }
  let text: string;
  try {
    text = showableJson(value) ?? String(value);
  } catch {
    text = String(value);
  }
  if (text.length <= maxChars) return text;
  // Never half a surrogate pair (a character outside the BMP, kept whole when its JSON escape was not needed).
  const end = maxChars > 0 && /[\ud800-\udbff]/.test(text.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
  return `${text.slice(0, end)}… (${text.length} characters)`;
}
