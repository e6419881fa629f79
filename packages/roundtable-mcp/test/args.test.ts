import fc from "fast-check";
import { expect, test } from "vitest";
import { McpUsageError, parseMcpArguments } from "@orphus/roundtable-mcp";

function usageError(argv: string[]): string {
  try {
    parseMcpArguments(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(McpUsageError);
    expect((error as McpUsageError).code).toBe("ERR_MCP_USAGE");
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(argv)}`);
}

test("--as is required, and --agent-dir is optional", () => {
  expect(parseMcpArguments(["--as", "critic"])).toEqual({ command: "serve", role: "critic" });
  expect(parseMcpArguments(["--as=critic", "--agent-dir", "/tmp/a"])).toEqual({
    command: "serve",
    role: "critic",
    agentDir: "/tmp/a",
  });
  expect(usageError([])).toBe(
    "orphus-roundtable-mcp: --as <role> is required: the role this agent speaks as in every room",
  );
  expect(usageError(["--agent-dir", "/tmp/a"])).toContain("--as <role> is required");
});

test("help and version need no role", () => {
  expect(parseMcpArguments(["--help"])).toEqual({ command: "help" });
  expect(parseMcpArguments(["-h", "--as", "Not A Role"])).toEqual({ command: "help" });
  expect(parseMcpArguments(["--version"])).toEqual({ command: "version" });
});

test("bad arguments are refused with what was wrong", () => {
  expect(usageError(["--as", "Bad Role"])).toBe(
    `orphus-roundtable-mcp: --as "Bad\\u{20}Role" is not a role name: use 1 to 64 letters, digits, '.', '_' or '-', ` +
      "starting with a letter or digit",
  );
  expect(usageError(["--as", ""])).toBe("orphus-roundtable-mcp: --as needs a role name");
  expect(usageError(["--as", "critic", "--agent-dir", "  "])).toBe(
    "orphus-roundtable-mcp: --agent-dir needs a directory",
  );
  expect(usageError(["--as", "critic", "--bogus"])).toContain("Unknown option '--bogus'");
  expect(usageError(["--as", "critic", "extra"])).toContain("Unexpected argument 'extra'");
  expect(usageError(["--as"])).toContain("argument missing");
});

// The naive reference: the wire's role syntax, written out.
const ROLE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

test("a role is accepted exactly when it matches the wire's role syntax", () => {
  const roleLike = fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,70}$/),
    fc.string({ maxLength: 70 }),
    fc.string({ unit: fc.constantFrom("a", "Z", "0", ".", "_", "-", " ", "é", "/"), maxLength: 70 }),
  );
  fc.assert(
    fc.property(roleLike, (role) => {
      let accepted: boolean;
      try {
        accepted = parseMcpArguments(["--as", role]).command === "serve";
      } catch (error) {
        if (!(error instanceof McpUsageError)) throw error;
        accepted = false;
      }
      expect(accepted).toBe(ROLE.test(role));
    }),
  );
});
