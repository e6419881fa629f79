// What bounds put on one line: paths, as written. A stub, a pointer line and the backstop's cut line each hold a
// path that the reader (a model, or a tool that parses the stub) must get exactly, so a path that the sanitiser
// would change, that would break the line, or that could pass for another field is refused up front.
import { sanitizeText } from "@orphus/digest";

/** The separator of a stub's fields (`ok · name · output: <path> · error: <path>`); no path may hold it. */
export const FIELD_SEPARATOR = " · ";

/**
 * Why `path` cannot be shown whole on one line, or null when it can: it must survive the sanitiser unchanged,
 * hold no tab or line break, no run of two spaces (a pinned line squeezes them), no space at either end, and no
 * field separator.
 */
export function lineUnsafe(path: string): string | null {
  if (sanitizeText(path) !== path || /[\t\n]/.test(path)) return "a control, format or invisible character";
  if (path.includes("  ") || path.startsWith(" ") || path.endsWith(" ")) return "a double, leading or trailing space";
  if (path.includes(FIELD_SEPARATOR)) return `the field separator "${FIELD_SEPARATOR}"`;
  return null;
}

/** The expected form of a path that goes on one line, for error messages. */
export const LINE_SAFE_PATH =
  `a path shown whole on one line (no control, format or invisible character, no double, leading or trailing ` +
  `space, no "${FIELD_SEPARATOR}")`;
