import { PassThrough } from "node:stream";
import fc from "fast-check";
import { expect, test } from "vitest";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { TopLevelFieldScanner } from "../src/top-level-fields.js";
import { LineBoundedStdioTransport } from "../src/transport.js";

/** Cuts bytes at the given points, as a pipe might deliver them. */
function pieces(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    out.push(bytes.subarray(from, point));
    from = point;
  }
  return out;
}

const id = fc.oneof(fc.integer({ min: 0, max: 2 ** 40 }), fc.string({ maxLength: 20 }));
/** JSON values with `id` keys (and escapes, and nesting) inside, to try to pass for the top-level one. */
const decoy = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string({ maxLength: 12 }),
    fc.integer(),
    fc.constantFrom(true, false, null, '"id":1', '\\"id\\"'),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("id", "method", "x", 'i"d'), tie("value"), { maxKeys: 3 }),
  ),
})).value;

test("property: the scanner finds the top-level id and method, however the line is cut and whatever is nested", () => {
  fc.assert(
    fc.property(
      id,
      fc.string({ maxLength: 20 }),
      decoy,
      fc.boolean(),
      fc.array(fc.nat(), { maxLength: 6 }),
      (requestId, method, params, idFirst, cuts) => {
        const message = idFirst
          ? { id: requestId, jsonrpc: "2.0", method, params }
          : { jsonrpc: "2.0", method, params, id: requestId };
        const bytes = Buffer.from(JSON.stringify(message), "utf8");
        const scanner = new TopLevelFieldScanner(["id", "method"]);
        for (const piece of pieces(bytes, cuts)) scanner.feed(piece);
        scanner.end();
        expect(JSON.parse(scanner.raw("id") ?? "null")).toEqual(requestId);
        expect(JSON.parse(scanner.raw("method") ?? "null")).toEqual(method);
      },
    ),
    { numRuns: 500 },
  );
});

test("a number that ends the object, and ids too long to keep", () => {
  const last = new TopLevelFieldScanner(["id"]);
  last.feed(Buffer.from('{"jsonrpc":"2.0","id":42}'));
  last.end();
  expect(last.raw("id")).toBe("42");
  const long = new TopLevelFieldScanner(["id"]);
  long.feed(Buffer.from(`{"id":"${"x".repeat(1000)}"}`));
  long.end();
  expect(long.raw("id")).toBeUndefined();
  const array = new TopLevelFieldScanner(["id"]);
  array.feed(Buffer.from('[{"id":1}]'));
  array.end();
  expect(array.raw("id")).toBeUndefined();
});

test("a 5 MB line never holds more than the line limit in memory, and the next line is read as usual", async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new LineBoundedStdioTransport(stdin, stdout, { maxLineBytes: 64 * 1024 });
  const received: JSONRPCMessage[] = [];
  const errors: string[] = [];
  transport.onmessage = (message) => received.push(message);
  transport.onerror = (error) => errors.push(error.message);
  let written = "";
  stdout.on("data", (chunk: Buffer) => (written += chunk.toString("utf8")));
  await transport.start();
  const big = `{"jsonrpc":"2.0","method":"tools/call","params":{"body":"${"y".repeat(5_000_000)}"},"id":"big"}\n`;
  let most = 0;
  for (let at = 0; at < big.length; at += 16 * 1024) {
    stdin.write(big.slice(at, at + 16 * 1024));
    await new Promise((resolve) => setImmediate(resolve));
    most = Math.max(most, transport.bufferedBytes);
  }
  stdin.write('{"jsonrpc":"2.0","method":"ping","id":2}\r\n');
  await new Promise((resolve) => setImmediate(resolve));
  expect(most).toBeLessThanOrEqual(64 * 1024);
  expect(received).toEqual([{ jsonrpc: "2.0", method: "ping", id: 2 }]);
  expect(errors).toEqual([`discarded a ${big.length - 1}-byte line, over the limit of 65536 bytes`]);
  expect(JSON.parse(written.split("\n")[0] ?? "")).toMatchObject({
    jsonrpc: "2.0",
    id: "big",
    error: { code: -32600 },
  });
  await transport.close();
});

test("JSON that is not JSON-RPC: an Invalid Request error when it has an id and a method, else only a report", async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new LineBoundedStdioTransport(stdin, stdout);
  const errors: string[] = [];
  transport.onerror = (error) => errors.push(error.message);
  let written = "";
  stdout.on("data", (chunk: Buffer) => (written += chunk.toString("utf8")));
  await transport.start();
  stdin.write('{"jsonrpc":"1.0","method":"tools/list","id":3}\n[1,2]\nnot json\n\n');
  await new Promise((resolve) => setImmediate(resolve));
  expect(
    written
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown),
  ).toEqual([
    {
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 request this server can read" },
    },
  ]);
  expect(errors).toEqual([
    "skipped a line that is not a JSON-RPC message",
    "skipped a line that is not a JSON-RPC message",
    expect.stringMatching(/^skipped a line that is not JSON \(/),
  ]);
  await transport.close();
});
