import { escapeIdentity } from "@orphus/digest";
import type { z } from "zod";
import { MAX_LISTED_ARGUMENT_ISSUES, MAX_LISTED_UNKNOWN_ARGUMENTS, MAX_QUOTED_NAME_CHARS } from "./limits.js";
import { nearestName } from "./nearest.js";

/**
 * An argument name quoted for a refusal: escaped as a name is (escapeIdentity), the quotes, brackets, commas and
 * spaces around it too, so `bud\u200bget` shows as `"bud\u{200B}get"` and never passes for `"budget"`.
 */
export function quotedName(name: string): string {
  return `"${name === "" ? "" : escapeIdentity(name, { also: ' "[],', maxLength: MAX_QUOTED_NAME_CHARS })}"`;
}

/**
 * Issues other than unknown arguments of a call of `action` as `path: message`: the message alone for the arguments
 * as a whole, and for the argument that bears the action's name, which the action named before the issues already
 * says (`query: the query is longer than 1000 characters`, never `query: query: …`).
 */
function listIssues(action: string, issues: readonly z.core.$ZodIssue[]): string {
  const listed = issues
    .slice(0, MAX_LISTED_ARGUMENT_ISSUES)
    .map((issue) =>
      issue.path.length === 0 || (issue.path.length === 1 && issue.path[0] === action)
        ? issue.message
        : `${issue.path.map(String).join(".")}: ${issue.message}`,
    );
  if (issues.length > MAX_LISTED_ARGUMENT_ISSUES) listed.push(`and ${issues.length - MAX_LISTED_ARGUMENT_ISSUES} more`);
  return listed.join("; ");
}

/**
 * What is wrong with a call of `action`, in one line: each unknown argument named with the nearest one the action
 * takes (`unknown argument "bugdet" (nearest known: "budget"); digest takes room, budget`), then the other issues as
 * `path: message` (the path left out where it is the action's own name). `known` lists the arguments the action
 * takes, and only those are named.
 */
export function describeArgumentIssues(
  action: string,
  issues: readonly z.core.$ZodIssue[],
  known: readonly string[],
): string {
  const parts: string[] = [];
  const unknown = issues.flatMap((issue) => (issue.code === "unrecognized_keys" ? issue.keys : []));
  for (const name of unknown.slice(0, MAX_LISTED_UNKNOWN_ARGUMENTS)) {
    const nearest = nearestName(name, known);
    parts.push(
      `unknown argument ${quotedName(name)}${nearest === undefined ? "" : ` (nearest known: ${quotedName(nearest)})`}`,
    );
  }
  if (unknown.length > MAX_LISTED_UNKNOWN_ARGUMENTS)
    parts.push(`and ${unknown.length - MAX_LISTED_UNKNOWN_ARGUMENTS} more unknown`);
  if (unknown.length > 0) {
    parts.push(known.length === 0 ? `${action} takes no arguments` : `${action} takes ${known.join(", ")}`);
  }
  const rest = issues.filter((issue) => issue.code !== "unrecognized_keys");
  if (rest.length > 0) parts.push(listIssues(action, rest));
  return parts.join("; ");
}
