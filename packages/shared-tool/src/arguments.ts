// The arguments of a shared tool, checked one way for every tool and host: each action's schema is closed, a null
// member counts as absent, an unknown argument is refused by name with the nearest known one, and anything that is
// not an object of named arguments is refused in one sentence. Two modes: the tool's own (one tool, an `action`
// member chooses what to do) and one tool per action (the MCP server: the action is the tool's, the arguments never
// carry one, and no text names an `action` member).
import type { z } from "zod";
import { describeArgumentIssues, quotedName } from "./issues.js";

/** Each action's schema: a closed object with an `action` literal and the arguments the action takes. */
export type ActionSchemas = Readonly<Record<string, z.ZodObject>>;

/** A valid input of any action of `S`. */
export type ActionInput<S extends ActionSchemas> = { [K in keyof S]: z.output<S[K]> }[keyof S];

/** The outcome of a check: the parsed input, or the problem in one line and the input it was found in. */
export type ArgumentCheck<T> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false;
      /** What is wrong, in one line, naming only the arguments the call's tool has. */
      readonly problem: string;
      /** The input as it was checked (null members dropped), for a refusal to quote. */
      readonly received: unknown;
      readonly cause?: z.ZodError;
    };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `input` without its null members: models often send null for an optional argument they leave out. */
export function withoutNulls(input: unknown): unknown {
  if (!isRecord(input)) return input;
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null));
}

/** The arguments `action` takes besides `action` itself, in schema order: what its refusals may name. */
export function argumentsOf(schema: z.ZodObject): string[] {
  return Object.keys(schema.shape).filter((name) => name !== "action");
}

function parseAction<S extends ActionSchemas>(
  schemas: S,
  action: string,
  input: Record<string, unknown>,
  received: unknown,
): ArgumentCheck<ActionInput<S>> {
  const schema = schemas[action] as z.ZodObject;
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data as ActionInput<S> };
  const detail = describeArgumentIssues(action, parsed.error.issues, argumentsOf(schema));
  return { ok: false, problem: `${action}: ${detail}`, received, cause: parsed.error };
}

/**
 * Checks a call of a tool with an `action` member (one tool for every action). Refuses, each in one line: arguments
 * that are not an object, a missing action (quoting the arguments that came), an action the tool does not have, and
 * whatever the action's schema refuses.
 */
export function checkToolCall<S extends ActionSchemas>(schemas: S, input: unknown): ArgumentCheck<ActionInput<S>> {
  const actions = Object.keys(schemas);
  const cleaned = withoutNulls(input);
  if (!isRecord(cleaned)) {
    return {
      ok: false,
      problem: `the arguments must be a JSON object with an action, one of ${actions.join(", ")}`,
      received: cleaned,
    };
  }
  const action = cleaned["action"];
  // No action at all is its own problem: quoting the absent value would read "got undefined", so the arguments that
  // did come are quoted instead.
  if (action === undefined) {
    return { ok: false, problem: `action is missing; it must be one of ${actions.join(", ")}`, received: cleaned };
  }
  if (typeof action !== "string" || !Object.hasOwn(schemas, action)) {
    return { ok: false, problem: `action must be one of ${actions.join(", ")}`, received: action };
  }
  return parseAction(schemas, action, cleaned, cleaned);
}

/**
 * Checks the arguments of one action given apart from it, as a host with one tool per action receives them: no
 * `action` member (one is refused, since the tool's name chose the action), absent arguments as none, and every
 * refusal naming only the arguments that action takes.
 */
export function checkActionArguments<S extends ActionSchemas>(
  schemas: S,
  action: keyof S & string,
  args: unknown,
): ArgumentCheck<ActionInput<S>> {
  const cleaned = withoutNulls(args ?? {});
  if (!isRecord(cleaned))
    return { ok: false, problem: `${action}: the arguments must be a JSON object`, received: cleaned };
  if (Object.hasOwn(cleaned, "action")) {
    return {
      ok: false,
      problem: `${action}: unknown argument ${quotedName("action")} (this tool runs ${action} already; leave it out)`,
      received: cleaned,
    };
  }
  return parseAction(schemas, action, { ...cleaned, action }, cleaned);
}
