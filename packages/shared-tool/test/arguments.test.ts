// The one check of a shared tool's arguments, in both modes, with the refusals pinned literally; the roundtable and
// memory tools' own tests pin what their users read.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import {
  actionArgumentsJsonSchema,
  checkActionArguments,
  checkToolCall,
  nearestName,
  toolJsonSchema,
} from "@orphus/shared-tool";
import { expectShowable, hostileString, HOSTILE_NAMES } from "../../../test-support/hostile-text.js";

const schemas = {
  digest: z.strictObject({ action: z.literal("digest"), room: z.string().min(1), budget: z.number().int().optional() }),
  wait: z.strictObject({
    action: z.literal("wait"),
    room: z.string().optional(),
    timeoutSeconds: z.number().optional(),
  }),
  rooms: z.strictObject({ action: z.literal("rooms") }),
  forget: z
    .strictObject({ action: z.literal("forget"), id: z.number().optional(), source: z.string().optional() })
    .refine((input) => (input.id === undefined) !== (input.source === undefined), {
      error: "give either id or source",
    }),
};

const refused = (check: ReturnType<typeof checkToolCall>): string => (check.ok ? "accepted" : check.problem);

describe("a tool with an action member", () => {
  test("accepts a valid call, null members counting as absent", () => {
    expect(checkToolCall(schemas, { action: "digest", room: "design", budget: null })).toEqual({
      ok: true,
      value: { action: "digest", room: "design" },
    });
  });

  test("refuses each problem in one line", () => {
    expect(refused(checkToolCall(schemas, [1, 2]))).toBe(
      "the arguments must be a JSON object with an action, one of digest, wait, rooms, forget",
    );
    expect(refused(checkToolCall(schemas, "digest"))).toBe(refused(checkToolCall(schemas, [1, 2])));
    expect(checkToolCall(schemas, { action: "shout" })).toMatchObject({
      ok: false,
      problem: "action must be one of digest, wait, rooms, forget",
      received: "shout",
    });
    expect(refused(checkToolCall(schemas, { action: "constructor" }))).toBe(
      "action must be one of digest, wait, rooms, forget",
    );
    // No action at all: said so, and the arguments that did come are what the refusal quotes.
    expect(checkToolCall(schemas, { room: "design" })).toMatchObject({
      ok: false,
      problem: "action is missing; it must be one of digest, wait, rooms, forget",
      received: { room: "design" },
    });
    expect(checkToolCall(schemas, { action: null })).toMatchObject({
      ok: false,
      problem: "action is missing; it must be one of digest, wait, rooms, forget",
      received: {},
    });
    expect(refused(checkToolCall(schemas, { action: "wait", room: "design", timeout: 1 }))).toBe(
      'wait: unknown argument "timeout" (nearest known: "timeoutSeconds"); wait takes room, timeoutSeconds',
    );
    expect(refused(checkToolCall(schemas, { action: "digest", room: "design", bugdet: 500 }))).toBe(
      'digest: unknown argument "bugdet" (nearest known: "budget"); digest takes room, budget',
    );
    expect(refused(checkToolCall(schemas, { action: "rooms", room: "design" }))).toBe(
      'rooms: unknown argument "room"; rooms takes no arguments',
    );
    expect(refused(checkToolCall(schemas, { action: "digest", room: "" }))).toBe(
      "digest: room: Too small: expected string to have >=1 characters",
    );
    expect(refused(checkToolCall(schemas, { action: "forget" }))).toBe("forget: give either id or source");
    // An argument that bears its action's name is not named twice: the action before it says which it is.
    const query = {
      query: z.strictObject({
        action: z.literal("query"),
        query: z.string().max(3, { error: "longer than 3" }),
        limit: z.number().optional(),
      }),
    };
    expect(refused(checkToolCall(query, { action: "query", query: "abcd" }))).toBe("query: longer than 3");
    expect(refused(checkActionArguments(query, "query", { query: "abcd", limit: "2" }))).toBe(
      "query: longer than 3; limit: Invalid input: expected number, received string",
    );
    expect(refused(checkToolCall(schemas, { action: "rooms", a: 1, b: 2, c: 3, d: 4 }))).toBe(
      'rooms: unknown argument "a"; unknown argument "b"; unknown argument "c"; and 1 more unknown; rooms takes no arguments',
    );
  });

  test("an unknown argument is quoted escaped, never a lookalike of a known one", () => {
    expect(refused(checkToolCall(schemas, { action: "digest", room: "x", "bud\u200bget": 1 }))).toBe(
      'digest: unknown argument "bud\\u{200B}get" (nearest known: "budget"); digest takes room, budget',
    );
    for (const [name, shown] of HOSTILE_NAMES) {
      expect(refused(checkToolCall(schemas, { action: "rooms", [name]: 1 }))).toBe(
        `rooms: unknown argument "${shown}"; rooms takes no arguments`,
      );
    }
  });
});

describe("one tool per action", () => {
  test("takes the arguments alone, and absent ones as none", () => {
    expect(checkActionArguments(schemas, "digest", { room: "design" })).toEqual({
      ok: true,
      value: { room: "design", action: "digest" },
    });
    expect(checkActionArguments(schemas, "rooms", undefined)).toEqual({ ok: true, value: { action: "rooms" } });
    expect(checkActionArguments(schemas, "rooms", null)).toEqual({ ok: true, value: { action: "rooms" } });
  });

  test("refuses an action member, non-objects and unknown arguments, naming only what the tool has", () => {
    expect(refused(checkActionArguments(schemas, "digest", { room: "x", action: "rooms" }))).toBe(
      'digest: unknown argument "action" (this tool runs digest already; leave it out)',
    );
    expect(refused(checkActionArguments(schemas, "digest", [1]))).toBe("digest: the arguments must be a JSON object");
    expect(refused(checkActionArguments(schemas, "digest", 7))).toBe("digest: the arguments must be a JSON object");
    expect(refused(checkActionArguments(schemas, "wait", { timeout: 3 }))).toBe(
      'wait: unknown argument "timeout" (nearest known: "timeoutSeconds"); wait takes room, timeoutSeconds',
    );
  });

  test("no refusal of arguments without an action member names one, whatever they hold", () => {
    const args = fc.dictionary(
      hostileString(12),
      fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.nat())),
    );
    fc.assert(
      fc.property(fc.constantFrom("digest", "wait", "rooms", "forget" as const), args, (action, input) => {
        fc.pre(!Object.hasOwn(input, "action"));
        const check = checkActionArguments(schemas, action, input);
        if (check.ok) return;
        expect(check.problem).not.toMatch(/\baction\b/);
        expect(check.problem).not.toContain("\n");
        expectShowable(check.problem);
      }),
      { numRuns: 500 },
    );
  });

  test("accepts exactly what the action's schema accepts once null members are dropped (the schema as reference)", () => {
    const value = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constant(null), fc.constant(undefined));
    const args = fc.dictionary(fc.constantFrom("room", "budget", "timeoutSeconds", "id", "source", "bugdet"), value);
    fc.assert(
      fc.property(fc.constantFrom("digest", "wait", "rooms", "forget" as const), args, (action, input) => {
        const reference = schemas[action].safeParse({
          ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null)),
          action,
        }).success;
        expect(checkActionArguments(schemas, action, input).ok).toBe(reference);
        expect(checkToolCall(schemas, { ...input, action }).ok).toBe(reference);
      }),
      { numRuns: 500 },
    );
  });
});

test.each([
  ["timeout", ["room", "timeoutSeconds"], "timeoutSeconds"],
  ["timeout_seconds", ["room", "timeoutSeconds"], "timeoutSeconds"],
  ["bugdet", ["room", "budget"], "budget"],
  ["after_seq", ["room", "afterSeq", "limit"], "afterSeq"],
  ["Room", ["room", "body", "headline"], "room"],
  ["bdy", ["room", "body", "headline"], "body"],
  ["headlines", ["room", "body", "headline"], "headline"],
  ["qeury", ["query", "budget", "limit", "offset"], "query"],
  ["x".repeat(10_000), ["room"], "room"],
  ["anything", [], undefined],
])("nearestName(%j) among %j is %j", (name, known, nearest) => {
  expect(nearestName(name, known)).toBe(nearest);
});

test("JSON Schemas: the tool's without $schema, an action's closed and without its action member", () => {
  expect(toolJsonSchema(schemas.rooms)).toEqual({
    type: "object",
    properties: { action: { type: "string", const: "rooms" } },
    required: ["action"],
    additionalProperties: false,
  });
  expect(actionArgumentsJsonSchema(schemas.digest)).toEqual({
    type: "object",
    properties: {
      room: { type: "string", minLength: 1 },
      budget: { type: "integer", minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
    },
    required: ["room"],
    additionalProperties: false,
  });
  expect(actionArgumentsJsonSchema(schemas.rooms)).toEqual({
    type: "object",
    properties: {},
    additionalProperties: false,
  });
  expect(actionArgumentsJsonSchema(schemas.forget)).toMatchObject({
    additionalProperties: false,
    properties: { id: { type: "number" } },
  });
});
