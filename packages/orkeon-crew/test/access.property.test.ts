import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  accessOf,
  catalogue,
  DEFAULT_TOOL_TABLE,
  fallbackDecision,
  familyOf,
  gateDecision,
  isExposed,
  MODE_NAMES,
  SPEECH_TOOL_ANNOTATIONS,
  type PermissionRules,
  type ToolCall,
  type ToolEntry,
  type ToolTable,
} from "@orphus/orkeon-crew";

const READ_ONLY = ["plan", "dontAsk"] as const;
/** What the catalogue withholds from the read-only modes, written out here rather than read from the package. */
const WITHHELD_FAMILIES = new Set(["edit", "github", "rag_eval", "http_api"]);
const WITHHELD_DEFAULT_TOOLS = new Set(["write_file", "edit_file", "github", "rag_eval", "http_api"]);

const toolName = fc.oneof(
  fc.constantFrom(...Object.keys(DEFAULT_TOOL_TABLE), "__proto__", "constructor", "toString", "hasOwnProperty"),
  fc.string({ maxLength: 12 }),
);
/** Argument shapes: anything JSON or JS can hold, plus the fields the table reads, with any value. */
const args = fc.oneof(
  fc.anything(),
  fc.record(
    {
      action: fc.oneof(fc.constantFrom("get_issue", "create_pr", "create_issue"), fc.anything()),
      method: fc.oneof(fc.constantFrom("GET", "head", "POST"), fc.anything()),
    },
    { requiredKeys: [] },
  ),
);
const mcpCall = fc.record(
  {
    kind: fc.constant("mcp" as const),
    server: fc.oneof(fc.constant("speech"), fc.string({ maxLength: 8 })),
    tool: fc.oneof(fc.constantFrom(...Object.keys(SPEECH_TOOL_ANNOTATIONS)), fc.string({ maxLength: 8 })),
    args,
    annotations: fc.record(
      { readOnlyHint: fc.oneof(fc.boolean(), fc.anything()) as fc.Arbitrary<boolean> },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ["kind", "server", "tool"] },
);
const builtinCall = fc.record(
  { kind: fc.constant("builtin" as const), tool: toolName, args },
  { requiredKeys: ["kind", "tool"] },
);
const call: fc.Arbitrary<ToolCall> = fc.oneof(builtinCall, mcpCall);
const mode = fc.constantFrom(...MODE_NAMES);
const rules: fc.Arbitrary<PermissionRules> = fc.record({
  allow: fc.array(fc.oneof(toolName, fc.constant("mcp__speech"), fc.constant("mcp__speech__speak")), { maxLength: 4 }),
  deny: fc.array(toolName, { maxLength: 2 }),
});

/** A user's table: the default rows plus arbitrary ones, with any family and any (even misbehaving) access. */
const entry: fc.Arbitrary<ToolEntry> = fc.record({
  family: fc.constantFrom("local-read", "edit", "github", "rag_eval", "http_api", "web_search"),
  access: fc.oneof(
    fc.constantFrom("read", "execute"),
    fc.constantFrom("read", "execute", "neither").map((a) => () => a as "read"),
    fc.constant(() => {
      throw new Error("row fails");
    }),
  ),
});
const table: fc.Arbitrary<ToolTable> = fc.oneof(
  fc.constant(DEFAULT_TOOL_TABLE),
  fc
    .dictionary(fc.string({ maxLength: 8 }), entry, { maxKeys: 6 })
    .map((extra) => ({ ...DEFAULT_TOOL_TABLE, ...extra })),
);

describe("access table invariants", () => {
  test("property: the table is total, every tool and argument shape gets a class", () => {
    fc.assert(
      fc.property(call, table, (c, t) => {
        expect(["read", "execute"]).toContain(accessOf(c, t));
      }),
      { numRuns: 500 },
    );
  });

  test("property: total even for arguments whose fields throw when read", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(["github", "action"], ["http_api", "method"]),
        fc.dictionary(fc.string(), fc.jsonValue()),
        ([tool, field], rest) => {
          const hostile = Object.defineProperty({ ...rest }, field, {
            enumerable: true,
            get() {
              throw new Error("hostile getter");
            },
          });
          expect(accessOf({ kind: "builtin", tool, args: hostile })).toBe("execute");
        },
      ),
    );
  });

  test("property: no read-only mode exposes, lets the gate or lets the fallback allow a tool the catalogue withholds", () => {
    fc.assert(
      fc.property(fc.constantFrom(...READ_ONLY), call, rules, table, (m, c, r, t) => {
        const family = familyOf(c, t);
        const withheld = family === undefined || WITHHELD_FAMILIES.has(family);
        if (withheld) {
          expect(isExposed(m, c, t)).toBe(false);
          expect(fallbackDecision(m, c, t)).toBe("deny");
          expect(gateDecision(m, c, r, t)).toBe("deny");
        }
        if (t === DEFAULT_TOOL_TABLE) {
          for (const tool of catalogue(m, t)) expect(WITHHELD_DEFAULT_TOOLS.has(tool)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  test("property: in a read-only mode the fallback allows only a call that declares a read", () => {
    fc.assert(
      fc.property(fc.constantFrom(...READ_ONLY), call, table, (m, c, t) => {
        if (fallbackDecision(m, c, t) === "allow") expect(accessOf(c, t)).toBe("read");
      }),
      { numRuns: 500 },
    );
  });

  test("property: the fallback is never more permissive than the catalogue, in any mode", () => {
    fc.assert(
      fc.property(mode, call, table, (m, c, t) => {
        if (fallbackDecision(m, c, t) === "allow") {
          expect(isExposed(m, c, t)).toBe(true);
          if (c.kind === "builtin") expect(catalogue(m, t)).toContain(c.tool);
          // Nothing the gate would ask about or refuse without any rule: a fallback has no one to ask.
          expect(gateDecision(m, c, { allow: [], deny: [] }, t)).toBe("allow");
        }
      }),
      { numRuns: 500 },
    );
  });

  test("property: in a read-only mode the fallback is stricter than the gate with any allow rules", () => {
    fc.assert(
      fc.property(fc.constantFrom(...READ_ONLY), call, rules, table, (m, c, r, t) => {
        if (fallbackDecision(m, c, t) === "allow")
          expect(gateDecision(m, c, { allow: r.allow, deny: [] }, t)).toBe("allow");
      }),
      { numRuns: 500 },
    );
  });

  test("property: the gate never asks in a read-only mode and never allows a tool outside the catalogue", () => {
    fc.assert(
      fc.property(mode, call, rules, table, (m, c, r, t) => {
        const decision = gateDecision(m, c, r, t);
        if (m === "plan" || m === "dontAsk") expect(decision).not.toBe("ask");
        if (!isExposed(m, c, t)) expect(decision).toBe("deny");
      }),
      { numRuns: 500 },
    );
  });
});
